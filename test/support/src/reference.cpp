// reference.cpp - the float64 CPU reference of any stencilc_stencil_info.
#include "stencilc/testing/reference.h"

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdlib>
#include <cstring>

#include "parallel.h"
#include "stencilc/runtime/boundary_index.h"

namespace stencilc {

void referenceStep(const stencilc_stencil_info &info, const Extents &e, const double *in,
                   double *out) {
  const long long n[3] = {e.nz(), e.ny(), e.nx()};
  int ring[3];
  ringWidth3(info, ring);
  long long lo[3], hi[3];
  for (int a = 0; a < 3; ++a) {
    lo[a] = ring[a];
    hi[a] = n[a] - ring[a];
    if (hi[a] <= lo[a])
      return; // nothing to write
  }

  const int count = info.num_points;
  std::vector<Offset3> off(count);
  std::vector<long long> linear(count);
  int reach[3] = {0, 0, 0};
  for (int k = 0; k < count; ++k) {
    off[k] = offset3(info, k);
    linear[k] = (off[k].d[0] * n[1] + off[k].d[1]) * n[2] + off[k].d[2];
    for (int a = 0; a < 3; ++a)
      reach[a] = std::max(reach[a], std::abs(off[k].d[a]));
  }
  // Periodic, clamp and mirror read the grid itself outside it.
  const bool folds =
      info.boundary != STENCILC_BOUNDARY_FIXED && info.boundary != STENCILC_BOUNDARY_CONSTANT;
  const double outside = info.boundary_value;

  // Tasks are (row, x-chunk) pairs so 1D grids are split too.
  const long long rows = (hi[0] - lo[0]) * (hi[1] - lo[1]);
  const long long width = hi[2] - lo[2];
  const long long chunks = rows >= static_cast<long long>(detail::hostThreads())
                               ? 1
                               : std::min<long long>(width, 4 * detail::hostThreads());
  const long long chunkWidth = (width + chunks - 1) / chunks;

  detail::parallelFor(
      static_cast<std::size_t>(rows * chunks), [&](std::size_t begin, std::size_t end) {
        for (std::size_t task = begin; task < end; ++task) {
          long long row = static_cast<long long>(task) / chunks;
          long long chunk = static_cast<long long>(task) % chunks;
          long long z = lo[0] + row / (hi[1] - lo[1]);
          long long y = lo[1] + row % (hi[1] - lo[1]);
          long long x0 = lo[2] + chunk * chunkWidth;
          long long x1 = std::min(hi[2], x0 + chunkWidth);
          bool rowInside =
              z - reach[0] >= 0 && z + reach[0] < n[0] && y - reach[1] >= 0 && y + reach[1] < n[1];
          for (long long x = x0; x < x1; ++x) {
            const long long idx = (z * n[1] + y) * n[2] + x;
            double sum = 0;
            if (rowInside && x - reach[2] >= 0 && x + reach[2] < n[2]) {
              for (int k = 0; k < count; ++k)
                sum += info.points[k].coefficient * in[idx + linear[k]];
            } else {
              const long long at[3] = {z, y, x};
              for (int k = 0; k < count; ++k) {
                long long c[3];
                bool outsideGrid = false;
                for (int a = 0; a < 3; ++a) {
                  c[a] = at[a] + off[k].d[a];
                  if (c[a] < 0 || c[a] >= n[a]) {
                    if (folds)
                      c[a] = stencilc_fold_index(info.boundary, c[a], n[a]);
                    else
                      outsideGrid = true;
                  }
                }
                double v = outsideGrid ? outside : in[(c[0] * n[1] + c[1]) * n[2] + c[2]];
                sum += info.points[k].coefficient * v;
              }
            }
            out[idx] = sum;
          }
        }
      });
}

void referenceRun(const stencilc_stencil_info &info, const Extents &e, std::vector<double> &a,
                  int steps) {
  if (steps <= 0)
    return;
  std::vector<double> b(a); // for a fixed boundary, b's ring equals a's
  for (int s = 0; s < steps; ++s) {
    referenceStep(info, e, a.data(), b.data());
    a.swap(b);
  }
}

std::vector<double> magnitudeStep(const stencilc_stencil_info &info, const Extents &e,
                                  const std::vector<double> &in) {
  std::vector<stencilc_point> points(info.points, info.points + info.num_points);
  bool negative = info.boundary_value < 0;
  for (stencilc_point &p : points) {
    negative |= p.coefficient < 0;
    p.coefficient = std::fabs(p.coefficient);
  }
  negative |= std::any_of(in.begin(), in.end(), [](double v) { return v < 0; });
  if (!negative)
    return {};
  stencilc_stencil_info magnitude = info;
  magnitude.points = points.data();
  magnitude.boundary_value = std::fabs(info.boundary_value);
  std::vector<double> size(in.size());
  std::transform(in.begin(), in.end(), size.begin(), [](double v) { return std::fabs(v); });
  std::vector<double> m(size); // a fixed ring keeps its |value|
  referenceStep(magnitude, e, size.data(), m.data());
  return m;
}

double stepGain(const stencilc_stencil_info &info, const Extents &e) {
  const long long n[3] = {e.nz(), e.ny(), e.nx()};
  const bool periodic = info.boundary == STENCILC_BOUNDARY_PERIODIC;
  std::vector<Offset3> off(info.num_points);
  int reach[3] = {0, 0, 0};
  for (int k = 0; k < info.num_points; ++k) {
    off[k] = offset3(info, k);
    for (int a = 0; a < 3; ++a)
      reach[a] = std::max(reach[a], std::abs(off[k].d[a]));
  }
  long long samples[3];
  for (int a = 0; a < 3; ++a)
    samples[a] = reach[a] == 0 ? 1 : periodic && n[a] <= 32 ? n[a] : 32;
  const double turn = 2.0 * std::acos(-1.0);
  double most = 0.0;
  for (long long j0 = 0; j0 < samples[0]; ++j0)
    for (long long j1 = 0; j1 < samples[1]; ++j1)
      for (long long j2 = 0; j2 < samples[2]; ++j2) {
        const double theta[3] = {turn * j0 / samples[0], turn * j1 / samples[1],
                                 turn * j2 / samples[2]};
        std::complex<double> sum = 0.0;
        for (int k = 0; k < info.num_points; ++k) {
          const double phase =
              theta[0] * off[k].d[0] + theta[1] * off[k].d[1] + theta[2] * off[k].d[2];
          sum += info.points[k].coefficient * std::polar(1.0, phase);
        }
        most = std::max(most, std::abs(sum));
      }
  return most;
}

double errorCarry(const stencilc_stencil_info &info, const Extents &e, double tolerance) {
  double sumAbs = 0.0;
  for (int k = 0; k < info.num_points; ++k)
    sumAbs += std::fabs(info.points[k].coefficient);
  return stepGain(info, e) + tolerance * sumAbs;
}

std::vector<double> carriedMagnitude(const stencilc_stencil_info &info, const Extents &e,
                                     std::vector<double> a, int steps, double carry) {
  std::vector<double> total(a.size(), 0.0);
  std::vector<double> b(a); // for a fixed boundary, b's ring equals a's
  for (int s = 0; s < steps; ++s) {
    const std::vector<double> m = magnitudeStep(info, e, a);
    referenceStep(info, e, a.data(), b.data());
    a.swap(b);
    const std::vector<double> &step = m.empty() ? a : m;
    for (std::size_t i = 0; i < total.size(); ++i)
      total[i] = total[i] * carry + std::fabs(step[i]);
  }
  return total;
}

} // namespace stencilc
