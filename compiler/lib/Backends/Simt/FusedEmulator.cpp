//===- FusedEmulator.cpp - A CPU model of NAME_run's fused passes ----------===//
//
// Mirrors runtime/include/stencilc/device/fused.cuh (2D; FusedEmulatorND.cpp
// has 1D and 3D) block by block: the strips of `width` columns starting
// `halo` before the block's first stored column, the rows each level covers (level t: the block's
// rows and the (T - t) r rows on either side that later levels read), level 0 read with the
// boundary rule (0 outside under a folding rule: fusedLevelZero), each point of a later level
// computed where a single step computes it and kept where it does not (the fixed ring, the outside
// of a constant boundary), and the last level stored on the block's part; under clamp, mirror and
// reflect the band after it (fused_band.cuh).
//
//===----------------------------------------------------------------------===//
#include "Backends/Simt/FusedEmulator.h"
#include "Backends/Simt/SimtRankOne.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <utility>
#include <vector>

namespace stencilc {

bool fusedStepComputes(const StencilSpec &spec, long long y, long long n) {
  switch (outsideRead(spec.boundary)) {
  case OutsideRead::Zero:
    return y >= spec.radius && y < n - spec.radius;
  case OutsideRead::Value:
    return y >= 0 && y < n;
  case OutsideRead::Fold:
    // Periodic computes its wrapped extension; under clamp, mirror and
    // reflect a level's outside keeps what level 0 read there
    // (fusedLevelZero; the band corrects what that reaches, fused_band.cuh).
    return spec.boundary == BoundaryKind::Periodic || (y >= 0 && y < n);
  }
  return false;
}

double fusedLevelZero(const StencilSpec &spec, const GridND &in, std::array<long long, 3> i,
                      int levels) {
  if (foldsAtEdge(spec.boundary) && levels >= 2) {
    for (int axis = 0; axis < in.dims; ++axis) {
      if (i[axis] < 0 || i[axis] >= in.n[axis]) {
        return 0.0;
      }
    }
  }
  return boundaryReadND(spec, in, i);
}

namespace {

/// One block's levels: rows [firstRow, firstRow + rows) by the strip's
/// columns, NaN where the block holds no value.
struct Level {
  long long firstRow = 0;
  long long rows = 0;
  int width = 0;
  std::vector<double> values;

