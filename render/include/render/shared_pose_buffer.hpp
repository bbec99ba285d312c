// SharedPoseBuffer: a PoseSink in a persistently mapped, host-visible Vulkan storage buffer that
// the shaders read directly (instanced draws index it by body and particle).
//
// Frames in flight: the buffer holds frames_in_flight + 2 slots, handed out by a PoseSlotRing
// (render/pose_slot_ring.hpp): the simulation thread never writes memory the GPU reads, and
// frames never wait for the simulation.
#pragma once

#include <vulkan/vulkan.h>

#include <cstdint>
#include <memory>

#include "render/pose_sink.hpp"
#include "render/pose_slot_ring.hpp"
#include "render/render_context.hpp"
#include "sim/result.hpp"

namespace render {

class SharedPoseBuffer final : public PoseSink {
 public:
  static sim::Result<std::unique_ptr<SharedPoseBuffer>> create(const RenderContext& context, int body_count,
                                                               int particle_count, int frames_in_flight);
  ~SharedPoseBuffer() override;
  SharedPoseBuffer(const SharedPoseBuffer&) = delete;
  SharedPoseBuffer& operator=(const SharedPoseBuffer&) = delete;

  // ---- producer (the simulation thread) ----
  int body_count() const override { return body_count_; }
  int particle_count() const override { return particle_count_; }
  float* data() override;
  void publish() override;
  std::uint64_t publish_count() const { return ring_.publish_count(); }

  // ---- consumer (the render thread) ----
  // The newest published slot, held for `frame_slot` (0 .. frames_in_flight-1) from now until
  // that frame slot acquires again.
  int acquire(int frame_slot) { return ring_.acquire(frame_slot).slot; }
  const float* slot_data(int slot) const;      // host view of a slot (overlays, bounds)
  VkBuffer buffer() const { return buffer_; }
  VkDeviceSize slot_offset(int slot) const { return stride_ * VkDeviceSize(slot); }  // dynamic offset
  VkDeviceSize slot_range() const { return range_; }  // bytes a descriptor covers
  int slot_count() const { return ring_.slot_count(); }

 private:
  explicit SharedPoseBuffer(int frames_in_flight) : ring_(frames_in_flight) {}
  float* slot_pointer(int slot) const;

  VkDevice device_ = VK_NULL_HANDLE;
  VkBuffer buffer_ = VK_NULL_HANDLE;
  VkDeviceMemory memory_ = VK_NULL_HANDLE;
  std::uint8_t* mapped_ = nullptr;
  VkDeviceSize stride_ = 0, range_ = 0;
  int body_count_ = 0, particle_count_ = 0;
  PoseSlotRing ring_;
};

}  // namespace render
