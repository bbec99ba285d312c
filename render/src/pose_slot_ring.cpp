#include "render/pose_slot_ring.hpp"

#include <algorithm>
#include <cstring>

#include "render/pose_sink.hpp"

namespace render {

PoseSlotRing::PoseSlotRing(int frames_in_flight)
    : held_by_frame_(std::size_t(std::max(frames_in_flight, 1)), -1) {}

int PoseSlotRing::publish(std::uint64_t tag) {
  std::lock_guard<std::mutex> lock(mutex_);
  latest_ = write_slot_;
  latest_tag_ = tag;
  ++publish_count_;
  // slot_count() = frames + 2: at most `frames` held, one latest, so one is always free.
  for (int s = 0; s < slot_count(); ++s) {
    if (s == latest_ || std::find(held_by_frame_.begin(), held_by_frame_.end(), s) != held_by_frame_.end()) continue;
    write_slot_ = s;
    break;
  }
  return write_slot_;
}

std::uint64_t PoseSlotRing::publish_count() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return publish_count_;
}

PoseSlotRing::Acquired PoseSlotRing::acquire(int frame_slot) {
  std::lock_guard<std::mutex> lock(mutex_);
  const std::size_t f = std::size_t(frame_slot) % held_by_frame_.size();
  held_by_frame_[f] = latest_;
  return {latest_, latest_tag_};
}

std::uint64_t pose_slot_bytes(int body_count, int particle_count) {
  return std::max<std::uint64_t>(pose_float_count(body_count, particle_count) * sizeof(float), 16);
}

std::uint64_t pose_slot_stride(std::uint64_t slot_bytes, std::uint64_t offset_alignment) {
  const std::uint64_t align = std::max<std::uint64_t>(offset_alignment, 16);
  return (slot_bytes + align - 1) / align * align;
}

void fill_identity_poses(float* slot, std::uint64_t slot_stride_bytes, int body_count) {
  std::memset(slot, 0, slot_stride_bytes);
  for (int b = 0; b < body_count; ++b) slot[std::size_t(kPoseFloatsPerBody) * std::size_t(b) + 7] = 1.0f;
}

}  // namespace render
