// timer.cu - CUDA-event timing, median of individually timed runs.
#include "stencilc/runtime/timer.h"

#include <algorithm>
#include <vector>

#include "stencilc/runtime/check.h"

namespace stencilc {

namespace {

/// Keeps the GPU busy for `ns` nanoseconds of its global timer (one thread;
/// it neither reads nor writes memory).
__global__ void holdKernel(unsigned long long ns) {
  unsigned long long start = 0, now = 0;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(start));
  do {
    __nanosleep(1000);
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
  } while (now - start < ns);
}

/// Long enough to cover what the host does between a start event and the
/// launch it times (argument checks, an occupancy query, the launch call):
/// microseconds.
constexpr unsigned long long kHoldNs = 200 * 1000;

} // namespace

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
                       cudaStream_t stream, bool hostGaps) {
  for (int i = 0; i < warmup; ++i)
    launch(i);
  STENCILC_CHECK(cudaStreamSynchronize(stream));
  STENCILC_CHECK(cudaGetLastError());

  EventTimer timer;
  std::vector<double> ms;
  ms.reserve(runs);
  for (int i = 0; i < runs; ++i) {
    if (!hostGaps) {
      holdKernel<<<1, 1, 0, stream>>>(kHoldNs);
    }
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
