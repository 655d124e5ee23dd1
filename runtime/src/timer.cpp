// timer.cpp - CUDA-event timing, median of individually timed runs.
#include "stencilc/runtime/timer.h"

#include <algorithm>
#include <vector>

#include "stencilc/runtime/check.h"

namespace stencilc {

EventTimer::EventTimer() {
  STENCILC_CHECK(cudaEventCreate(&start_));
  STENCILC_CHECK(cudaEventCreate(&stop_));
}

EventTimer::~EventTimer() {
  cudaEventDestroy(start_);
  cudaEventDestroy(stop_);
}

void EventTimer::start(cudaStream_t stream) { STENCILC_CHECK(cudaEventRecord(start_, stream)); }

float EventTimer::stopMs(cudaStream_t stream) {
  STENCILC_CHECK(cudaEventRecord(stop_, stream));
  STENCILC_CHECK(cudaEventSynchronize(stop_));
  float ms = 0;
  STENCILC_CHECK(cudaEventElapsedTime(&ms, start_, stop_));
  return ms;
}

TimingStats timeMedian(const std::function<void(int)> &launch, int warmup, int runs,
                       cudaStream_t stream) {
  for (int i = 0; i < warmup; ++i)
    launch(i);
  STENCILC_CHECK(cudaStreamSynchronize(stream));
  STENCILC_CHECK(cudaGetLastError());

  EventTimer timer;
  std::vector<double> ms;
  ms.reserve(runs);
  for (int i = 0; i < runs; ++i) {
    timer.start(stream);
    launch(warmup + i);
    ms.push_back(timer.stopMs(stream));
  }
  STENCILC_CHECK(cudaGetLastError());

  TimingStats stats;
  stats.runs = runs;
  if (ms.empty())
    return stats;
  std::sort(ms.begin(), ms.end());
  stats.minMs = ms.front();
  stats.maxMs = ms.back();
  std::size_t mid = ms.size() / 2;
  stats.medianMs = ms.size() % 2 ? ms[mid] : 0.5 * (ms[mid - 1] + ms[mid]);
  return stats;
}

} // namespace stencilc
