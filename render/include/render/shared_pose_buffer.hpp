// SharedPoseBuffer: a PoseSink in a persistently mapped, host-visible Vulkan storage buffer that
// the shaders read directly (instanced draws index it by body and particle).
//
// Frames in flight: the buffer holds frames_in_flight + 2 slots. A frame in flight keeps the
// slot it acquired until the same frame slot acquires again (by then its previous commands have
// completed, which the caller of SceneRenderer::update() guarantees); the newest published slot
// is kept for the next frame; the producer always writes a slot neither of those holds. So the
// simulation thread never writes memory the GPU reads, and frames never wait for the simulation.
#pragma once

#include <vulkan/vulkan.h>

#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

#include "render/pose_sink.hpp"
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
  std::uint64_t publish_count() const;

  // ---- consumer (the render thread) ----
  // The newest published slot, held for `frame_slot` (0 .. frames_in_flight-1) from now until
  // that frame slot acquires again.
  int acquire(int frame_slot);
  const float* slot_data(int slot) const;      // host view of a slot (overlays, bounds)
  VkBuffer buffer() const { return buffer_; }
  VkDeviceSize slot_offset(int slot) const { return stride_ * VkDeviceSize(slot); }  // dynamic offset
  VkDeviceSize slot_range() const { return range_; }  // bytes a descriptor covers
  int slot_count() const { return static_cast<int>(held_by_frame_.size()) + 2; }

 private:
  SharedPoseBuffer() = default;
  float* slot_pointer(int slot) const;

  VkDevice device_ = VK_NULL_HANDLE;
  VkBuffer buffer_ = VK_NULL_HANDLE;
  VkDeviceMemory memory_ = VK_NULL_HANDLE;
  std::uint8_t* mapped_ = nullptr;
  VkDeviceSize stride_ = 0, range_ = 0;
  int body_count_ = 0, particle_count_ = 0;

  mutable std::mutex mutex_;      // guards latest_, held_by_frame_, publish_count_
  int write_slot_ = 1;            // producer-owned
  int latest_ = 0;
  std::vector<int> held_by_frame_;  // slot each frame slot reads (-1: none)
  std::uint64_t publish_count_ = 0;
};

}  // namespace render
