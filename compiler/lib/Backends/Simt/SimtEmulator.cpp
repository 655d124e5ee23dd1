//===- SimtEmulator.cpp - A CPU model of the generated simt kernel ---------===//
//
// Mirrors runtime/include/stencilc/device/simt.cuh: the internal
// nz x ny x nx view of the grid, the blocks, the plane walk of each block,
// the plane window filled with the boundary rule, the item -> (row, column)
// mapping, the queue and its shift, and the stores. Every multiply-add is one fused operation
// rounded to the arithmetic type (the kernel calls __fmaf_rn / __fma_rn explicitly), or, in a
// packed plan, to the element type (__hfma2: a pair's two lanes are independent, so each
// output is modelled on its own).
//
//===----------------------------------------------------------------------===//
#include "Backends/Simt/SimtEmulator.h"

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

/// Adds input plane `p`'s part of the low-rank form into the queue of an
/// item's output o, as the generated addPlane: the row passes, then each
/// term into the entry of its output plane p - dy. `row(dx)` reads the
/// plane row at column offset dx of the output.
void addLowRankPlane(const SimtPlan &sp, llvm::function_ref<double(int)> row,
                     llvm::function_ref<double &(int)> entry) {
  const LowRankForm &f = *sp.lowRank.form;
  std::vector<double> passes(static_cast<std::size_t>(f.passes));
  for (int k = 0; k < f.passes; ++k) {
    passes[k] = lowRankRowPass(f, k, sp.compute, row);
  }
  for (const LowRankTerm &t : f.terms) {
    double &q = entry(sp.radiusZ - t.dy);
    q = multiplyAdd(t.coefficient, t.pass >= 0 ? passes[t.pass] : row(t.dx), q, sp.compute);
  }
}

} // namespace

double lowRankRowPass(const LowRankForm &form, int pass, Precision compute,
                      llvm::function_ref<double(int)> read) {
  bool first = true;
  double h = 0.0;
  for (const LowRankRowTap &t : form.rowTaps) {
    if (t.pass != pass) {
      continue;
    }
    const double x = read(t.dx);
    // A product of two values of the arithmetic type is exact in double for
    // fp32, so rounding it once to fp32 is the kernel's __fmul_rn.
    h = first ? roundToStorage(t.weight * x,
                               compute == Precision::FP64 ? Precision::FP64 : Precision::FP32)
              : multiplyAdd(t.weight, x, h, compute);
    first = false;
  }
  return h;
}

double lowRankPoint(const LowRankForm &form, Precision compute,
                    llvm::function_ref<double(int, int)> pass,
                    llvm::function_ref<double(int, int)> input) {
  double acc = 0.0;
  for (const LowRankTerm &t : form.terms) {
    acc = multiplyAdd(t.coefficient, t.pass >= 0 ? pass(t.dy, t.pass) : input(t.dy, t.dx), acc,
                      compute);
  }
  return acc;
}

double termMultiplyAdd(const Plan &plan, double c, double v, double acc) {
  const SimtPlan &sp = plan.simt();
  return sp.packed ? packedMultiplyAdd(c, v, acc, plan.spec.precision)
                   : multiplyAdd(c, v, acc, sp.compute);
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
            if (sp.lowRank.form) { // 2D: the plane is one row
              for (int o = 0; o < O; ++o) {
                addLowRankPlane(
                    sp, [&](int dx) { return plane[std::size_t(col + H + dx + o)]; },
                    [&](int j) -> double & { return q(item, j, o); });
              }
              continue;
            }
            for (const SimtSlice &slice : sp.slices) {
              const int j = rz - slice.dz;
              for (const SimtTerm &t : slice.terms) {
                for (int o = 0; o < O; ++o) {
                  const double v =
                      plane[std::size_t(row + ry + t.dy) * sp.pitch + col + H + t.dx + o];
                  q(item, j, o) = termMultiplyAdd(plan, t.coefficient, v, q(item, j, o));
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

} // namespace stencilc
