// DeviceSdfGrid: a baked SDF (sim::SdfGrid: the NanoVDB fine grid and its far field) copied to
// CUDA device memory, and the SdfGridView over those copies that device kernels sample with the
// CPU's own sampler (sdf/nano_sdf.hpp's NanoSdf; launch_sdf_samples in launchers.hpp). NanoVDB
// buffers hold offsets, not pointers, so a byte copy is a valid grid on the device. Plain C++
// header (host code includes it without nvcc).
#pragma once

#include <cstddef>
#include <memory>
#include <string>

#include "sdf/nano_sdf.hpp"
#include "sim/sdf.hpp"

namespace sim::cuda {

class DeviceSdfGrid {
 public:
  // Copies `grid`'s buffers to the current CUDA device; null with `error` saying what failed.
  static std::unique_ptr<DeviceSdfGrid> upload(const SdfGrid& grid, std::string& error);
  ~DeviceSdfGrid();
  DeviceSdfGrid(const DeviceSdfGrid&) = delete;
  DeviceSdfGrid& operator=(const DeviceSdfGrid&) = delete;

  // The grid as the samplers read it, its grid pointers in device memory.
  const detail::SdfGridView& view() const { return view_; }
  std::size_t device_bytes() const { return bytes_; }

 private:
  DeviceSdfGrid() = default;
  void* fine_ = nullptr;
  void* far_ = nullptr;
  std::size_t bytes_ = 0;
  detail::SdfGridView view_;
};

}  // namespace sim::cuda
