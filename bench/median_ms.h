// median_ms.h - the median time of a launch, in milliseconds, for the
// stand-alone GPU programs under bench/ (fieldstc/fieldstc_bench.cu):
// launch(i) timed with CUDA events, `runs` times after `warmup` calls.
#pragma once

#include <algorithm>
#include <vector>

#include <cuda_runtime.h>

#include "stencilc/runtime/check.h"

namespace stencilc {

template <class F> double medianMs(F &&launch, int warmup, int runs) {
  cudaEvent_t start, stop;
  STENCILC_CHECK(cudaEventCreate(&start));
  STENCILC_CHECK(cudaEventCreate(&stop));
  for (int i = 0; i < warmup; ++i)
    launch(i);
  std::vector<float> ms;
  for (int i = 0; i < runs; ++i) {
    STENCILC_CHECK(cudaEventRecord(start));
    launch(i);
    STENCILC_CHECK(cudaEventRecord(stop));
    STENCILC_CHECK(cudaEventSynchronize(stop));
    float t = 0;
    STENCILC_CHECK(cudaEventElapsedTime(&t, start, stop));
    ms.push_back(t);
  }
  STENCILC_CHECK(cudaEventDestroy(start));
  STENCILC_CHECK(cudaEventDestroy(stop));
  std::sort(ms.begin(), ms.end());
  return ms[ms.size() / 2];
}

} // namespace stencilc
