// timer.h - timing device work with CUDA events: warm-up runs, then the
// median of N individually timed runs.
#pragma once

#include <functional>

#include <cuda_runtime_api.h>

namespace stencilc {

/// A pair of CUDA events around work on one stream.
class EventTimer {
public:
  EventTimer();
  ~EventTimer();
  EventTimer(const EventTimer &) = delete;
  EventTimer &operator=(const EventTimer &) = delete;

  void start(cudaStream_t stream);
  /// Records the stop event, waits for it, and returns the milliseconds
  /// between start and stop.
  float stopMs(cudaStream_t stream);

private:
  cudaEvent_t start_ = nullptr;
  cudaEvent_t stop_ = nullptr;
};

struct TimingStats {
  double medianMs = 0;
  double minMs = 0;
  double maxMs = 0;
  int runs = 0;
};

/// Runs `launch(i)` `warmup` times untimed, then `runs` times each between a
/// pair of events, and returns the median, min and max. `launch` receives
/// the run index (so callers can rotate buffers) and must enqueue its work
/// on `stream`; a launch error ends the program with file:line.
TimingStats timeMedian(const std::function<void(int)> &launch, int warmup, int runs,
                       cudaStream_t stream);

} // namespace stencilc
