// fat_arch_check.cu - one library of box2d49p fp64 (examples/suite/) on the
// GPU: which plan its NAME_info says runs, its result against the float64
// reference, and the median time of NAME_run of 100 steps at 8192^2.
// Built four times by scripts/fat-arch-check.sh: against the .cu of
// --arch=sm_80,sm_90 (FAT_LIBRARY defined) and of --arch=sm_90, which print
// `plan: sm_90`, `check: PASS|FAIL (relative L2 error E)` and `time_ms: T`;
// of --arch=sm_80,sm_86 (OLDER_PLANS: every plan older than the GPU, the
// newest run through the driver's JIT of its PTX), which prints the same
// with `plan: sm_86`; and of --arch=sm_100,sm_120 (OLDER_DEVICE), which
// prints `refusal: PASS|FAIL` (no plan for this GPU). Exit status 1 on a
// failure or CUDA error.
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>
#include <vector>

#include "box2d49p_fp64.h"

#define CHECK_CUDA(call)                                                                           \
  do {                                                                                             \
    const cudaError_t status_ = (call);                                                            \
    if (status_ != cudaSuccess) {                                                                  \
      std::printf("CUDA error %s at %s:%d\n", cudaGetErrorString(status_), __FILE__, __LINE__);    \
      return 1;                                                                                    \
    }                                                                                              \
  } while (0)

