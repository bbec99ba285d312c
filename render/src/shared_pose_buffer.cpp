#include "render/shared_pose_buffer.hpp"

#include <algorithm>
#include <cstring>

#include "gpu_resources.hpp"

namespace render {

void write_poses(const sim::Model& model, std::span<const sim::Real> q, float* out) {
  for (int b = 0; b < model.body_count; ++b) {
    const sim::Real* s = q.data() + model.body_coord(b);
    float* d = out + std::size_t(kPoseFloatsPerBody) * std::size_t(b);
    d[0] = float(s[0]), d[1] = float(s[1]), d[2] = float(s[2]), d[3] = 0.0f;
    d[4] = float(s[4]), d[5] = float(s[5]), d[6] = float(s[6]), d[7] = float(s[3]);  // w last for GLSL
  }
  float* particles = out + std::size_t(kPoseFloatsPerBody) * std::size_t(model.body_count);
  for (int p = 0; p < model.particle_count; ++p) {
    const sim::Real* s = q.data() + model.particle_coord(p);
    float* d = particles + std::size_t(kPoseFloatsPerParticle) * std::size_t(p);
    d[0] = float(s[0]), d[1] = float(s[1]), d[2] = float(s[2]), d[3] = float(model.particle_radius[p]);
  }
}

void write_state_poses(const sim::Model& model, const sim::State& state, PoseSink& sink) {
  write_poses(model, state.q, sink.data());
}

sim::Result<std::unique_ptr<SharedPoseBuffer>> SharedPoseBuffer::create(const RenderContext& context, int body_count,
                                                                        int particle_count, int frames_in_flight) {
  std::unique_ptr<SharedPoseBuffer> p(new SharedPoseBuffer());
  p->device_ = context.device;
  p->body_count_ = body_count;
  p->particle_count_ = particle_count;
  p->held_by_frame_.assign(std::size_t(std::max(frames_in_flight, 1)), -1);
  // A storage buffer range may not be empty: a model without bodies or particles keeps one vec4.
  const VkDeviceSize bytes = std::max<VkDeviceSize>(pose_float_count(body_count, particle_count) * sizeof(float), 16);
  const VkDeviceSize align = std::max<VkDeviceSize>(context.properties.limits.minStorageBufferOffsetAlignment, 16);
  p->range_ = bytes;
  p->stride_ = (bytes + align - 1) / align * align;
  auto buffer = create_buffer(context, p->stride_ * VkDeviceSize(p->slot_count()),
                              VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, MemoryUse::HostWrite);
  if (!buffer) return sim::Error{"pose buffer: " + buffer.error()};
  p->buffer_ = buffer->buffer;
  p->memory_ = buffer->memory;
  p->mapped_ = static_cast<std::uint8_t*>(buffer->mapped);
  // Until something is published every slot holds identity poses at the origin.
  for (int s = 0; s < p->slot_count(); ++s) {
    float* f = p->slot_pointer(s);
    std::memset(f, 0, p->stride_);
    for (int b = 0; b < body_count; ++b) f[std::size_t(kPoseFloatsPerBody) * std::size_t(b) + 7] = 1.0f;
  }
  return p;
}

SharedPoseBuffer::~SharedPoseBuffer() {
  GpuBuffer b;
  b.buffer = buffer_;
  b.memory = memory_;
  destroy_buffer(device_, b);
}

float* SharedPoseBuffer::slot_pointer(int slot) const {
  return reinterpret_cast<float*>(mapped_ + slot_offset(slot));
}

float* SharedPoseBuffer::data() { return slot_pointer(write_slot_); }

const float* SharedPoseBuffer::slot_data(int slot) const { return slot_pointer(slot); }

void SharedPoseBuffer::publish() {
  std::lock_guard<std::mutex> lock(mutex_);
  latest_ = write_slot_;
  ++publish_count_;
  // slot_count() = frames + 2: at most `frames` held, one latest, so one is always free.
  for (int s = 0; s < slot_count(); ++s) {
    if (s == latest_ || std::find(held_by_frame_.begin(), held_by_frame_.end(), s) != held_by_frame_.end()) continue;
    write_slot_ = s;
    return;
  }
}

std::uint64_t SharedPoseBuffer::publish_count() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return publish_count_;
}

int SharedPoseBuffer::acquire(int frame_slot) {
  std::lock_guard<std::mutex> lock(mutex_);
  const std::size_t f = std::size_t(frame_slot) % held_by_frame_.size();
  held_by_frame_[f] = latest_;
  return latest_;
}

}  // namespace render
