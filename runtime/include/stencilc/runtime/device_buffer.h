// device_buffer.h - an owning, move-only device allocation of n elements.
#pragma once

#include <cstddef>
#include <utility>
#include <vector>

#include <cuda_runtime_api.h>

#include "stencilc/runtime/check.h"

namespace stencilc {

template <class T> class DeviceBuffer {
public:
  DeviceBuffer() = default;
  explicit DeviceBuffer(std::size_t count) : count_(count) {
    if (count_)
      STENCILC_CHECK(cudaMalloc(reinterpret_cast<void **>(&data_), count_ * sizeof(T)));
  }
  DeviceBuffer(const DeviceBuffer &) = delete;
  DeviceBuffer &operator=(const DeviceBuffer &) = delete;
  DeviceBuffer(DeviceBuffer &&other) noexcept
      : data_(std::exchange(other.data_, nullptr)), count_(std::exchange(other.count_, 0)) {}
  DeviceBuffer &operator=(DeviceBuffer &&other) noexcept {
    if (this != &other) {
      release();
      data_ = std::exchange(other.data_, nullptr);
      count_ = std::exchange(other.count_, 0);
    }
    return *this;
  }
  ~DeviceBuffer() { release(); }

  T *data() const { return data_; }
  std::size_t size() const { return count_; }
  std::size_t bytes() const { return count_ * sizeof(T); }

  void upload(const std::vector<T> &host) {
    STENCILC_CHECK(host.size() == count_ ? cudaSuccess : cudaErrorInvalidValue);
    STENCILC_CHECK(cudaMemcpy(data_, host.data(), bytes(), cudaMemcpyHostToDevice));
  }
  std::vector<T> download() const {
    std::vector<T> host(count_);
    STENCILC_CHECK(cudaMemcpy(host.data(), data_, bytes(), cudaMemcpyDeviceToHost));
    return host;
  }

private:
  void release() {
    if (data_)
      cudaFree(data_); // cannot report from a destructor; frees never fail on valid pointers
    data_ = nullptr;
    count_ = 0;
  }

  T *data_ = nullptr;
  std::size_t count_ = 0;
};

} // namespace stencilc