  Level(long long firstRow, long long rows, int width)
      : firstRow(firstRow), rows(rows), width(width),
        values(std::size_t(rows) * width, std::numeric_limits<double>::quiet_NaN()) {}
  double at(long long y, int c) const {
    if (y < firstRow || y >= firstRow + rows || c < 0 || c >= width) {
      return std::numeric_limits<double>::quiet_NaN();
    }
    return values[std::size_t(y - firstRow) * width + c];
  }
  double &at(long long y, int c) { return values[std::size_t(y - firstRow) * width + c]; }
};

/// One point of a level at row y, column x, from the level below (`at(dy,
/// dx)`), before its rounding to the element type: the terms' FMAs in the
/// step kernel's order, or the low-rank form's (each row pass computed from
/// the level's row, as the kernel's intermediates are; in the paired order
/// where planned). The band (fused_band.cuh's BandOf) computes the same.
double fusedPoint(const Plan &plan, long long y, long long x,
                  llvm::function_ref<double(int, int)> at) {
  const SimtPlan &sp = plan.simt();
  if (sp.lowRank.form && sp.lowRank.form->paired) {
    return pairedPoint(*pairedRuns(*sp.lowRank.form), sp.compute, y, x, at);
  }
  if (sp.lowRank.form) {
    const LowRankForm &f = *sp.lowRank.form;
    return lowRankPoint(
        f, sp.compute,
        [&](int dy, int pass) {
          return lowRankRowPass(f, pass, sp.compute, [&](int dx) { return at(dy, dx); });
        },
        at);
  }
  double acc = 0.0;
  for (const SimtSlice &slice : sp.slices) {
    for (const SimtTerm &term : slice.terms) {
      acc = termMultiplyAdd(plan, term.coefficient, at(slice.dz, term.dx), acc);
    }
  }
  return scaledSum(sp, acc);
}

/// The band of a pass of `levels` levels (fused_band.cuh) over `out`: every
/// point within W = levels r of an edge as that many levels give it, each
/// level computed on the whole grid from the level before read with the
/// boundary rule (a band block's window reaches W past what it stores, so
/// its levels hold the whole grid's values there). Points are (z, y, x), a
/// 2D grid one plane and a line one row of it.
void overlayBand(const Plan &plan, const GridND &in, GridND &out, int levels) {
  const int dims = plan.spec.dims;
  const std::array<long long, 3> n = dims == 1 ? std::array<long long, 3>{1, 1, in.n[0]}
                                     : dims == 2
                                         ? std::array<long long, 3>{1, in.n[0], in.n[1]}
                                         : std::array<long long, 3>{in.n[0], in.n[1], in.n[2]};
  const long long w = static_cast<long long>(levels) * plan.spec.radius;
  auto index = [&](long long z, long long y, long long x) {
    return dims == 1   ? std::array<long long, 3>{x, 0, 0}
           : dims == 2 ? std::array<long long, 3>{y, x, 0}
                       : std::array<long long, 3>{z, y, x};
  };
  auto point = [&](const GridND &level, long long z, long long y, long long x) {
    auto read = [&](int dz, int dy, int dx) {
      return boundaryReadND(plan.spec, level, index(z + dz, y + dy, x + dx));
    };
    if (dims == 3) {
      return fusedPoint3D(plan, read);
    }
    return roundToStorage(fusedPoint(plan, y, x, [&](int dy, int dx) { return read(0, dy, dx); }),
                          plan.spec.precision);
  };
  auto near = [&](int axis, long long i) {
    return axis >= 3 - dims && (i < w || i >= n[axis] - w);
  };
  GridND level = in;
  for (int l = 0; l < levels; ++l) {
    GridND next = level;
    for (long long z = 0; z < n[0]; ++z) {
      for (long long y = 0; y < n[1]; ++y) {
        for (long long x = 0; x < n[2]; ++x) {
          next.at(index(z, y, x)) = point(level, z, y, x);
        }
      }
    }
    level = std::move(next);
  }
  for (long long z = 0; z < n[0]; ++z) {
    for (long long y = 0; y < n[1]; ++y) {
      for (long long x = 0; x < n[2]; ++x) {
        if (near(0, z) || near(1, y) || near(2, x)) {
          out.at(index(z, y, x)) = level.at(index(z, y, x));
        }
      }
    }
  }
}

/// The fused kernel's blocks of a pass of `levels` levels, in -> out.
void fusedBlocks(const Plan &plan, const GridND &in, GridND &out, int levels);

} // namespace

void emulateFusedKernel(const Plan &plan, const GridND &in, GridND &out, int levels) {
  plan.spec.dims == 2 ? fusedBlocks(plan, in, out, levels)
                      : emulateFusedPassND(plan, in, out, levels);
}

void emulateFusedPass(const Plan &plan, const GridND &in, GridND &out, int levels) {
  const int dims = plan.spec.dims;
  const long long w = static_cast<long long>(levels) * plan.spec.radius;
  const bool band = plan.schedule.fused.band.has_value();
  // A grid within 2 W of its size on an axis is all band (bandedPass).
  bool allBand = false;
  for (int axis = 0; axis < dims; ++axis) {
    allBand = allBand || (band && in.n[axis] <= 2 * w);
  }
  if (!allBand) {
    emulateFusedKernel(plan, in, out, levels);
  }
  if (band) {
    overlayBand(plan, in, out, levels);
  }
}

namespace {

void fusedBlocks(const Plan &plan, const GridND &in, GridND &out, int levels) {
  const StencilSpec &spec = plan.spec;
  const FusedKernel &k = plan.schedule.fused;
  const long long ny = in.n[0], nx = in.n[1];
  const int r = spec.radius;
  const long long stored = k.storedColumns();
  for (long long yBegin = 0; yBegin < ny; yBegin += k.chunkRows) {
    const long long yEnd = std::min<long long>(yBegin + k.chunkRows, ny);
    for (long long x0 = 0; x0 < nx; x0 += stored) {
      const long long xFirst = x0 - k.halo; // the strip's column 0
      // Level 0: the input with the boundary rule (fusedLevelZero), over the
      // rows the last level's rows depend on.
      Level from(yBegin - levels * r, (yEnd - yBegin) + 2LL * levels * r, k.width);
      for (long long y = from.firstRow; y < from.firstRow + from.rows; ++y) {
        for (int c = 0; c < k.width; ++c) {
          from.at(y, c) = fusedLevelZero(spec, in, {y, xFirst + c, 0}, levels);
        }
      }
      for (int t = 1; t <= levels; ++t) {
        const long long lag = static_cast<long long>(levels - t) * r;
        Level to(yBegin - lag, (yEnd - yBegin) + 2 * lag, k.width);
        for (long long y = to.firstRow; y < to.firstRow + to.rows; ++y) {
          // The kernel computes every column but the strip's outermost r.
          for (int c = r; c < k.width - r; ++c) {
            const long long x = xFirst + c;
            if (!fusedStepComputes(spec, y, ny) || !fusedStepComputes(spec, x, nx)) {
              to.at(y, c) = from.at(y, c);
              continue;
            }
            to.at(y, c) = roundToStorage(
                fusedPoint(plan, y, x, [&](int dy, int dx) { return from.at(y + dy, c + dx); }),
                spec.precision);
          }
        }
        from = std::move(to);
      }
      for (long long y = yBegin; y < yEnd; ++y) {
        for (long long x = x0; x < std::min(x0 + stored, nx); ++x) {
          if (fusedStepComputes(spec, y, ny) && fusedStepComputes(spec, x, nx)) {
            out.at({y, x, 0}) = from.at(y, static_cast<int>(x - xFirst));
          }
        }
      }
    }
  }
}

} // namespace

void emulateRun(const Plan &plan, GridND &a, int steps) {
  const int fused = plan.schedule.fusedSteps;
  GridND b = a;                                // NAME_run's ring copy: b starts with a's ring
  if (const auto &p = plan.schedule.rankOne) { // composed.cuh's run
    for (int pass = 0; pass < steps / fused; ++pass) {
      emulateRankOnePass(plan, *p, a, b);
      std::swap(a, b);
    }
    int rest = steps % fused;
    if (p->remainder && rest >= p->remainder->steps) {
      emulateRankOnePass(plan, *p->remainder, a, b);
      std::swap(a, b);
      rest -= p->remainder->steps;
    }
    for (int step = 0; step < rest; ++step) {
      emulateSimtStep(plan, a, b);
      std::swap(a, b);
    }
    return;
  }
  for (int done = 0; done < steps; done += fused) {
    const int levels = std::min(fused, steps - done);
    if (fused > 1) {
      emulateFusedPass(plan, a, b, levels);
    } else {
      emulateSimtStep(plan, a, b);
    }
    std::swap(a, b);
  }
}

} // namespace stencilc
