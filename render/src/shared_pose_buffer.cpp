#include "render/shared_pose_buffer.hpp"

#include "gpu_resources.hpp"

namespace render {

void write_poses(const sim::Model& model, std::span<const sim::Real> q, float* out) {
  for (int b = 0; b < model.body_count; ++b)
    sim::write_body_pose(q.data() + model.body_coord(b), out + std::size_t(kPoseFloatsPerBody) * std::size_t(b));
  float* particles = out + std::size_t(kPoseFloatsPerBody) * std::size_t(model.body_count);
  for (int p = 0; p < model.particle_count; ++p)
    sim::write_particle_pose(q.data() + model.particle_coord(p), model.particle_radius[std::size_t(p)],
                             particles + std::size_t(kPoseFloatsPerParticle) * std::size_t(p));
}

void write_state_poses(const sim::Model& model, const sim::State& state, PoseSink& sink) {
  write_poses(model, state.q, sink.data());
}

sim::Result<std::unique_ptr<SharedPoseBuffer>> SharedPoseBuffer::create(const RenderContext& context, int body_count,
                                                                        int particle_count, int frames_in_flight) {
  std::unique_ptr<SharedPoseBuffer> p(new SharedPoseBuffer(frames_in_flight));
  p->device_ = context.device;
  p->body_count_ = body_count;
  p->particle_count_ = particle_count;
  p->range_ = pose_slot_bytes(body_count, particle_count);
  p->stride_ = pose_slot_stride(p->range_, context.properties.limits.minStorageBufferOffsetAlignment);
  auto buffer = create_buffer(context, p->stride_ * VkDeviceSize(p->slot_count()),
                              VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, MemoryUse::HostWrite);
  if (!buffer) return sim::Error{"pose buffer: " + buffer.error()};
  p->buffer_ = buffer->buffer;
  p->memory_ = buffer->memory;
  p->mapped_ = static_cast<std::uint8_t*>(buffer->mapped);
  // Until something is published every slot holds identity poses at the origin.
  for (int s = 0; s < p->slot_count(); ++s) fill_identity_poses(p->slot_pointer(s), p->stride_, body_count);
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

float* SharedPoseBuffer::data() { return slot_pointer(ring_.write_slot()); }

const float* SharedPoseBuffer::slot_data(int slot) const { return slot_pointer(slot); }

void SharedPoseBuffer::publish() { ring_.publish(); }

}  // namespace render
