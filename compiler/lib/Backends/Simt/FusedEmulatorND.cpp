//===- FusedEmulatorND.cpp - A CPU model of the 1D and 3D fused passes -----===//
//
// Mirrors runtime/include/stencilc/device/fused1d.cuh and fused3d.cuh block
// by block. 1D: a block's segment of `width` points starting `halo` before
// its first stored point. 3D: a block's window of `height` rows by `width`
// columns (halos of haloY rows and halo columns) over the planes each level
// covers (level t: the block's planes and the (T - t) r on either side that
// later levels read). Level 0 is read with the boundary rule
// (fusedLevelZero); every later level is computed at every point of the
// segment or window but its outermost r (where the kernels write nothing:
// NaN here), kept where a single step does not compute the point; the last
// level is stored on the block's tile, the fixed ring (its kept value)
// included, as the kernels do.
//
//===----------------------------------------------------------------------===//
#include <algorithm>
#include <limits>
#include <utility>
#include <vector>

#include "Backends/Simt/FusedEmulator.h"

namespace stencilc {

namespace {

constexpr double NaN = std::numeric_limits<double>::quiet_NaN();

/// The FMAs of one point: the step kernel's terms in its order, or its 3D
/// low-rank form's (each row pass and plane value computed from the level
/// below, as the fused kernel's are), `read(dz, dy, dx)` giving the level
/// below at that offset.
template <class Read> double stepPoint(const Plan &plan, Read read) {
  const SimtPlan &sp = plan.simt();
  if (sp.lowRank.form && sp.lowRank.form->dims == 3) {
    return roundToStorage(lowRank3DPoint(*sp.lowRank.form, sp.compute, read), plan.spec.precision);
  }
  double acc = 0.0;
  for (const SimtSlice &slice : sp.slices) {
    for (const SimtTerm &term : slice.terms) {
      acc = multiplyAdd(term.coefficient, read(slice.dz, term.dy, term.dx), acc, sp.compute);
    }
  }
  return roundToStorage(scaledSum(sp, acc), plan.spec.precision);
}

} // namespace

double fusedPoint3D(const Plan &plan, llvm::function_ref<double(int, int, int)> read) {
  return stepPoint(plan, read);
}

namespace {

void pass1D(const Plan &plan, const GridND &in, GridND &out, int levels) {
  const StencilSpec &spec = plan.spec;
  const FusedKernel &k = plan.schedule.fused;
  const long long nx = in.n[0];
  const int r = spec.radius;
  const long long stored = k.storedColumns();
  for (long long x0 = 0; x0 < nx; x0 += stored) {
    const long long xFirst = x0 - k.halo; // the segment's point 0
    std::vector<double> from(k.width);
    for (int c = 0; c < k.width; ++c) {
      from[c] = fusedLevelZero(spec, in, {xFirst + c, 0, 0}, levels);
    }
    for (int t = 1; t <= levels; ++t) {
      std::vector<double> to(k.width, NaN);
      for (int c = r; c < k.width - r; ++c) {
        to[c] = !fusedStepComputes(spec, xFirst + c, nx)
                    ? from[c]
                    : stepPoint(plan, [&](int, int, int dx) { return from[c + dx]; });
      }
      from = std::move(to);
    }
    for (long long x = x0; x < std::min(x0 + stored, nx); ++x) {
      out.at({x, 0, 0}) = from[x - xFirst];
    }
  }
}

/// One level of a 3D block: planes [firstPlane, +planes) of the window,
/// NaN where the block holds no value.
struct Window {
  long long firstPlane;
  long long planes;
  int height, width;
  std::vector<double> values;

  Window(long long firstPlane, long long planes, int height, int width)
      : firstPlane(firstPlane), planes(planes), height(height), width(width),
        values(std::size_t(planes) * height * width, NaN) {}
  std::size_t index(long long z, int cy, int cx) const {
    return (std::size_t(z - firstPlane) * height + cy) * width + cx;
  }
  double at(long long z, int cy, int cx) const {
    const bool held = z >= firstPlane && z < firstPlane + planes && cy >= 0 && cy < height &&
                      cx >= 0 && cx < width;
    return held ? values[index(z, cy, cx)] : NaN;
  }
  double &at(long long z, int cy, int cx) { return values[index(z, cy, cx)]; }
};

/// One block of a 3D pass: planes [zBegin, zEnd), the tile at (y0, x0).
void block3D(const Plan &plan, const GridND &in, GridND &out, int levels, long long zBegin,
             long long zEnd, long long y0, long long x0) {
  const StencilSpec &spec = plan.spec;
  const FusedKernel &k = plan.schedule.fused;
  const long long nz = in.n[0], ny = in.n[1], nx = in.n[2];
  const int r = spec.radius;
  const long long yFirst = y0 - k.haloY, xFirst = x0 - k.halo; // the window's (0, 0)
  const long long lag0 = static_cast<long long>(levels) * r;
  Window from(zBegin - lag0, (zEnd - zBegin) + 2 * lag0, k.height, k.width);
  for (long long z = from.firstPlane; z < from.firstPlane + from.planes; ++z) {
    for (int cy = 0; cy < k.height; ++cy) {
      for (int cx = 0; cx < k.width; ++cx) {
        from.at(z, cy, cx) = fusedLevelZero(spec, in, {z, yFirst + cy, xFirst + cx}, levels);
      }
    }
  }
  for (int t = 1; t <= levels; ++t) {
    const long long lag = static_cast<long long>(levels - t) * r;
    Window to(zBegin - lag, (zEnd - zBegin) + 2 * lag, k.height, k.width);
    for (long long z = to.firstPlane; z < to.firstPlane + to.planes; ++z) {
      for (int cy = r; cy < k.height - r; ++cy) {
        for (int cx = r; cx < k.width - r; ++cx) {
          const bool computed = fusedStepComputes(spec, z, nz) &&
                                fusedStepComputes(spec, yFirst + cy, ny) &&
                                fusedStepComputes(spec, xFirst + cx, nx);
          to.at(z, cy, cx) =
              !computed ? from.at(z, cy, cx) : stepPoint(plan, [&](int dz, int dy, int dx) {
                return from.at(z + dz, cy + dy, cx + dx);
              });
        }
      }
    }
    from = std::move(to);
  }
  for (long long z = zBegin; z < zEnd; ++z) {
    for (long long y = y0; y < std::min<long long>(y0 + k.storedRows(), ny); ++y) {
      for (long long x = x0; x < std::min<long long>(x0 + k.storedColumns(), nx); ++x) {
        out.at({z, y, x}) = from.at(z, static_cast<int>(y - yFirst), static_cast<int>(x - xFirst));
      }
    }
  }
}

void pass3D(const Plan &plan, const GridND &in, GridND &out, int levels) {
  const FusedKernel &k = plan.schedule.fused;
  const long long nz = in.n[0], ny = in.n[1], nx = in.n[2];
  for (long long zBegin = 0; zBegin < nz; zBegin += k.chunkRows) {
    const long long zEnd = std::min<long long>(zBegin + k.chunkRows, nz);
    for (long long y0 = 0; y0 < ny; y0 += k.storedRows()) {
      for (long long x0 = 0; x0 < nx; x0 += k.storedColumns()) {
        block3D(plan, in, out, levels, zBegin, zEnd, y0, x0);
      }
    }
  }
}

} // namespace

void emulateFusedPassND(const Plan &plan, const GridND &in, GridND &out, int levels) {
  if (plan.spec.dims == 1) {
    pass1D(plan, in, out, levels);
  } else {
    pass3D(plan, in, out, levels);
  }
}

} // namespace stencilc
