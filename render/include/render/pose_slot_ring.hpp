// PoseSlotRing: which pose slot the producer writes and which one each frame in flight reads, for
// a buffer of frames_in_flight + 2 slots (SharedPoseBuffer in host memory, ExportedPoseBuffer in
// device memory written by CUDA).
//
// A frame in flight keeps the slot it acquired until the same frame slot acquires again (by then
// its previous commands have completed, which the caller of SceneRenderer::update() guarantees);
// the newest published slot is kept for the next frame; the producer always writes a slot
// neither of those holds. So the producer never writes memory the GPU reads, and frames never
// wait for the producer. Each published slot carries a tag: the timeline value a device
// producer signals when the slot's writes are done (0 for host writes, done at publish).
#pragma once

#include <cstddef>
#include <cstdint>
#include <mutex>
#include <vector>

namespace render {

class PoseSlotRing {
 public:
  explicit PoseSlotRing(int frames_in_flight);

  int slot_count() const { return static_cast<int>(held_by_frame_.size()) + 2; }

  // ---- producer (one thread) ----
  int write_slot() const { return write_slot_; }
  // The written slot becomes the newest; returns the next slot to write.
  int publish(std::uint64_t tag = 0);
  std::uint64_t publish_count() const;

  // ---- consumer (the render thread) ----
  struct Acquired {
    int slot = 0;
    std::uint64_t tag = 0;
  };
  // The newest published slot, held for `frame_slot` (taken modulo frames_in_flight) until that
  // frame slot acquires again.
  Acquired acquire(int frame_slot);

 private:
  mutable std::mutex mutex_;        // guards everything below but write_slot_
  int write_slot_ = 1;              // producer-owned
  int latest_ = 0;
  std::uint64_t latest_tag_ = 0;
  std::vector<int> held_by_frame_;  // slot each frame slot reads (-1: none)
  std::uint64_t publish_count_ = 0;
};

// Bytes of one slot's poses (at least one vec4: a storage buffer range may not be empty), and
// the stride between slots for a device's storage-buffer offset alignment.
std::uint64_t pose_slot_bytes(int body_count, int particle_count);
std::uint64_t pose_slot_stride(std::uint64_t slot_bytes, std::uint64_t offset_alignment);
// What every slot holds until something is published: identity poses at the origin, radius 0.
void fill_identity_poses(float* slot, std::uint64_t slot_stride_bytes, int body_count);

}  // namespace render
