// wave2d: a Ricker pulse from one point spreads through two media (the
// lower half twice as fast) with the stencil generated from wave2d.stencil;
// the run is checked against a float64 simulation of the same equation on
// the CPU, its discrete energy followed over the run, the stepping timed,
// and the wavefield written as PNG frames. A line of receivers (every
// interior point of row n/8) records a seismogram inside wave2d_run, which
// is checked against the reference's values there at every step and
// written as wave2d-seismogram.png.
//
// Usage: wave2d-example [--check] [n] [steps] [frame-every]
//   defaults 1024 1000 100; --check: 257 x 257, 1000 steps, no PNG.
// Exit status 0 when the field, the energy and the seismogram match the
// reference.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "../heat2d/png.h"
#include "stencilc/runtime/runtime.h"
#include "wave2d.h"

namespace {

constexpr double Dt = 0.5;               // time step; c dt <= 0.5 < 1/sqrt(2)
constexpr double F0 = 0.05;              // the Ricker wavelet's peak frequency
constexpr double T0 = 1.5 / F0;          // its centre in time
constexpr double SourceEnd = 2 * T0;     // after this the source is off
constexpr double FieldTolerance = 1e-3;  // relative L2, fp32 against float64
constexpr double EnergyTolerance = 1e-3; // relative, at every sample
constexpr int SampleEvery = 10;

double ricker(double t) {
  const double a = M_PI * M_PI * F0 * F0 * (t - T0) * (t - T0);
  return (1 - 2 * a) * std::exp(-a);
}

/// amp for the step from time level s (t = s dt) to s + 1.
double amplitude(int s) { return s * Dt < SourceEnd ? Dt * Dt * ricker(s * Dt) : 0.0; }

struct Grid {
  int n;
  std::size_t at(int y, int x) const { return static_cast<std::size_t>(y) * n + x; }
};

/// The energy that leapfrog conserves once the source is off: the kinetic
/// part sum (u - u_prev)^2 / (c^2 dt^2) over the interior, plus the
/// potential part, the product of the differences of u and u_prev across
/// every pair of neighbours. Halved.
double energy(const Grid &g, const std::vector<double> &c2, const std::vector<double> &u,
              const std::vector<double> &prev) {
  double kinetic = 0, potential = 0;
  for (int y = 0; y < g.n; ++y) {
    for (int x = 0; x < g.n; ++x) {
      std::size_t p = g.at(y, x);
      if (y > 0 && x > 0 && y < g.n - 1 && x < g.n - 1) {
        double v = u[p] - prev[p];
        kinetic += v * v / (c2[p] * Dt * Dt);
      }
      if (x + 1 < g.n) {
        potential += (u[p + 1] - u[p]) * (prev[p + 1] - prev[p]);
      }
      if (y + 1 < g.n) {
        potential += (u[p + g.n] - u[p]) * (prev[p + g.n] - prev[p]);
      }
    }
  }
  return 0.5 * (kinetic + potential);
}

/// One step of the reference in float64: the stencil's equation itself,
/// then the source's amplitude added at its point.
void referenceStep(const Grid &g, const std::vector<double> &c2, std::size_t source, double amp,
                   std::vector<double> &u, std::vector<double> &prev, std::vector<double> &next) {
  next = prev; // the ring stays
  for (int y = 1; y < g.n - 1; ++y) {
    for (int x = 1; x < g.n - 1; ++x) {
      std::size_t p = g.at(y, x);
      double lap = u[p - g.n] + u[p + g.n] + u[p - 1] + u[p + 1] - 4 * u[p];
      next[p] = 2 * u[p] - prev[p] + Dt * Dt * c2[p] * lap;
    }
  }
  next[source] += amp;
  std::swap(prev, u);
  std::swap(u, next);
}

std::vector<double> widen(const std::vector<float> &v) { return {v.begin(), v.end()}; }

double relativeL2(const std::vector<double> &a, const std::vector<double> &ref) {
  double num = 0, den = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    num += (a[i] - ref[i]) * (a[i] - ref[i]);
    den += ref[i] * ref[i];
  }
  return std::sqrt(num / (den > 0 ? den : 1));
}

