// profile.h - phase timings of the passes of stencilc_dist_run, for finding
// where an exchange's time goes (docs/distributed.md, "Profiling"): with
// STENCILC_DIST_PROFILE set, every pass records a CUDA event and the host
// clock at each of its marks, and the plan prints, when it is destroyed,
// each mark's median time after the pass began, on the GPU and on the host.
#pragma once

#include <chrono>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include <cuda_runtime.h>

namespace stencilc::dist {

class Profile {
public:
  /// A profile when the environment variable STENCILC_DIST_PROFILE is set
  /// (and not "0"), else null.
  static std::unique_ptr<Profile> fromEnvironment();
  ~Profile();
  /// Starts a pass: its first mark, "start", on `stream`.
  void beginPass(cudaStream_t stream);
  /// Records the event of `label` on `stream` and the host clock now.
  void mark(const char *label, cudaStream_t stream);
  /// Waits for the device and prints one line per mark: its median time
  /// after the start of its pass on the GPU and on the host, in ms.
  void report(std::FILE *out, const std::string &title);

private:
  struct Mark {
    std::string label;
    cudaEvent_t event;
    double hostMs;
  };
  std::vector<std::vector<Mark>> passes_;
  std::chrono::steady_clock::time_point start_;
};

} // namespace stencilc::dist
