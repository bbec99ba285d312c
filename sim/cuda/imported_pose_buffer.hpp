// ImportedPoseBuffer: the CUDA side of render::ExportedPoseBuffer (issue 17's interop). It imports
// the Vulkan memory of the pose slots (cudaImportExternalMemory, opaque fd) and the timeline
// semaphore (cudaImportExternalSemaphore) described by a sim::SharedPoseMemory, and on its own
// stream writes a slot from a device copy of State::q with one kernel (sim/pose_layout.hpp's
// write_body_pose / write_particle_pose, the CPU's own functions), then signals the semaphore to
// the value the renderer waits for. Plain C++ header (host code includes it without nvcc).
//
// Destroy it before the ExportedPoseBuffer it imported (the memory is Vulkan's).
#pragma once

#include <cuda_runtime_api.h>

#include <array>
#include <cstdint>
#include <memory>
#include <string>

#include "sim/math.hpp"
#include "sim/shared_pose_memory.hpp"

namespace sim::cuda {

// CUDA device `device`'s UUID (cudaDeviceProp::uuid): the Vulkan device to share memory with has
// the same deviceUUID. False with `error` saying why (no device, a driver error).
bool cuda_device_uuid(int device, std::array<std::uint8_t, 16>& uuid, std::string& error);

class ImportedPoseBuffer {
 public:
  // Imports `memory` on CUDA device 0, which must be the exporting device (same UUID), with a
  // timeline semaphore (semaphore_fd >= 0); `particle_radius` (particle_count values) is copied
  // to the device once. Takes over both descriptors, also when it fails (they are closed then).
  // Null with `error` saying what failed.
  static std::unique_ptr<ImportedPoseBuffer> import(const SharedPoseMemory& memory,
                                                    const Real* particle_radius, int particle_radius_count,
                                                    std::string& error);
  ~ImportedPoseBuffer();
  ImportedPoseBuffer(const ImportedPoseBuffer&) = delete;
  ImportedPoseBuffer& operator=(const ImportedPoseBuffer&) = delete;

  // Enqueues on the buffer's stream: slot `slot` <- the poses of `q_device` (device memory,
  // State::q layout: 7 coordinates per body, then 3 per particle), then the semaphore's signal to
  // `signal_value`. Returns the launch's or the signal's error.
  cudaError_t write(const Real* q_device, int slot, std::uint64_t signal_value);
  // The same from a host State::q (copied to the device first, on the same stream): for a step
  // that ran on the CPU.
  cudaError_t write_host(const Real* q, std::size_t q_count, int slot, std::uint64_t signal_value);
  // Waits for everything enqueued.
  cudaError_t synchronize();

  cudaStream_t stream() const { return stream_; }
  float* slot_pointer(int slot) const;  // device memory of slot `slot` (the tests read it back)
  int body_count() const { return layout_.body_count; }
  int particle_count() const { return layout_.particle_count; }

 private:
  ImportedPoseBuffer() = default;

  SharedPoseMemory layout_;  // descriptors already consumed: only the layout is read
  cudaExternalMemory_t memory_ = nullptr;
  cudaExternalSemaphore_t semaphore_ = nullptr;
  unsigned char* mapped_ = nullptr;  // the whole buffer, in device memory
  Real* radius_ = nullptr;           // particle radii on the device
  Real* q_ = nullptr;                // write_host's device copy of q
  std::size_t q_capacity_ = 0;
  cudaStream_t stream_ = nullptr;
};

}  // namespace sim::cuda
