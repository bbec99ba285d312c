// ExportedPoseBuffer: the pose slots (sim/pose_layout.hpp's layout) in device-local Vulkan memory
// that a CUDA producer writes in place (issue 17's interop): the memory is exported as an opaque
// POSIX fd (VK_KHR_external_memory_fd) and so is a timeline semaphore
// (VK_KHR_external_semaphore_fd). The producer (sim::cuda::ImportedPoseBuffer) imports both,
// writes a slot from device state with a kernel, signals the semaphore to an increasing value and
// publishes the slot here with that value; a frame that acquires the slot waits for the value on
// the GPU (VkTimelineSemaphoreSubmitInfo) before its shaders read it. No host copy of the poses
// anywhere. Slots are handed out by a PoseSlotRing, as SharedPoseBuffer's are.
//
// Needs a context created with the interop extensions (HeadlessContextOptions::interop, or a
// window that enabled them and set RenderContext's flags). Without an exportable timeline
// semaphore (Mesa's lavapipe exports memory but not semaphores) the buffer is still created,
// has_semaphore() is false and export_handles() says so by semaphore_fd = -1.
#pragma once

#include <vulkan/vulkan.h>

#include <cstdint>
#include <memory>

#include "render/pose_slot_ring.hpp"
#include "render/render_context.hpp"
#include "sim/result.hpp"
#include "sim/shared_pose_memory.hpp"

namespace render {

class ExportedPoseBuffer {
 public:
  static sim::Result<std::unique_ptr<ExportedPoseBuffer>> create(const RenderContext& context, int body_count,
                                                                 int particle_count, int frames_in_flight);
  ~ExportedPoseBuffer();
  ExportedPoseBuffer(const ExportedPoseBuffer&) = delete;
  ExportedPoseBuffer& operator=(const ExportedPoseBuffer&) = delete;

  // New descriptors of the memory and the semaphore, with the layout and the device's UUID, for
  // a producer in another API; the caller owns the descriptors (an importer takes them over).
  sim::Result<sim::SharedPoseMemory> export_handles() const;
  bool has_semaphore() const { return semaphore_ != VK_NULL_HANDLE; }

  // ---- producer: the host thread that enqueues the device's writes ----
  int write_slot() const { return ring_.write_slot(); }
  // After enqueueing the writes of write_slot() and the semaphore's signal to `signal_value`
  // (strictly increasing from 1): the slot is what the next frame draws. Returns the next slot.
  int publish(std::uint64_t signal_value) { return ring_.publish(signal_value); }
  std::uint64_t publish_count() const { return ring_.publish_count(); }

  // ---- consumer (the render thread) ----
  // The newest published slot, held for `frame_slot`; its tag is the semaphore value the frame's
  // submission waits for (0 before the first publish: the identity poses written at creation).
  PoseSlotRing::Acquired acquire(int frame_slot) { return ring_.acquire(frame_slot); }
  VkBuffer buffer() const { return buffer_; }
  VkSemaphore semaphore() const { return semaphore_; }
  VkDeviceSize slot_offset(int slot) const { return stride_ * VkDeviceSize(slot); }
  VkDeviceSize slot_range() const { return range_; }
  int slot_count() const { return ring_.slot_count(); }

 private:
  explicit ExportedPoseBuffer(int frames_in_flight) : ring_(frames_in_flight) {}

  RenderContext context_;
  VkBuffer buffer_ = VK_NULL_HANDLE;
  VkDeviceMemory memory_ = VK_NULL_HANDLE;
  VkDeviceSize allocation_size_ = 0;
  bool dedicated_ = false;
  VkSemaphore semaphore_ = VK_NULL_HANDLE;
  VkDeviceSize stride_ = 0, range_ = 0;
  int body_count_ = 0, particle_count_ = 0;
  PoseSlotRing ring_;
};

}  // namespace render
