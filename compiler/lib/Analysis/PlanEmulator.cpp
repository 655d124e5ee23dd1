//===- PlanEmulator.cpp - A CPU model of the generated tensor-core kernel --===//
//
// Mirrors the kernel of templates/tensor2d.cu.tpl step for step: the same
// window geometry, the same zero fill, the same slice GEMMs chunk by chunk,
// the same points stored. Only the order of additions inside one MMA is a
// model: the products of one chunk are summed exactly (in double, which is
// exact for fp16/bf16/tf32 products) and added to the accumulator with one
// rounding to the accumulator type.
//
//===----------------------------------------------------------------------===//
#include "stencilc/PlanEmulator.h"

#include <cmath>

#include "llvm/Support/ErrorHandling.h"

namespace stencilc {

namespace {

long long wrap(long long index, long long size) {
  long long r = index % size;
  return r < 0 ? r + size : r;
}

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
  switch (spec.boundary) {
  case BoundaryKind::Fixed:
    return 0.0;
  case BoundaryKind::Constant:
    return roundToStorage(spec.boundaryValue, spec.precision);
  case BoundaryKind::Periodic:
    return in.at(wrap(y, in.ny), wrap(x, in.nx));
  }
  llvm_unreachable("unknown boundary kind");
}

void emulateStep(const Plan &plan, const Grid2D &in, Grid2D &out) {
  const StencilSpec &spec = plan.spec;
  const TensorPlan &tp = plan.tensor;
  const int M = tp.tileM, N = tp.tileN, n8 = tp.mma.n, k = tp.mma.k;
  // The kernel's grid of outputs: the grid itself, or for a 1D line the
  // line cut into rows of one block's width (output (y, x) is point
  // y * W + x of the line), each row's window carrying its own halo.
  const bool line = spec.dims == 1;
  const long long W = tp.blockCols();
  const long long rows = line ? (in.nx + W - 1) / W : in.ny;
  const long long cols = line ? W : in.nx;
  auto read = [&](long long y, long long x) {
    return line ? boundaryRead(spec, in, 0, y * W + x) : boundaryRead(spec, in, y, x);
  };
  auto store = [&](long long y, long long x, double value) {
    if (line) {
      x += y * W;
      y = 0;
    }
    if (stepWritesPoint(spec, in.ny, in.nx, y, x)) {
      out.at(y, x) = roundToStorage(value, spec.precision);
    }
  };
  const long long blocksDown = (rows + tp.blockRows() - 1) / tp.blockRows();
  const long long blocksAcross = (cols + W - 1) / W;
  std::vector<double> window(std::size_t(tp.windowRows) * tp.windowPitch);
  std::vector<double> acc(std::size_t(M) * N);

  for (long long by = 0; by < blocksDown; ++by) {
    for (long long bx = 0; bx < blocksAcross; ++bx) {
      const long long y0 = (long long)by * tp.blockRows();
      const long long x0 = (long long)bx * tp.blockCols();
      // The window fill: input with the boundary rule, zeros elsewhere.
      std::fill(window.begin(), window.end(), 0.0);
      for (int w = 0; w < tp.loadedRows; ++w) {
        for (int c = tp.loadedColBegin; c < tp.loadedColEnd; ++c) {
          double value = read(y0 - tp.haloRows + w, x0 - tp.haloCols + c);
          window[std::size_t(w) * tp.windowPitch + c] = roundInputOperand(value, spec.precision);
        }
      }
      auto win = [&](int row, int col) { return window[std::size_t(row) * tp.windowPitch + col]; };

      for (int tr = 0; tr < tp.tileRowsPerBlock; ++tr) {
        for (int tc = 0; tc < tp.tileColsPerBlock; ++tc) {
          const long long gy0 = y0 + (long long)tr * M;
          const long long gx0 = x0 + (long long)tc * N;
          if (gy0 >= rows || gx0 >= in.nx) {
            continue; // the kernel skips tiles outside the grid
          }
          std::fill(acc.begin(), acc.end(), 0.0);
          for (const SliceGemm &g : tp.gemms) {
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
                      b = win(tr * M + g.firstK + kIndex, tp.haloCols + tc * N + n);
                    } else {
                      a = win(tr * M + tp.haloRows + g.dy + m, tc * N + shift + g.firstK + kIndex);
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

double relativeTolerance(Precision p) {
  switch (p) {
  case Precision::FP64:
    return 1e-12;
  case Precision::FP32:
    return 2e-6;
  case Precision::TF32:
  case Precision::FP16:
    return 5e-3;
  case Precision::BF16:
    return 3e-2;
  }
  llvm_unreachable("unknown precision");
}

} // namespace stencilc
