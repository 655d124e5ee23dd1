// The drivers' timing (README.md): launch(i) makes the i-th launch of a
// batch, in i % 2 ? b -> a : a -> b order.
#pragma once

#include <algorithm>
#include <cstdio>
#include <vector>

#include <cuda_runtime.h>

/// Prints `variant` and a launch's median time in microseconds: 5 warm-up
/// launches, then 15 batches of 10 timed by CUDA events.
template <class Launch> void report(const char *variant, Launch launch) {
  cudaEvent_t e0, e1;
  cudaEventCreate(&e0);
  cudaEventCreate(&e1);
  for (int i = 0; i < 5; ++i) {
    launch(i);
  }
  std::vector<float> t;
  for (int r = 0; r < 15; ++r) {
    cudaEventRecord(e0);
    for (int i = 0; i < 10; ++i) {
      launch(i);
    }
    cudaEventRecord(e1);
    cudaEventSynchronize(e1);
    float ms = 0;
    cudaEventElapsedTime(&ms, e0, e1);
    t.push_back(ms * 100.f);
  }
  std::sort(t.begin(), t.end());
  printf("%s: %.1f us a composed step (median of 15 x 10), %s\n", variant, t[7],
         cudaGetErrorString(cudaGetLastError()));
}
