// What a graphics API hands a compute API so that kernels write the renderer's poses in place
// (issue 17's interop): pose slots (sim/pose_layout.hpp's layout, one frame each) in memory
// exported as an opaque POSIX file descriptor, and a timeline semaphore exported the same way
// that the producer signals once a slot is written. render::ExportedPoseBuffer fills it from
// Vulkan (VK_KHR_external_memory_fd, VK_KHR_external_semaphore_fd); sim::cuda::ImportedPoseBuffer
// imports it (cudaImportExternalMemory, cudaImportExternalSemaphore). Plain data: no Vulkan and
// no CUDA types, so neither side includes the other's headers.
#pragma once

#include <array>
#include <cstdint>

namespace sim {

struct SharedPoseMemory {
  int memory_fd = -1;                 // the whole allocation; the importer owns it once imported
  std::uint64_t allocation_size = 0;  // bytes, as allocated (what the importer must map)
  bool dedicated = false;             // a dedicated allocation (the importer must say so)
  std::uint64_t slot_stride = 0;      // bytes from one slot to the next
  int slot_count = 0;
  int body_count = 0;
  int particle_count = 0;
  int semaphore_fd = -1;              // a timeline semaphore; the importer owns it once imported
  // The exporting device (VkPhysicalDeviceIDProperties::deviceUUID): the importer must be the
  // same physical device (cudaDeviceProp::uuid).
  std::array<std::uint8_t, 16> device_uuid{};
};

}  // namespace sim
