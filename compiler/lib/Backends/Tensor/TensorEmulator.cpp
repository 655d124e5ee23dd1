//===- TensorEmulator.cpp - A CPU model of the generated tensor-core kernel ===//
//
// Mirrors the kernel of Tensor/templates/tensor.cu.tpl step for step: the same
// window geometry, the same zero fill, the same slice GEMMs chunk by chunk,
// the same points stored. Only the order of additions inside one MMA is a
// model: the products of one chunk are summed exactly (in double, which is
// exact for fp16/bf16/tf32 products) and added to the accumulator with one
// rounding to the accumulator type.
//
//===----------------------------------------------------------------------===//
#include "Backends/Tensor/TensorEmulator.h"
#include "Backends/Tensor/TensorPlanner.h"

#include <cmath>
#include <optional>

#include "llvm/Support/ErrorHandling.h"

namespace stencilc {

namespace {

double roundAccumulator(double value, Precision accumulator) {
  return accumulator == Precision::FP64 ? value : static_cast<double>(static_cast<float>(value));
}

} // namespace

bool stepWritesPoint(const StencilSpec &spec, int ny, int nx, long long y, long long x) {
  if (y < 0 || x < 0 || y >= ny || x >= nx) {
    return false;
  }
  if (spec.boundary != BoundaryKind::Fixed) {
    return true;
  }
  const int r = spec.radius;
  return (spec.dims == 1 || (y >= r && y < ny - r)) && x >= r && x < nx - r;
}

double boundaryRead(const StencilSpec &spec, const Grid2D &in, long long y, long long x) {
  if (y >= 0 && x >= 0 && y < in.ny && x < in.nx) {
    return in.at(y, x);
  }
  return readOutside(spec,
                     [&] { return in.at(foldIndex(spec, y, in.ny), foldIndex(spec, x, in.nx)); });
}

namespace {

/// Fills slab `slab` of a block's window as the kernel's fetchWindow does:
/// rows [0, loadedRows) x columns [loadedColBegin, loadedColEnd) with
/// read(y, x) around the block at (y0, x0), rounded to the MMA operand, the
/// rest zeros.
void fillSlab(const Plan &plan, std::vector<double> &window, int slab, long long y0, long long x0,
              auto read) {
  const TensorPlan &tp = plan.tensor();
  double *base = window.data() + std::size_t(slab) * tp.windowRows * tp.windowPitch;
  std::fill(base, base + std::size_t(tp.windowRows) * tp.windowPitch, 0.0);
  for (int w = 0; w < tp.loadedRows; ++w) {
    for (int c = tp.loadedColBegin; c < tp.loadedColEnd; ++c) {
      base[std::size_t(w) * tp.windowPitch + c] =
          roundInputOperand(read(y0 - tp.haloRows + w, x0 - tp.haloCols + c), plan.spec.precision);
    }
  }
}

/// The accumulators (tileM x tileN, row-major) of the block's tile (tr, tc):
/// every slice GEMM chunk by chunk out of the window, as the warp's MMAs.
void tileGemms(const TensorPlan &tp, const std::vector<double> &window, int tr, int tc,
               std::vector<double> &acc) {
  const int M = tp.tileM, N = tp.tileN, n8 = tp.mma.n, k = tp.mma.k;
  auto win = [&](int row, int col) { return window[std::size_t(row) * tp.windowPitch + col]; };
  std::fill(acc.begin(), acc.end(), 0.0);
  for (const SliceGemm &g : tp.gemms) {
    const int firstRow = tp.sliceWindowRow(g) + tr * M;
    for (int chunk = 0; chunk < g.chunkCount; ++chunk) {
      for (int m = 0; m < M; ++m) {
        for (int n = 0; n < N; ++n) {
          // Output n is column n % n8 of the tile's MMA block n / n8.
          const int shift = n / n8 * n8, nn = n % n8;
          double sum = 0.0;
          for (int kk = 0; kk < k; ++kk) {
            const int kIndex = chunk * k + kk;
            double a, b;
            if (g.kind == SliceKind::Vertical) {
              a = g.param.at(m, kIndex);
              b = win(firstRow + kIndex, tp.haloCols + tc * N + n);
            } else {
              a = win(firstRow + m, tc * N + shift + g.firstK + kIndex);
              b = g.param.at(kIndex, nn);
            }
            sum += a * b;
          }
          double &cell = acc[std::size_t(m) * N + n];
          cell = roundAccumulator(cell + sum, tp.mma.accumulator);
        }
      }
    }
  }
}

/// The stacked form's accumulators (tileM x tileN) of strip tr of the block
/// (stencilc/device/stacked.cuh): for each MMA block, the groups' MMAs
/// chunk by chunk (every group's first chunk, then every second, ...), the
/// m-th MMA into accumulator m % tp.splitAccumulators, the accumulators
/// then added in order. Window 1 (the shifted one) holds window 0's values
/// 4 columns right: the same points of the grid.
void stackedTile(const Plan &plan, const StackedTaps &taps, const std::vector<double> &window,
                 int tr, std::vector<double> &acc) {
  const StencilSpec &spec = plan.spec;
  const TensorPlan &tp = plan.tensor();
  const int N = tp.tileN;
  const Precision a = tp.mma.accumulator;
  auto win = [&](int row, int col) { return window[std::size_t(row) * tp.windowPitch + col]; };
  // The products of one half of an MMA for output (m, n) of block `block`.
  auto half = [&](const StackedHalf &h, int chunk, int m, int block, int n) {
    double sum = 0.0;
    const int first = 8 * (block + h.first + chunk) + stackedHaloCols(spec.radius, 0) -
                      stackedHaloCols(spec.radius, h.window);
    for (int col = 0; col < 8; ++col) {
      sum += win(tr * tp.tileM + m + h.row, first + col) *
             taps.weight(h.row, h.window, h.first + chunk, col, n);
    }
    return sum;
  };
  int chunks = 0;
  for (const StackedGroup &g : tp.stackedGroups) {
    chunks = std::max(chunks, g.count);
  }
  for (int m = 0; m < tp.tileM; ++m) {
    for (int n = 0; n < N; ++n) {
      const int block = n / 8, nn = n % 8;
      double split[StackedSplit] = {};
      int index = 0;
      for (int k = 0; k < chunks; ++k) {
        for (const StackedGroup &g : tp.stackedGroups) {
          if (k < g.count) {
            const double products = half(g.half[0], k, m, block, nn) +
                                    (g.paired() ? half(g.half[1], k, m, block, nn) : 0.0);
            double &s = split[index++ % tp.splitAccumulators];
            s = roundAccumulator(s + products, a);
          }
        }
      }
      double total = split[0];
      for (int q = 1; q < tp.splitAccumulators; ++q) {
        total = roundAccumulator(total + split[q], a);
      }
      acc[std::size_t(m) * N + n] = total;
    }
  }
}

/// Every block tile of a rows x cols grid of outputs: fill(window, y0, x0)
/// fills the window of the block at (y0, x0), store(y, x, value) stores an
/// output the kernel computes (it decides which points the step writes).
void emulateBlocks(const Plan &plan, long long rows, long long cols, auto fill, auto store) {
  const TensorPlan &tp = plan.tensor();
  const int M = tp.tileM, N = tp.tileN;
  std::vector<double> window(std::size_t(tp.planes) * tp.windowRows * tp.windowPitch);
  std::vector<double> acc(std::size_t(M) * N);
  const std::optional<StackedTaps> taps =
      tp.stacked ? std::optional<StackedTaps>(plan.spec) : std::nullopt;
  for (long long y0 = 0; y0 < rows; y0 += tp.blockRows()) {
    for (long long x0 = 0; x0 < cols; x0 += tp.blockCols()) {
      fill(window, y0, x0);
      for (int tr = 0; tr < tp.tileRowsPerBlock; ++tr) {
        for (int tc = 0; tc < tp.tileColsPerBlock; ++tc) {
          const long long gy0 = y0 + (long long)tr * M;
          const long long gx0 = x0 + (long long)tc * N;
          if (gy0 >= rows || gx0 >= cols) {
            continue; // the kernel skips tiles outside the grid
          }
          if (tp.stacked) {
            stackedTile(plan, *taps, window, tr, acc);
          } else {
            tileGemms(tp, window, tr, tc, acc);
          }
          for (int m = 0; m < M; ++m) {
            for (int n = 0; n < N; ++n) {
              store(gy0 + m, gx0 + n, acc[std::size_t(m) * N + n]);
            }
          }
        }
      }
    }
  }
}

} // namespace

void emulateStep(const Plan &plan, const Grid2D &in, Grid2D &out) {
  const StencilSpec &spec = plan.spec;
  emulateAccumulators(plan, in, [&](long long y, long long x, double value) {
    if (stepWritesPoint(spec, in.ny, in.nx, y, x)) {
      out.at(y, x) = roundToStorage(value, spec.precision);
    }
  });
}

void emulateAccumulators(const Plan &plan, const Grid2D &in,
                         llvm::function_ref<void(long long, long long, double)> store) {
  const StencilSpec &spec = plan.spec;
  // The kernel's grid of outputs: the grid itself, or for a 1D line the
  // line cut into rows of one block's width (output (y, x) is point
  // y * W + x of the line), each row's window carrying its own halo.
  const bool line = spec.dims == 1;
  const long long W = plan.tensor().blockCols();
  const long long rows = line ? (in.nx + W - 1) / W : in.ny;
  // The kernel skips tiles from column nx on, the line's length in 1D.
  const long long cols = line ? std::min<long long>(W, in.nx) : in.nx;
  auto read = [&](long long y, long long x) {
    return line ? boundaryRead(spec, in, 0, y * W + x) : boundaryRead(spec, in, y, x);
  };
  emulateBlocks(
      plan, rows, cols,
      [&](std::vector<double> &window, long long y0, long long x0) {
        fillSlab(plan, window, 0, y0, x0, read);
      },
      [&](long long y, long long x, double value) {
        if (line) {
          x += y * W;
          y = 0;
        }
        if (y < in.ny && x < in.nx) {
          store(y, x, value);
        }
      });
}

void emulateStep3D(const Plan &plan, const GridND &in, GridND &out) {
  const StencilSpec &spec = plan.spec;
  emulateAccumulators3D(plan, in, [&](const std::array<long long, 3> &p, double value) {
    if (stepWritesPointND(spec, out, p)) {
      out.at(p) = roundToStorage(value, spec.precision);
    }
  });
}

void emulateAccumulators3D(
    const Plan &plan, const GridND &in,
    llvm::function_ref<void(const std::array<long long, 3> &, double)> store) {
  const StencilSpec &spec = plan.spec;
  const TensorPlan &tp = plan.tensor();
  const int nz = in.n[0], ny = in.n[1], nx = in.n[2], r = tp.planes / 2;
  // Plane by plane, as the kernel streams: slab s holds input plane z - r + s
  // (the kernel's ring puts the same rows in a rotating slab).
  for (long long z = 0; z < nz; ++z) {
    emulateBlocks(
        plan, ny, nx,
        [&](std::vector<double> &window, long long y0, long long x0) {
          for (int s = 0; s < tp.planes; ++s) {
            fillSlab(plan, window, s, y0, x0, [&](long long y, long long x) {
              return boundaryReadND(spec, in, {z - r + s, y, x});
            });
          }
        },
        [&](long long y, long long x, double value) {
          if (y < ny && x < nx) {
            store({z, y, x}, value);
          }
        });
  }
}

void referenceStep(const StencilSpec &spec, const Grid2D &in, Grid2D &out) {
  for (long long y = 0; y < in.ny; ++y) {
    for (long long x = 0; x < in.nx; ++x) {
      if (!stepWritesPoint(spec, in.ny, in.nx, y, x)) {
        continue;
      }
      double sum = 0.0;
      for (const Term &t : spec.terms) {
        // A 1D spec's offsets are along x (its only axis).
        const int dy = spec.dims == 1 ? 0 : t.offset.d[0];
        const int dx = spec.dims == 1 ? t.offset.d[0] : t.offset.d[1];
        sum += t.coefficient * boundaryRead(spec, in, y + dy, x + dx);
      }
      out.at(y, x) = sum;
    }
  }
}

double relativeL2Error(const StencilSpec &spec, const Grid2D &result, const Grid2D &reference) {
  double diff = 0.0, norm = 0.0;
  for (long long y = 0; y < reference.ny; ++y) {
    for (long long x = 0; x < reference.nx; ++x) {
      if (!stepWritesPoint(spec, reference.ny, reference.nx, y, x)) {
        continue;
      }
      double d = result.at(y, x) - reference.at(y, x);
      diff += d * d;
      norm += reference.at(y, x) * reference.at(y, x);
    }
  }
  if (norm == 0.0) {
    return diff == 0.0 ? 0.0 : INFINITY;
  }
  return std::sqrt(diff / norm);
}

} // namespace stencilc
