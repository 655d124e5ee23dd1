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

#include <algorithm>
#include <map>

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

/// a + b rounded once to the arithmetic type (the kernels' add: a double
/// sum of two floats rounds to the float sum, 53 >= 2 * 24 + 2).
double addRounded(double a, double b, Precision compute) {
  return roundToStorage(a + b, compute == Precision::FP64 ? Precision::FP64 : Precision::FP32);
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

/// Adds input plane `p`'s part of the paired order into the queue of the
/// item's output at column x, as the generated addPlane of that order: its
/// terms at the point first, then an even plane's row pass as one block into the output whose rows
/// end at p, kept in `pending`; an odd plane's with the pending one, as their pair, into the
/// outputs holding both, and alone into the output whose rows start at p.
void addPairedPlane(const SimtPlan &sp, long long x, long long p,
                    llvm::function_ref<double(int)> row, double &pending,
                    llvm::function_ref<double &(int)> entry) {
  const PairedRuns runs = *pairedRuns(*sp.lowRank.form);
  const double h = pairedRowPass(runs, sp.compute, x, row);
  const auto add = [&](int dy, double v, double c) {
    double &q = entry(sp.radiusZ - dy);
    q = multiplyAdd(c, v, q, sp.compute);
  };
  for (const LowRankTerm &t : runs.atPoint) {
    add(t.dy, row(t.dx), t.coefficient);
  }
  if ((p & 1) == 0) {
    add(runs.hiY, h, runs.c);
    pending = h;
    return;
  }
  const double pair = addRounded(pending, h, sp.compute);
  for (int dy = runs.hiY; dy > runs.loY; --dy) {
    add(dy, pair, runs.c);
  }
  add(runs.loY, h, runs.c);
}

/// Adds input plane `p`'s part of the 3D low-rank form into the queue of an
/// item's output o, as the generated addPlane: each plane value from 0 (the
/// first tap a product), then each term into the entry of its output plane
/// p - dy. `pass(k, dy)` is the block's shared row pass k at row offset dy,
/// `read(dy, dx)` the plane window at that offset of the output.
void addLowRank3DPlane(const SimtPlan &sp, llvm::function_ref<double(int, int)> pass,
                       llvm::function_ref<double(int, int)> read,
                       llvm::function_ref<double &(int)> entry) {
  const LowRankForm &f = *sp.lowRank.form;
  const auto source = [&](int p, int dy, int dx) { return p >= 0 ? pass(p, dy) : read(dy, dx); };
  const std::vector<double> values = lowRankPlaneValues(f, sp.compute, source);
  for (const LowRankTerm &t : f.terms) {
    double &q = entry(sp.radiusZ - t.dy);
    const double v =
        t.plane >= 0 ? values[static_cast<std::size_t>(t.plane)] : source(t.pass, t.row, t.dx);
    q = multiplyAdd(t.coefficient, v, q, sp.compute);
  }
}

/// The block's row passes of the 3D low-rank form over its plane window
/// (pitch columns a row, the tile's columns from haloX), as simt::passPlane
/// computes them: pass k of window row `row`, tile column `col`, at
/// [(k * planeRows + row) * tileX + col]. None for any other plan.
std::vector<double> sharedRowPasses(const SimtPlan &sp, const std::vector<double> &plane) {
  std::vector<double> passes;
  if (!sp.lowRank.form || sp.lowRank.form->dims != 3) {
    return passes;
  }
  const LowRankForm &f = *sp.lowRank.form;
  for (int k = 0; k < f.passes; ++k) {
    for (int row = 0; row < sp.planeRows; ++row) {
      for (int col = 0; col < sp.tileX; ++col) {
        passes.push_back(lowRankRowPass(f, k, sp.compute, [&](int dx) {
          return plane[std::size_t(row) * sp.pitch + sp.haloX + col + dx];
        }));
      }
    }
  }
  return passes;
}

/// Where an item's plane is (ItemPlane::p of the internal view) and what
/// it keeps from plane to plane besides its queue: the paired order's
/// pending row passes, one an output.
struct ItemPlane {
  long long p = 0, x0 = 0;
  int row = 0, col = 0;
  double *pending = nullptr;
};

/// Adds the plane window `plane` (with its shared row passes `passes`) into
/// the queue of item `it` (row, col of the block at column x0), as the
/// kernel's addPlane for each output o: the direct slices, or the low-rank
/// form (in the paired order where planned).
void addItemPlane(const Plan &plan, const std::vector<double> &plane,
                  const std::vector<double> &passes, const ItemPlane &it,
                  llvm::function_ref<double &(int, int)> q) {
  const int row = it.row, col = it.col;
  const SimtPlan &sp = plan.simt();
  const int H = sp.haloX, ry = sp.radiusY, rz = sp.radiusZ;
  const auto window = [&](int dy, int dx, int o) {
    return plane[std::size_t(row + ry + dy) * sp.pitch + col + H + dx + o];
  };
  for (int o = 0; o < sp.outputsX; ++o) {
    const auto entry = [&](int j) -> double & { return q(j, o); };
    if (sp.lowRank.form && sp.lowRank.form->dims == 3) {
      addLowRank3DPlane(
          sp,
          [&](int k, int dy) {
            return passes[(std::size_t(k) * sp.planeRows + row + ry + dy) * sp.tileX + col + o];
          },
          [&](int dy, int dx) { return window(dy, dx, o); }, entry);
    } else if (sp.lowRank.form && sp.lowRank.form->paired) {
      addPairedPlane(
          sp, it.x0 + col + o, it.p, [&](int dx) { return window(0, dx, o); }, it.pending[o],
          entry);
    } else if (sp.lowRank.form) { // 2D: the plane is one row
      addLowRankPlane(sp, [&](int dx) { return window(0, dx, o); }, entry);
    } else {
      for (const SimtSlice &slice : sp.slices) {
        for (const SimtTerm &t : slice.terms) {
          double &acc = q(rz - slice.dz, o);
          acc = termMultiplyAdd(plan, t.coefficient, window(t.dy, t.dx, o), acc);
        }
      }
    }
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

void forPairedBlocks(long long at, int lo, int hi, llvm::function_ref<void(int, bool)> block) {
  for (int d = lo; d <= hi; ++d) {
    const bool pair = ((at + d) & 1) == 0 && d < hi;
    block(d, pair);
    d += pair ? 1 : 0;
  }
}

std::optional<PairedRuns> pairedRuns(const LowRankForm &form) {
  const auto run = [](const LowRankTerm &t) { return t.pass == 0; };
  const auto first = std::find_if(form.terms.begin(), form.terms.end(), run);
  if (form.dims != 2 || form.passes != 1 || form.rowTaps.empty() || first == form.terms.end()) {
    return std::nullopt;
  }
  const auto last = std::find_if(form.terms.rbegin(), form.terms.rend(), run);
  PairedRuns runs{
      form.rowTaps.front().dx, form.rowTaps.back().dx, first->dy, last->dy, first->coefficient, {}};
  for (std::size_t k = 0; k < form.rowTaps.size(); ++k) {
    const LowRankRowTap &t = form.rowTaps[k];
    if (t.pass != 0 || t.weight != 1.0 || t.dx != runs.loX + static_cast<int>(k)) {
      return std::nullopt;
    }
  }
  int dy = runs.loY; // the run's next row
  for (const LowRankTerm &t : form.terms) {
    if (t.pass == 0 && (t.dy != dy++ || t.coefficient != runs.c)) {
      return std::nullopt;
    }
    if (t.pass < 0 && (t.dy < runs.loY || t.dy > runs.hiY)) {
      return std::nullopt; // a term at the point outside the run's rows
    }
    if (t.pass < 0) {
      runs.atPoint.push_back(t);
    }
  }
  return dy == runs.hiY + 1 ? std::optional<PairedRuns>(runs) : std::nullopt;
}

double pairedRowPass(const PairedRuns &runs, Precision compute, long long x,
                     llvm::function_ref<double(int)> read) {
  double h = 0.0;
  forPairedBlocks(x, runs.loX, runs.hiX, [&](int d, bool pair) {
    const double block = pair ? addRounded(read(d), read(d + 1), compute) : read(d);
    h = d == runs.loX ? block : addRounded(h, block, compute);
  });
  return h;
}

double pairedPoint(const PairedRuns &runs, Precision compute, long long y, long long x,
                   llvm::function_ref<double(int, int)> read) {
  const auto pass = [&](int dy) {
    return pairedRowPass(runs, compute, x, [&](int dx) { return read(dy, dx); });
  };
  double acc = 0.0;
  forPairedBlocks(y, runs.loY, runs.hiY, [&](int d, bool pair) {
    // The terms at the point of the block's rows come first, as each row
    // adds them when it arrives and the block when it is whole.
    for (const LowRankTerm &t : runs.atPoint) {
      if (t.dy == d || (pair && t.dy == d + 1)) {
        acc = multiplyAdd(t.coefficient, read(t.dy, t.dx), acc, compute);
      }
    }
    const double block = pair ? addRounded(pass(d), pass(d + 1), compute) : pass(d);
    acc = multiplyAdd(runs.c, block, acc, compute);
  });
  return acc;
}

std::vector<double> lowRankPlaneValues(const LowRankForm &form, Precision compute,
                                       llvm::function_ref<double(int, int, int)> source) {
  std::vector<double> values(static_cast<std::size_t>(form.planeValues));
  std::vector<bool> started(values.size(), false);
  for (const LowRankPlaneTap &t : form.planeTaps) {
    const double v = source(t.pass, t.dy, t.dx);
    double &value = values[static_cast<std::size_t>(t.plane)];
    value = started[t.plane] ? multiplyAdd(t.coefficient, v, value, compute)
                             : roundToStorage(t.coefficient * v, compute);
    started[t.plane] = true;
  }
  return values;
}

double lowRank3DPoint(const LowRankForm &form, Precision compute,
                      llvm::function_ref<double(int, int, int)> read) {
  // Plane dz's row pass k at row offset dy, and its source (pass, dy, dx).
  const auto source = [&](int dz, int pass, int dy, int dx) {
    return pass >= 0 ? lowRankRowPass(form, pass, compute, [&](int x) { return read(dz, dy, x); })
                     : read(dz, dy, dx);
  };
  std::map<int, std::vector<double>> values; // by plane offset, once each
  double acc = 0.0;
  for (const LowRankTerm &t : form.terms) {
    double v = 0.0;
    if (t.plane >= 0) {
      auto [at, added] = values.try_emplace(t.dy);
      if (added) {
        at->second = lowRankPlaneValues(
            form, compute, [&](int pass, int dy, int dx) { return source(t.dy, pass, dy, dx); });
      }
      v = at->second[static_cast<std::size_t>(t.plane)];
    } else {
      v = source(t.dy, t.pass, t.row, t.dx);
    }
    acc = multiplyAdd(t.coefficient, v, acc, compute);
  }
  return acc;
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
  std::vector<double> pending(std::size_t(itemCount) * O);
  auto q = [&](int item, int j, int o) -> double & {
    return queue[(std::size_t(item) * Q + j) * O + o];
  };

  const int chunk = sp.chunkFor(nz, ny, nx);
  for (long long zBegin = 0; zBegin < nz; zBegin += chunk) {
    const long long zEnd = std::min(zBegin + chunk, nz);
    for (long long y0 = 0; y0 < ny; y0 += sp.tileY) {
      for (long long x0 = 0; x0 < nx; x0 += sp.tileX) {
        std::fill(queue.begin(), queue.end(), 0.0);
        std::fill(pending.begin(), pending.end(), 0.0);
        for (long long p = zBegin - rz; p <= zEnd - 1 + rz; ++p) {
          for (int row = 0; row < sp.planeRows; ++row) {
            for (int c = 0; c < sp.pitch; ++c) {
              plane[std::size_t(row) * sp.pitch + c] =
                  boundaryReadND(spec, in, fromInternal(dims, p, y0 - ry + row, x0 - H + c));
            }
          }
          const std::vector<double> passes = sharedRowPasses(sp, plane);
          for (int item = 0; item < itemCount; ++item) {
            const ItemPlane it{p, x0, item / colGroups, item % colGroups * O,
                               &pending[std::size_t(item) * O]};
            addItemPlane(plan, plane, passes, it,
                         [&](int j, int o) -> double & { return q(item, j, o); });
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
                  out.at(i) = roundToStorage(scaledSum(sp, q(item, 0, o)), spec.precision);
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

double scaledSum(const SimtPlan &sp, double sum) {
  return sp.scaled.on() ? sp.scaled.factor * sum : sum;
}

} // namespace stencilc
