// A device copy of a host array for the [gpu] tests: cudaMalloc'd, uploaded, freed on scope
// exit; download() reads it back. Failures are test failures (REQUIRE). And the tests' one check
// for a device: cuda_device_present() says "skipped: ..." (CTest's skip pattern) without one.
#pragma once

#include <catch2/catch.hpp>
#include <cuda_runtime_api.h>

#include <algorithm>
#include <vector>

namespace test {

inline bool cuda_device_present() {
  int devices = 0;
  const cudaError_t e = cudaGetDeviceCount(&devices);
  if (e == cudaSuccess && devices > 0) return true;
  WARN("skipped: no CUDA device (" << cudaGetErrorString(e) << ")");
  cudaGetLastError();
  return false;
}

template <class T>
class DeviceArray {
 public:
  explicit DeviceArray(const std::vector<T>& host) : count_(host.size()) {
    REQUIRE(cudaMalloc(reinterpret_cast<void**>(&data_), std::max<std::size_t>(1, count_) * sizeof(T)) == cudaSuccess);
    if (count_ > 0) REQUIRE(cudaMemcpy(data_, host.data(), count_ * sizeof(T), cudaMemcpyHostToDevice) == cudaSuccess);
  }
  explicit DeviceArray(std::size_t count) : DeviceArray(std::vector<T>(count)) {}
  ~DeviceArray() { cudaFree(data_); }
  DeviceArray(const DeviceArray&) = delete;
  DeviceArray& operator=(const DeviceArray&) = delete;
  T* get() const { return data_; }
  std::vector<T> download() const {
    std::vector<T> host(count_);
    if (count_ > 0) REQUIRE(cudaMemcpy(host.data(), data_, count_ * sizeof(T), cudaMemcpyDeviceToHost) == cudaSuccess);
    return host;
  }

 private:
  T* data_ = nullptr;
  std::size_t count_;
};

}  // namespace test