/// Blue (negative) - white - red (positive), clipped at +-scale, as a PNG
/// of width x height values, row by row.
void writeImage(const char *name, int width, int height, const std::vector<float> &v,
                double scale) {
  std::vector<std::uint8_t> rgb(v.size() * 3);
  for (std::size_t i = 0; i < v.size(); ++i) {
    double t = std::clamp(v[i] / scale, -1.0, 1.0);
    auto fade = static_cast<std::uint8_t>(255 * (1 - std::abs(t)) + 0.5);
    rgb[3 * i + 0] = t < 0 ? fade : 255;
    rgb[3 * i + 1] = fade;
    rgb[3 * i + 2] = t > 0 ? fade : 255;
  }
  if (!heat2d_example::writePng(name, width, height, rgb)) {
    std::fprintf(stderr, "cannot write %s\n", name);
    std::exit(1);
  }
}

void writeFrame(const Grid &g, const std::vector<float> &u, double scale, int step) {
  char name[64];
  std::snprintf(name, sizeof name, "wave2d-%04d.png", step);
  writeImage(name, g.n, g.n, u, scale);
}

/// The receivers: every interior point of row n/8, (y, x) pairs.
std::vector<int> receiverLine(int n) {
  std::vector<int> points;
  for (int x = 1; x < n - 1; ++x) {
    points.push_back(n / 8);
    points.push_back(x);
  }
  return points;
}

} // namespace