namespace {

/// A plan of the library: its NAME_info and its architecture's name.
struct Plan {
  const stencilc_stencil_info *info;
  const char *arch;
};

/// Which plan NAME_info is: the fat libraries' plans by their infos, the
/// single library's one plan by its --arch.
const char *planOnDevice() {
#if defined(OLDER_PLANS)
  const Plan plans[] = {{&box2d49p_fp64_info_sm_86, "sm_86"}, {&box2d49p_fp64_info_sm_80, "sm_80"}};
#elif defined(FAT_LIBRARY)
  const Plan plans[] = {{&box2d49p_fp64_info_sm_90, "sm_90"}, {&box2d49p_fp64_info_sm_80, "sm_80"}};
#else
  const Plan plans[] = {{&box2d49p_fp64_info, "sm_90"}};
#endif
  for (const Plan &plan : plans) {
    if (&box2d49p_fp64_info == plan.info) {
      return plan.arch;
    }
  }
  return "none";
}

/// `steps` steps of the stencil in double on the host, boundary fixed: the
/// ring of width r keeps its values.
std::vector<double> reference(std::vector<double> grid, int ny, int nx, int steps) {
  const stencilc_stencil_info &info = box2d49p_fp64_info;
  const int r = info.radius;
  std::vector<double> next = grid;
  for (int s = 0; s < steps; ++s) {
    for (int y = r; y < ny - r; ++y) {
      for (int x = r; x < nx - r; ++x) {
        double sum = 0.0;
        for (int p = 0; p < info.num_points; ++p) {
          const stencilc_point &point = info.points[p];
          sum +=
              point.coefficient * grid[std::size_t(y + point.offset[0]) * nx + x + point.offset[1]];
        }
        next[std::size_t(y) * nx + x] = sum;
      }
    }
    std::swap(grid, next);
  }
  return grid;
}

/// NAME_run of `steps` steps on a random ny x nx grid against the reference.
int checkResult(int ny, int nx, int steps) {
  const std::size_t n = std::size_t(ny) * nx;
  std::vector<double> host(n);
  std::mt19937_64 random(37);
  std::uniform_real_distribution<double> uniform(-1.0, 1.0);
  for (double &v : host) {
    v = uniform(random);
  }
  double *a = nullptr, *b = nullptr;
  CHECK_CUDA(cudaMalloc(&a, n * sizeof(double)));
  CHECK_CUDA(cudaMalloc(&b, n * sizeof(double)));
  CHECK_CUDA(cudaMemcpy(a, host.data(), n * sizeof(double), cudaMemcpyHostToDevice));
  CHECK_CUDA(box2d49p_fp64_run(a, b, ny, nx, steps, nullptr));
  std::vector<double> device(n);
  CHECK_CUDA(cudaMemcpy(device.data(), a, n * sizeof(double), cudaMemcpyDeviceToHost));
  CHECK_CUDA(cudaFree(a));
  CHECK_CUDA(cudaFree(b));
  const std::vector<double> expected = reference(host, ny, nx, steps);
  double error = 0.0, norm = 0.0;
  for (std::size_t i = 0; i < n; ++i) {
    error += (device[i] - expected[i]) * (device[i] - expected[i]);
    norm += expected[i] * expected[i];
  }
  const double relative = std::sqrt(error / norm);
  const bool pass = relative < 1e-12;
  std::printf("check: %s (relative L2 error %.3g, %d x %d, %d steps)\n", pass ? "PASS" : "FAIL",
              relative, ny, nx, steps);
  return pass ? 0 : 1;
}

/// The median of `reps` timings of NAME_run of `steps` steps at n x n,
/// after `warmups` untimed runs (CUDA events).
int timeRun(int n, int steps, int warmups, int reps) {
  const std::size_t bytes = std::size_t(n) * n * sizeof(double);
  double *a = nullptr, *b = nullptr;
  CHECK_CUDA(cudaMalloc(&a, bytes));
  CHECK_CUDA(cudaMalloc(&b, bytes));
  CHECK_CUDA(cudaMemset(a, 0, bytes));
  cudaEvent_t start, stop;
  CHECK_CUDA(cudaEventCreate(&start));
  CHECK_CUDA(cudaEventCreate(&stop));
  std::vector<float> times;
  for (int i = 0; i < warmups + reps; ++i) {
    CHECK_CUDA(cudaEventRecord(start));
    CHECK_CUDA(box2d49p_fp64_run(a, b, n, n, steps, nullptr));
    CHECK_CUDA(cudaEventRecord(stop));
    CHECK_CUDA(cudaEventSynchronize(stop));
    float ms = 0.0f;
    CHECK_CUDA(cudaEventElapsedTime(&ms, start, stop));
    if (i >= warmups) {
      times.push_back(ms);
    }
  }
  std::sort(times.begin(), times.end());
  const double median = times[times.size() / 2];
  std::printf("time_ms: %.3f (median of %d, NAME_run of %d steps at %d^2; %.1f GStencil/s)\n",
              median, reps, steps, n, double(n) * n * steps / (median * 1e-3) / 1e9);
  CHECK_CUDA(cudaFree(a));
  CHECK_CUDA(cudaFree(b));
  return 0;
}

/// A library whose plans are all newer than the device (OLDER_DEVICE:
/// --arch=sm_100,sm_120 on an sm_90 GPU): NAME_run must launch nothing and
/// return cudaErrorNoKernelImageForDevice, and NAME_info must be no plan's.
int checkRefusal() {
#ifdef OLDER_DEVICE
  double *a = nullptr, *b = nullptr;
  const std::size_t bytes = std::size_t(64) * 64 * sizeof(double);
  CHECK_CUDA(cudaMalloc(&a, bytes));
  CHECK_CUDA(cudaMalloc(&b, bytes));
  const cudaError_t status = box2d49p_fp64_run(a, b, 64, 64, 1, nullptr);
  const bool noPlan = &box2d49p_fp64_info != &box2d49p_fp64_info_sm_100 &&
                      &box2d49p_fp64_info != &box2d49p_fp64_info_sm_120;
  const bool pass = status == cudaErrorNoKernelImageForDevice && noPlan;
  std::printf("refusal: %s (NAME_run: %s; NAME_info %s)\n", pass ? "PASS" : "FAIL",
              cudaGetErrorName(status), noPlan ? "is no plan's" : "is a plan's");
  CHECK_CUDA(cudaFree(a));
  CHECK_CUDA(cudaFree(b));
  return pass ? 0 : 1;
#else
  return 0;
#endif
}

} // namespace

int main() {
  int device = 0;
  cudaDeviceProp prop{};
  CHECK_CUDA(cudaGetDevice(&device));
  CHECK_CUDA(cudaGetDeviceProperties(&prop, device));
  std::printf("device: %s (sm_%d%d)\n", prop.name, prop.major, prop.minor);
#ifdef OLDER_DEVICE
  return checkRefusal();
#endif
  std::printf("plan: %s (tile %d x %d)\n", planOnDevice(), box2d49p_fp64_info.tile[0],
              box2d49p_fp64_info.tile[1]);
  int status = checkResult(1000, 1337, 5);
  status |= timeRun(8192, 100, 3, 11);
  return status;
}
