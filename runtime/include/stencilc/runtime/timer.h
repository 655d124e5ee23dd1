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
///
/// The events time the device's work only: before each start event a short
/// kernel (200 us) holds the stream, so that what the host does to launch
/// (argument checks, occupancy queries, the launch call itself) happens
/// while the GPU is still busy, as it does when steps are queued back to
/// back. With `hostGaps`, no hold: the stream is idle at the start event
/// and the host's launch time counts (how the benchmark timed before
/// 2026-11-22 08:00 UTC).
TimingStats timeMedian(const std::function<void(int)> &launch, int warmup, int runs,
                       cudaStream_t stream, bool hostGaps = false);

} // namespace stencilc