int main(int argc, char **argv) {
  bool check = argc > 1 && std::strcmp(argv[1], "--check") == 0;
  int first = check ? 2 : 1;
  int n = argc > first ? std::atoi(argv[first]) : (check ? 257 : 1024);
  int steps = argc > first + 1 ? std::atoi(argv[first + 1]) : 1000;
  int frameEvery = check ? 0 : (argc > first + 2 ? std::atoi(argv[first + 2]) : 100);
  if (n < 16 || steps < 1 || frameEvery < 0) {
    std::fprintf(stderr, "usage: %s [--check] [n >= 16] [steps >= 1] [frame-every]\n", argv[0]);
    return 2;
  }
  const Grid g{n};
  const std::size_t points = static_cast<std::size_t>(n) * n;
  std::vector<float> c2(points), zero(points, 0.0f);
  for (int y = 0; y < n; ++y) {
    for (int x = 0; x < n; ++x) {
      c2[g.at(y, x)] = y < n / 2 ? 0.25f : 1.0f; // c = 0.5 above, 1 below
    }
  }
  // The source: one point, (y, x), in device memory as wave2d_run's
  // sources and amplitudes must be.
  const std::size_t sourceAt = g.at(n / 4, n / 2);
  stencilc::DeviceBuffer<int> dsource(2);
  dsource.upload(std::vector<int>{n / 4, n / 2});
  // The receivers and their records, steps x receivers (10 rows at least,
  // for the warm-up of the timing), in device memory.
  const std::vector<int> line = receiverLine(n);
  const int receivers = static_cast<int>(line.size() / 2);
  stencilc::DeviceBuffer<int> dline(line.size());
  dline.upload(line);
  stencilc::DeviceBuffer<float> records(static_cast<std::size_t>(std::max(steps, 10)) * receivers);
  std::vector<double> refRecords(static_cast<std::size_t>(steps) * receivers);

  stencilc::DeviceBuffer<float> u(points), prev(points), scratch(points), dc2(points);
  dc2.upload(c2);
  u.upload(zero);
  prev.upload(zero);
  cudaStream_t stream = nullptr;

  // The source's amplitude of every step, for wave2d_run (steps x 1
  // sources) and the reference alike.
  std::vector<double> amps(steps);
  for (int s = 0; s < steps; ++s) {
    amps[s] = amplitude(s);
  }
  stencilc::DeviceBuffer<double> damps(steps);
  damps.upload(amps);
  std::vector<double> rc2 = widen(c2);
  std::vector<double> ru(points, 0.0), rprev(points, 0.0), rnext;
  double worstEnergy = 0, peakEnergy = 0, gpuEnergyAtEnd = 0, refEnergyAtSourceEnd = 0;
  double refEnergyAtEnd = 0;
  for (int s = 0; s < steps;) {
    // To the next sample, each step with its own amplitude (from step s on).
    int chunk = std::min(SampleEvery - s % SampleEvery, steps - s);
    STENCILC_CHECK(wave2d_run(u.data(), prev.data(), dc2.data(), scratch.data(), n, n, Dt,
                              dsource.data(), 1, damps.data() + s, dline.data(), receivers,
                              records.data() + static_cast<std::size_t>(s) * receivers, chunk,
                              stream));
    for (int k = 0; k < chunk; ++k) {
      referenceStep(g, rc2, sourceAt, amps[s + k], ru, rprev, rnext);
      for (int r = 0; r < receivers; ++r) {
        refRecords[static_cast<std::size_t>(s + k) * receivers + r] =
            ru[g.at(line[2 * r], line[2 * r + 1])];
      }
    }
    s += chunk;
    bool frame = frameEvery > 0 && s % frameEvery == 0;
    if (s % SampleEvery != 0 && s != steps && !frame) {
      continue;
    }
    std::vector<float> gu = u.download(), gprev = prev.download();
    double eg = energy(g, rc2, widen(gu), widen(gprev));
    double er = energy(g, rc2, ru, rprev);
    peakEnergy = std::max(peakEnergy, er);
    worstEnergy = std::max(worstEnergy, std::abs(eg - er) / (peakEnergy > 0 ? peakEnergy : 1));
    if (s * Dt >= SourceEnd && refEnergyAtSourceEnd == 0) {
      refEnergyAtSourceEnd = er;
    }
    gpuEnergyAtEnd = eg;
    refEnergyAtEnd = er;
    if (frame) {
      writeFrame(g, gu, 0.05, s);
    }
  }
  double fieldError = relativeL2(widen(u.download()), ru);
  std::vector<float> seismogram = records.download();
  seismogram.resize(refRecords.size());
  double seismogramError = relativeL2(widen(seismogram), refRecords);
  if (!check) {
    writeImage("wave2d-seismogram.png", receivers, steps, seismogram, 0.02);
  }

  // The stepping alone, timed with CUDA events after a warm-up, the source
  // silent (amplitude 0 at every step), the receivers recorded as above.
  // wave2d_run reads the source's point on the host before it launches (a
  // synchronisation a call), before the timer starts.
  stencilc::DeviceBuffer<double> silent(std::max(steps, 10));
  silent.upload(std::vector<double>(std::max(steps, 10), 0.0));
  STENCILC_CHECK(wave2d_run(u.data(), prev.data(), dc2.data(), scratch.data(), n, n, Dt,
                            dsource.data(), 1, silent.data(), dline.data(), receivers,
                            records.data(), 10, stream));
  stencilc::EventTimer timer;
  timer.start(stream);
  STENCILC_CHECK(wave2d_run(u.data(), prev.data(), dc2.data(), scratch.data(), n, n, Dt,
                            dsource.data(), 1, silent.data(), dline.data(), receivers,
                            records.data(), steps, stream));
  float ms = timer.stopMs(stream);
  STENCILC_CHECK(cudaGetLastError());

  bool fieldOk = fieldError <= FieldTolerance;
  bool energyOk = worstEnergy <= EnergyTolerance;
  bool seismogramOk = seismogramError <= FieldTolerance;
  double interior = static_cast<double>(n - 2) * (n - 2);
  std::printf("wave2d: %d x %d grid, %d steps, Ricker source of peak frequency %.2f at (%d, %d)\n",
              n, n, steps, F0, n / 4, n / 2);
  std::printf("field against the float64 reference: %s (relative L2 error %.2e, tolerance %.0e)\n",
              fieldOk ? "PASS" : "FAIL", fieldError, FieldTolerance);
  std::printf("energy against the float64 reference: %s (largest difference %.2e of the peak "
              "energy, tolerance %.0e, sampled every %d steps)\n",
              energyOk ? "PASS" : "FAIL", worstEnergy, EnergyTolerance, SampleEvery);
  std::printf("seismogram of %d receivers (row %d) against the float64 reference: %s (relative "
              "L2 error %.2e, tolerance %.0e)\n",
              receivers, n / 8, seismogramOk ? "PASS" : "FAIL", seismogramError, FieldTolerance);
  if (refEnergyAtSourceEnd > 0) {
    std::printf("energy after the source: reference %.9e -> %.9e (drift %.1e), GPU -> %.9e\n",
                refEnergyAtSourceEnd, refEnergyAtEnd,
                (refEnergyAtEnd - refEnergyAtSourceEnd) / refEnergyAtSourceEnd, gpuEnergyAtEnd);
  }
  std::printf("performance: %.2f ms for %d steps, %.1f GStencil/s (recording %d receivers)\n", ms,
              steps, interior * steps / (ms * 1e-3) / 1e9, receivers);
  return fieldOk && energyOk && seismogramOk ? 0 : 1;
}
