// fused::alternatePasses, the loop of NAME_run's fused passes in 1D, 2D and
// 3D, checked on the host with a pass that records its calls: passes of
// kSteps levels and one of the rest, from a to b and back, and the first
// failing pass's status with nothing after it. (The copy back into a after
// an odd number of passes is the CUDA runtime's: not checked here.)
#include <cstdio>
#include <vector>

#include <stencilc/device/fused.cuh>

using stencilc::device::fused::alternatePasses;

struct Plan {
  using Element = float;
  static constexpr int kSteps = 4;
};

struct Call {
  int levels;
  const float *from;
  float *to;
};

static int failures = 0;

static void expect(bool ok, const char *what, int steps) {
  if (!ok && ++failures <= 10) {
    std::printf("FAIL %s: steps %d\n", what, steps);
  }
}

/// `steps` steps whose pass fails at call `failAt` (-1: none).
static void check(int steps, int failAt) {
  float a[1], b[1];
  std::vector<Call> calls;
  const cudaError_t status =
      alternatePasses<Plan>(a, b, 1, steps, nullptr, [&](int levels, const float *from, float *to) {
        calls.push_back({levels, from, to});
        return static_cast<int>(calls.size()) - 1 == failAt ? cudaErrorLaunchFailure : cudaSuccess;
      });
  const int passes = (steps + Plan::kSteps - 1) / Plan::kSteps;
  expect(static_cast<int>(calls.size()) == (failAt >= 0 ? failAt + 1 : passes),
         "a pass a kSteps steps, none after a failure", steps);
  int done = 0;
  for (std::size_t k = 0; k < calls.size(); ++k) {
    const int left = steps - done;
    expect(calls[k].levels == (left < Plan::kSteps ? left : Plan::kSteps),
           "kSteps levels a pass, the rest last", steps);
    expect(calls[k].from == (k % 2 == 0 ? a : b) && calls[k].to == (k % 2 == 0 ? b : a),
           "from a to b, then back", steps);
    done += calls[k].levels;
  }
  if (failAt >= 0) {
    expect(status == cudaErrorLaunchFailure, "the failing pass's status", steps);
  } else if (passes % 2 == 0) {
    expect(status == cudaSuccess, "the result in a, no copy", steps);
  }
}

int main() {
  for (int steps = 0; steps <= 13; ++steps) {
    check(steps, -1);
    if (steps > 0) {
      check(steps, (steps - 1) / Plan::kSteps); // the last pass fails
      check(steps, 0);
    }
  }
  if (failures == 0) {
    std::printf("ok: passes of kSteps and the rest, alternating, stopped by a failure\n");
  }
  return failures == 0 ? 0 : 1;
}
