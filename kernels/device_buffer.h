// A minimal owning device array for host drivers and tests.
#pragma once

#include "dwk_common.h"

#include <cstdint>
#include <cstring>
#include <vector>

namespace dwk {

template <typename T> class DeviceBuffer {
public:
  DeviceBuffer() = default;
  explicit DeviceBuffer(size_t n) { resize(n); }
  DeviceBuffer(const DeviceBuffer &) = delete;
  DeviceBuffer &operator=(const DeviceBuffer &) = delete;
  ~DeviceBuffer() {
    if (ptr_)
      cudaFree(ptr_);
  }

  // Keeps the allocation when it is already large enough (per-iteration
  // buffers of the binning step are resized every frame).
  void resize(size_t n) {
    if (n > capacity_) {
      if (ptr_)
        DWK_CHECK(cudaFree(ptr_));
      ptr_ = nullptr;
      DWK_CHECK(cudaMalloc(&ptr_, (n ? n : 1) * sizeof(T)));
      capacity_ = n;
    }
    size_ = n;
  }
  void upload(const std::vector<T> &host) {
    resize(host.size());
    DWK_CHECK(cudaMemcpy(ptr_, host.data(), host.size() * sizeof(T),
                         cudaMemcpyHostToDevice));
  }
  std::vector<T> download() const {
    std::vector<T> host(size_);
    DWK_CHECK(cudaMemcpy(host.data(), ptr_, size_ * sizeof(T),
                         cudaMemcpyDeviceToHost));
    return host;
  }
  void zero(cudaStream_t stream = 0) {
    DWK_CHECK(cudaMemsetAsync(ptr_, 0, size_ * sizeof(T), stream));
  }
  // All bytes 0xFF: a NaN for floats, -1 / UINT_MAX for integers.
  void poison(cudaStream_t stream = 0) {
    DWK_CHECK(cudaMemsetAsync(ptr_, 0xFF, size_ * sizeof(T), stream));
  }
  T *data() { return ptr_; }
  const T *data() const { return ptr_; }
  size_t size() const { return size_; }

private:
  T *ptr_ = nullptr;
  size_t size_ = 0;
  size_t capacity_ = 0;
};

} // namespace dwk
