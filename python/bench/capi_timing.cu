// capi_timing.cu - times a generated 2D stencil's NAME_step called from C,
// the baseline for the Python package's per-call overhead (overhead.py).
//
//   capi_timing LIBRARY NAME NY NX CALLS REPS
//
// Loads NAME_step from the shared library the package compiled, fills two
// fp32 grids with random values, warms up, then per repetition times CALLS
// back-to-back calls with CUDA events (GPU time) and with the host clock
// (time to issue them). Prints the medians, in microseconds per call.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include <cuda_runtime.h>
#include <dlfcn.h>

using Step = cudaError_t (*)(const float *, float *, int, int, cudaStream_t);

static void check(cudaError_t e, const char *what) {
  if (e != cudaSuccess) {
    std::fprintf(stderr, "capi_timing: %s: %s\n", what, cudaGetErrorString(e));
    std::exit(1);
  }
}

static double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

int main(int argc, char **argv) {
  if (argc != 7) {
    std::fprintf(stderr, "usage: capi_timing LIBRARY NAME NY NX CALLS REPS\n");
    return 2;
  }
  void *library = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
  if (!library) {
    std::fprintf(stderr, "capi_timing: %s\n", dlerror());
    return 1;
  }
  std::string symbol = std::string(argv[2]) + "_step";
  auto step = reinterpret_cast<Step>(dlsym(library, symbol.c_str()));
  if (!step) {
    std::fprintf(stderr, "capi_timing: no %s in %s\n", symbol.c_str(), argv[1]);
    return 1;
  }
  int ny = std::atoi(argv[3]), nx = std::atoi(argv[4]);
  int calls = std::atoi(argv[5]), reps = std::atoi(argv[6]);
  size_t n = size_t(ny) * nx;
  std::vector<float> host(n);
  std::mt19937 rng(12345);
  std::uniform_real_distribution<float> uniform(0.0f, 1.0f);
  for (float &x : host) {
    x = uniform(rng);
  }
  float *a = nullptr, *b = nullptr;
  check(cudaMalloc(&a, n * sizeof(float)), "cudaMalloc");
  check(cudaMalloc(&b, n * sizeof(float)), "cudaMalloc");
  check(cudaMemcpy(a, host.data(), n * sizeof(float), cudaMemcpyHostToDevice), "cudaMemcpy");
  cudaEvent_t start, stop;
  check(cudaEventCreate(&start), "cudaEventCreate");
  check(cudaEventCreate(&stop), "cudaEventCreate");
  for (int i = 0; i < calls; ++i) {
    check(step(a, b, ny, nx, nullptr), "warm-up step");
  }
  check(cudaDeviceSynchronize(), "warm-up");
  std::vector<double> gpu, issue;
  for (int r = 0; r < reps; ++r) {
    check(cudaEventRecord(start, nullptr), "cudaEventRecord");
    auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < calls; ++i) {
      step(a, b, ny, nx, nullptr);
    }
    auto t1 = std::chrono::steady_clock::now();
    check(cudaEventRecord(stop, nullptr), "cudaEventRecord");
    check(cudaEventSynchronize(stop), "cudaEventSynchronize");
    float ms = 0;
    check(cudaEventElapsedTime(&ms, start, stop), "cudaEventElapsedTime");
    gpu.push_back(1000.0 * ms / calls);
    issue.push_back(std::chrono::duration<double, std::micro>(t1 - t0).count() / calls);
  }
  std::printf("capi %d %d gpu_us_per_call %.3f issue_us_per_call %.3f\n", ny, nx, median(gpu),
              median(issue));
  return 0;
}
