// heat2d: diffuses heat from a hot spot with the stencil generated from
// heat2d.stencil, checks the result against the runtime's float64 reference,
// reports GStencil/s, and writes the final temperature field as a PNG.
//
// Usage: heat2d-example [n] [steps] [image.png]   (defaults 1024 2000 heat2d.png)
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "heat2d.h"
#include "png.h"
#include "stencilc/runtime/runtime.h"
#include "stencilc/testing/compare.h"
#include "stencilc/testing/extents.h"
#include "stencilc/testing/reference.h"

namespace {

using Element = double; // heat2d.stencil says fp64

/// A disk of temperature 1 in the middle of a cold plate.
std::vector<Element> hotSpot(int n) {
  std::vector<Element> field(static_cast<std::size_t>(n) * n, 0.0);
  double radius = n / 20.0;
  for (int y = 0; y < n; ++y) {
    for (int x = 0; x < n; ++x) {
      double dy = y - n / 2.0, dx = x - n / 2.0;
      if (dx * dx + dy * dy <= radius * radius) {
        field[static_cast<std::size_t>(y) * n + x] = 1.0;
      }
    }
  }
  return field;
}

/// Black - red - yellow - white, for t in [0, 1].
void heatColour(double t, std::uint8_t rgb[3]) {
  t = std::clamp(t, 0.0, 1.0);
  double r = std::clamp(3 * t, 0.0, 1.0);
  double g = std::clamp(3 * t - 1, 0.0, 1.0);
  double b = std::clamp(3 * t - 2, 0.0, 1.0);
  rgb[0] = static_cast<std::uint8_t>(255 * r + 0.5);
  rgb[1] = static_cast<std::uint8_t>(255 * g + 0.5);
  rgb[2] = static_cast<std::uint8_t>(255 * b + 0.5);
}

} // namespace

int main(int argc, char **argv) {
  int n = argc > 1 ? std::atoi(argv[1]) : 1024;
  int steps = argc > 2 ? std::atoi(argv[2]) : 2000;
  std::string image = argc > 3 ? argv[3] : "heat2d.png";
  if (n < 3 || steps < 1) {
    std::fprintf(stderr, "usage: %s [n >= 3] [steps >= 1] [image.png]\n", argv[0]);
    return 2;
  }
  if (heat2d_info.precision != STENCILC_FP64) {
    std::fprintf(stderr, "heat2d-example expects an fp64 heat2d.stencil\n");
    return 2;
  }
  const stencilc::Extents extents = stencilc::Extents::of2D(n, n);
  std::vector<Element> initial = hotSpot(n);

  stencilc::DeviceBuffer<Element> a(initial.size()), b(initial.size());
  cudaStream_t stream = nullptr;

  // The simulation, timed with CUDA events (one warm-up run first).
  a.upload(initial);
  STENCILC_CHECK(heat2d_run(a.data(), b.data(), n, n, 1, stream));
  STENCILC_CHECK(cudaStreamSynchronize(stream));
  a.upload(initial);
  stencilc::EventTimer timer;
  timer.start(stream);
  STENCILC_CHECK(heat2d_run(a.data(), b.data(), n, n, steps, stream));
  float ms = timer.stopMs(stream);
  STENCILC_CHECK(cudaGetLastError());
  std::vector<Element> result = a.download();

  // The same simulation on the CPU in float64.
  std::vector<double> reference(initial.begin(), initial.end());
  stencilc::referenceRun(heat2d_info, extents, reference, steps);
  stencilc::Comparison cmp = stencilc::compareWithReference<Element>(heat2d_info, extents, result,
                                                                     reference, &initial, nullptr);
  double tolerance = stencilc::tolerance(heat2d_info.precision);
  bool ok = cmp.passes(tolerance);

  // Every grid point of every step, as the benchmark counts (the fixed
  // ring's points too, which a step keeps).
  double points = static_cast<double>(n) * n;
  double gstencils = points * steps / (ms * 1e-3) / 1e9;
  double heat = 0, initialHeat = 0;
  for (std::size_t i = 0; i < result.size(); ++i) {
    heat += result[i];
    initialHeat += initial[i];
  }
  std::printf("heat2d: %d x %d grid, %d steps on the GPU (%s backend) in %.2f ms\n", n, n, steps,
              stencilc::backendName(heat2d_info.backend), ms);
  std::printf("verification against the float64 reference: %s (%s, tolerance %.0e)\n",
              ok ? "PASS" : "FAIL", cmp.summary().c_str(), tolerance);
  std::printf("performance: %.1f GStencil/s (%d steps of %.0f points)\n", gstencils, steps, points);
  std::printf("total heat: %.6f, initially %.6f (heat leaves only through the cold ring)\n", heat,
              initialHeat);

  // The final field, scaled to its hottest point.
  double hottest = *std::max_element(result.begin(), result.end());
  std::vector<std::uint8_t> rgb(static_cast<std::size_t>(n) * n * 3);
  for (std::size_t i = 0; i < result.size(); ++i) {
    heatColour(hottest > 0 ? result[i] / hottest : 0, &rgb[3 * i]);
  }
  if (!heat2d_example::writePng(image, n, n, rgb)) {
    std::fprintf(stderr, "cannot write %s\n", image.c_str());
    return 1;
  }
  std::printf("wrote %s\n", image.c_str());
  return ok ? 0 : 1;
}
