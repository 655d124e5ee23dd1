// profile.cpp - phase timings of the passes (profile.h).
#include "profile.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>

namespace stencilc::dist {

std::unique_ptr<Profile> Profile::fromEnvironment() {
  const char *value = std::getenv("STENCILC_DIST_PROFILE");
  if (!value || !*value || std::strcmp(value, "0") == 0) {
    return nullptr;
  }
  return std::make_unique<Profile>();
}

Profile::~Profile() {
  for (const auto &pass : passes_) {
    for (const Mark &m : pass) {
      cudaEventDestroy(m.event);
    }
  }
}

void Profile::beginPass(cudaStream_t stream) {
  passes_.emplace_back();
  start_ = std::chrono::steady_clock::now();
  mark("start", stream);
}

void Profile::mark(const char *label, cudaStream_t stream) {
  if (passes_.empty()) {
    return;
  }
  Mark m{label, nullptr, 0};
  if (cudaEventCreate(&m.event) != cudaSuccess || cudaEventRecord(m.event, stream) != cudaSuccess) {
    cudaGetLastError(); // a profile never fails the run it watches
    return;
  }
  m.hostMs =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start_).count();
  passes_.back().push_back(std::move(m));
}

void Profile::report(std::FILE *out, const std::string &title) {
  cudaDeviceSynchronize();
  // Labels in the order of their first appearance; each pass's first mark
  // of a label counts.
  std::vector<std::string> labels;
  for (const auto &pass : passes_) {
    for (const Mark &m : pass) {
      if (std::find(labels.begin(), labels.end(), m.label) == labels.end()) {
        labels.push_back(m.label);
      }
    }
  }
  auto median = [](std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v.empty() ? 0.0 : v[v.size() / 2];
  };
  std::fprintf(out, "profile %s: %zu passes; median ms after the pass start (gpu, host)\n",
               title.c_str(), passes_.size());
  for (const std::string &label : labels) {
    std::vector<double> gpu, host;
    for (const auto &pass : passes_) {
      auto it =
          std::find_if(pass.begin(), pass.end(), [&](const Mark &m) { return m.label == label; });
      float ms = 0;
      if (it != pass.end() &&
          cudaEventElapsedTime(&ms, pass.front().event, it->event) == cudaSuccess) {
        gpu.push_back(ms);
        host.push_back(it->hostMs);
      }
    }
    std::fprintf(out, "  %-14s gpu %8.4f  host %8.4f  (%zu)\n", label.c_str(), median(gpu),
                 median(host), gpu.size());
  }
  std::vector<double> period;
  for (std::size_t k = 1; k < passes_.size(); ++k) {
    float ms = 0;
    if (!passes_[k].empty() && !passes_[k - 1].empty() &&
        cudaEventElapsedTime(&ms, passes_[k - 1].front().event, passes_[k].front().event) ==
            cudaSuccess) {
      period.push_back(ms);
    }
  }
  std::fprintf(out, "  %-14s gpu %8.4f  (start to the next pass's start)\n", "period",
               median(period));
  cudaGetLastError();
}

} // namespace stencilc::dist
