// varheat: heat spreads from a hot square through a plate whose
// conductivity varies in space (a fast diagonal band in a slow plate) with
// the stencil generated from varheat.stencil; the result is checked against
// a float64 simulation of the same equation on the CPU, the total heat
// followed, the stepping timed, and the final field written as a PNG.
//
// Usage: varheat-example [--check] [n] [steps] [image.png]
//   defaults 1024 2000 varheat.png; --check: 255 x 255, 500 steps, no image.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "../heat2d/png.h"
#include "stencilc/runtime/runtime.h"
#include "varheat.h"

namespace {

constexpr double Dt = 1.0;          // stable: 4 dt max(kappa) <= 1
constexpr double Tolerance = 1e-12; // relative L2, fp64 against float64

/// The reference step: the stencil's equation, face by face.
void referenceStep(int n, const std::vector<double> &k, std::vector<double> &u,
                   std::vector<double> &next) {
  next = u;
  for (int y = 1; y < n - 1; ++y) {
    for (int x = 1; x < n - 1; ++x) {
      std::size_t p = static_cast<std::size_t>(y) * n + x, s = n;
      double flux = (k[p] + k[p + s]) * (u[p + s] - u[p]) - (k[p - s] + k[p]) * (u[p] - u[p - s]) +
                    (k[p] + k[p + 1]) * (u[p + 1] - u[p]) - (k[p - 1] + k[p]) * (u[p] - u[p - 1]);
      next[p] = u[p] + 0.5 * Dt * flux;
    }
  }
  std::swap(u, next);
}

} // namespace

int main(int argc, char **argv) {
  bool check = argc > 1 && std::strcmp(argv[1], "--check") == 0;
  int first = check ? 2 : 1;
  int n = argc > first ? std::atoi(argv[first]) : (check ? 255 : 1024);
  int steps = argc > first + 1 ? std::atoi(argv[first + 1]) : (check ? 500 : 2000);
  std::string image = check ? "" : (argc > first + 2 ? argv[first + 2] : "varheat.png");
  if (n < 8 || steps < 1) {
    std::fprintf(stderr, "usage: %s [--check] [n >= 8] [steps >= 1] [image.png]\n", argv[0]);
    return 2;
  }
  const std::size_t points = static_cast<std::size_t>(n) * n;
  std::vector<double> kappa(points), initial(points, 0.0);
  for (int y = 0; y < n; ++y) {
    for (int x = 0; x < n; ++x) {
      std::size_t p = static_cast<std::size_t>(y) * n + x;
      bool band = std::abs(x - y) < n / 10;
      kappa[p] = band ? 0.24 : 0.02;
      bool hot = std::abs(x - n / 3) < n / 12 && std::abs(y - n / 3) < n / 12;
      initial[p] = hot ? 1.0 : 0.0;
    }
  }
  stencilc::DeviceBuffer<double> u(points), scratch(points), dk(points);
  dk.upload(kappa);
  u.upload(initial);
  cudaStream_t stream = nullptr;
  STENCILC_CHECK(varheat_run(u.data(), dk.data(), scratch.data(), n, n, Dt, steps, stream));
  std::vector<double> result = u.download();

  std::vector<double> ref = initial, next;
  for (int s = 0; s < steps; ++s) {
    referenceStep(n, kappa, ref, next);
  }
  double num = 0, den = 0, heat = 0, refHeat = 0, initialHeat = 0;
  for (std::size_t i = 0; i < points; ++i) {
    num += (result[i] - ref[i]) * (result[i] - ref[i]);
    den += ref[i] * ref[i];
    heat += result[i];
    refHeat += ref[i];
    initialHeat += initial[i];
  }
  double error = std::sqrt(num / den);
  bool ok = error <= Tolerance;

  u.upload(initial); // warm-up, then the timed run
  STENCILC_CHECK(varheat_run(u.data(), dk.data(), scratch.data(), n, n, Dt, 10, stream));
  stencilc::EventTimer timer;
  timer.start(stream);
  STENCILC_CHECK(varheat_run(u.data(), dk.data(), scratch.data(), n, n, Dt, steps, stream));
  float ms = timer.stopMs(stream);
  STENCILC_CHECK(cudaGetLastError());

  double interior = static_cast<double>(n - 2) * (n - 2);
  std::printf("varheat: %d x %d grid, %d steps, conductivity 0.24 in a diagonal band, 0.02 "
              "elsewhere\n",
              n, n, steps);
  std::printf("field against the float64 reference: %s (relative L2 error %.2e, tolerance %.0e)\n",
              ok ? "PASS" : "FAIL", error, Tolerance);
  std::printf("total heat: %.9f (reference %.9f), initially %.9f\n", heat, refHeat, initialHeat);
  std::printf("performance: %.2f ms for %d steps, %.1f GStencil/s\n", ms, steps,
              interior * steps / (ms * 1e-3) / 1e9);
  if (!image.empty()) {
    double hottest = *std::max_element(result.begin(), result.end());
    std::vector<std::uint8_t> rgb(points * 3);
    for (std::size_t i = 0; i < points; ++i) {
      double t = hottest > 0 ? std::sqrt(result[i] / hottest) : 0;
      rgb[3 * i] = static_cast<std::uint8_t>(255 * t + 0.5);
      rgb[3 * i + 1] = static_cast<std::uint8_t>(255 * t * t + 0.5);
      rgb[3 * i + 2] = static_cast<std::uint8_t>(255 * (1 - t) * (kappa[i] > 0.1 ? 0.6 : 0.2));
    }
    if (!heat2d_example::writePng(image, n, n, rgb)) {
      std::fprintf(stderr, "cannot write %s\n", image.c_str());
      return 1;
    }
    std::printf("wrote %s\n", image.c_str());
  }
  return ok ? 0 : 1;
}
