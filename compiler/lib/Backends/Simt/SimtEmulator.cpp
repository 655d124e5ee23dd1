//===- SimtEmulator.cpp - A CPU model of the generated simt kernel ---------===//
//
// Mirrors runtime/include/stencilc/device/simt.cuh: the internal
// nz x ny x nx view of the grid, the blocks, the plane walk of each block,
// the plane window filled with the boundary rule, the item -> (row, column)
// mapping, the queue and its shift, and the stores. Every multiply-add is one fused operation
// rounded to the arithmetic type (the kernel calls __fmaf_rn / __fma_rn explicitly).
//
//===----------------------------------------------------------------------===//
#include "Backends/Simt/SimtEmulator.h"

#include <cmath>

#include "llvm/Support/ErrorHandling.h"

#include "stencilc/runtime/boundary_index.h"

namespace stencilc {

namespace {

/// Point (z, y, x) of the kernel's internal view in index order.
std::array<long long, 3> fromInternal(int dims, long long z, long long y, long long x) {
  switch (dims) {
  case 1:
    return {x, 0, 0};
  case 2:
    return {z, x, 0};
  default:
    return {z, y, x};
  }
}

} // namespace

double multiplyAdd(double c, double v, double acc, Precision compute) {
  if (compute == Precision::FP64) {
    return std::fma(c, v, acc);
  }
  return static_cast<double>(
      std::fma(static_cast<float>(c), static_cast<float>(v), static_cast<float>(acc)));
}

long long foldIndex(const StencilSpec &spec, long long index, long long size) {
  static_assert(int(BoundaryKind::Mirror) == STENCILC_BOUNDARY_MIRROR &&
                    int(BoundaryKind::Clamp) == STENCILC_BOUNDARY_CLAMP &&
                    int(BoundaryKind::Periodic) == STENCILC_BOUNDARY_PERIODIC,
                "BoundaryKind follows stencil_info.h's stencilc_boundary");
  return stencilc_fold_index(static_cast<stencilc_boundary>(spec.boundary), index, size);
}

double readOutside(const StencilSpec &spec, llvm::function_ref<double()> folded) {
  switch (outsideRead(spec.boundary)) {
  case OutsideRead::Zero:
    return 0.0;
  case OutsideRead::Value:
    return roundToStorage(spec.boundaryValue, spec.precision);
  case OutsideRead::Fold:
    return folded();
  }
  llvm_unreachable("unknown boundary kind");
}

double boundaryReadND(const StencilSpec &spec, const GridND &in, std::array<long long, 3> i) {
  bool inside = true;
  for (int a = 0; a < in.dims; ++a) {
    inside = inside && i[a] >= 0 && i[a] < in.n[a];
  }
  if (inside) {
    return in.at(i);
  }
  return readOutside(spec, [&] {
    for (int a = 0; a < in.dims; ++a) {
      i[a] = foldIndex(spec, i[a], in.n[a]);
    }
    return in.at(i);
  });
}

GridND::GridND(int dims, std::array<int, 3> extents, double fill) : dims(dims), n(extents) {
  for (int a = dims; a < 3; ++a) {
    n[a] = 1;
  }
  values.assign(std::size_t(n[0]) * n[1] * n[2], fill);
}

std::size_t GridND::index(const std::array<long long, 3> &i) const {
  return std::size_t((i[0] * n[1] + i[1]) * n[2] + i[2]);
}

bool stepWritesPointND(const StencilSpec &spec, const GridND &grid,
                       const std::array<long long, 3> &i) {
  const long long ring = spec.boundary == BoundaryKind::Fixed ? spec.radius : 0;
  for (int a = 0; a < grid.dims; ++a) {
    if (i[a] < ring || i[a] >= grid.n[a] - ring) {
      return false;
    }
  }
  return true;
}

void emulateSimtStep(const Plan &plan, const GridND &in, GridND &out) {
  const StencilSpec &spec = plan.spec;
  const SimtPlan &sp = plan.simt();
  const int dims = spec.dims;
  // The kernel's view: nz x ny x nx.
  const long long nz = dims == 1 ? 1 : in.n[0];
  const long long ny = dims == 3 ? in.n[1] : 1;
  const long long nx = in.n[dims - 1];
  const int rz = sp.radiusZ, ry = sp.radiusY, H = sp.haloX;
  const int Q = sp.queueLength(), O = sp.outputsX;
  const int colGroups = sp.tileX / O;
  const int itemCount = sp.items();

  std::vector<double> plane(std::size_t(sp.planeRows) * sp.pitch);
  std::vector<double> queue(std::size_t(itemCount) * Q * O);
  auto q = [&](int item, int j, int o) -> double & {
    return queue[(std::size_t(item) * Q + j) * O + o];
  };

  const int chunk = sp.chunkFor(nz, ny, nx);
  for (long long zBegin = 0; zBegin < nz; zBegin += chunk) {
    const long long zEnd = std::min(zBegin + chunk, nz);
    for (long long y0 = 0; y0 < ny; y0 += sp.tileY) {
      for (long long x0 = 0; x0 < nx; x0 += sp.tileX) {
        std::fill(queue.begin(), queue.end(), 0.0);
        for (long long p = zBegin - rz; p <= zEnd - 1 + rz; ++p) {
          for (int row = 0; row < sp.planeRows; ++row) {
            for (int c = 0; c < sp.pitch; ++c) {
              plane[std::size_t(row) * sp.pitch + c] =
                  boundaryReadND(spec, in, fromInternal(dims, p, y0 - ry + row, x0 - H + c));
            }
          }
          for (int item = 0; item < itemCount; ++item) {
            const int row = item / colGroups, col = item % colGroups * O;
            for (const SimtSlice &slice : sp.slices) {
              const int j = rz - slice.dz;
              for (const SimtTerm &t : slice.terms) {
                for (int o = 0; o < O; ++o) {
                  const double v =
                      plane[std::size_t(row + ry + t.dy) * sp.pitch + col + H + t.dx + o];
                  q(item, j, o) = multiplyAdd(t.coefficient, v, q(item, j, o), sp.compute);
                }
              }
            }
          }
          // The oldest queue entry, output plane p - rz, is complete.
          const long long z = p - rz;
          for (int item = 0; item < itemCount; ++item) {
            const int row = item / colGroups, col = item % colGroups * O;
            for (int o = 0; o < O; ++o) {
              const long long y = y0 + row, x = x0 + col + o;
              if (z >= zBegin && z < zEnd && y < ny && x < nx) {
                const std::array<long long, 3> i = fromInternal(dims, z, y, x);
                if (stepWritesPointND(spec, out, i)) {
                  out.at(i) = roundToStorage(q(item, 0, o), spec.precision);
                }
              }
              for (int j = 0; j + 1 < Q; ++j) {
                q(item, j, o) = q(item, j + 1, o);
              }
              q(item, Q - 1, o) = 0.0;
            }
          }
        }
      }
    }
  }
}

void referenceStepND(const StencilSpec &spec, const GridND &in, GridND &out) {
  for (long long a = 0; a < in.n[0]; ++a) {
    for (long long b = 0; b < in.n[1]; ++b) {
      for (long long c = 0; c < in.n[2]; ++c) {
        const std::array<long long, 3> i{a, b, c};
        if (!stepWritesPointND(spec, in, i)) {
          continue;
        }
        double sum = 0.0;
        for (const Term &t : spec.terms) {
          sum +=
              t.coefficient *
              boundaryReadND(spec, in, {a + t.offset.d[0], b + t.offset.d[1], c + t.offset.d[2]});
        }
        out.at(i) = sum;
      }
    }
  }
}

double relativeL2ErrorND(const StencilSpec &spec, const GridND &result, const GridND &reference) {
  double diff = 0.0, norm = 0.0;
  for (long long a = 0; a < reference.n[0]; ++a) {
    for (long long b = 0; b < reference.n[1]; ++b) {
      for (long long c = 0; c < reference.n[2]; ++c) {
        const std::array<long long, 3> i{a, b, c};
        if (!stepWritesPointND(spec, reference, i)) {
          continue;
        }
        const double d = result.at(i) - reference.at(i);
        diff += d * d;
        norm += reference.at(i) * reference.at(i);
      }
    }
  }
  if (norm == 0.0) {
    return diff == 0.0 ? 0.0 : INFINITY;
  }
  return std::sqrt(diff / norm);
}

} // namespace stencilc
