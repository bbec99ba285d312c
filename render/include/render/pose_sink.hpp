// PoseSink: where the simulation writes what the renderer draws, so that a frame needs no copy
// of the State. The layout is one float array per published frame:
//   body b:      floats [8b, 8b + 8)          x y z 0, qx qy qz qw  (centre-of-mass frame, world)
//   particle p:  floats [8B + 4p, 8B + 4p + 4)  x y z radius        (B = body_count())
// The shaders read it as vec4s (shaders/scene_layout.glsl). SharedPoseBuffer backs it with a
// persistently mapped Vulkan buffer; a CUDA backend can back it with device memory exported from
// Vulkan (VK_KHR_external_memory_fd) and write it from a kernel with the same layout.
#pragma once

#include <cstddef>
#include <span>

#include "sim/model.hpp"
#include "sim/state.hpp"

namespace render {

inline constexpr int kPoseFloatsPerBody = 8;
inline constexpr int kPoseFloatsPerParticle = 4;

inline std::size_t pose_float_count(int body_count, int particle_count) {
  return std::size_t(kPoseFloatsPerBody) * std::size_t(body_count) +
         std::size_t(kPoseFloatsPerParticle) * std::size_t(particle_count);
}

// The producer's side. One thread writes: data(), fill, publish(), repeat.
class PoseSink {
 public:
  virtual ~PoseSink() = default;
  virtual int body_count() const = 0;
  virtual int particle_count() const = 0;
  // The slot to fill now (pose_float_count() floats), valid until publish(). Never read by a
  // frame in flight, so writing it races with nothing.
  virtual float* data() = 0;
  // Makes the filled slot what the next frame draws and hands out another slot for data().
  virtual void publish() = 0;
};

// Writes generalized positions in State::q layout (bodies [x y z qw qx qy qz], then particles
// [x y z]) into `out` (pose_float_count(model.body_count, model.particle_count) floats).
void write_poses(const sim::Model& model, std::span<const sim::Real> q, float* out);

// Writes the state's body poses (com frames) and particle positions into the sink's current
// slot; call sink.publish() after it. Host-memory sinks only (SharedPoseBuffer).
void write_state_poses(const sim::Model& model, const sim::State& state, PoseSink& sink);

}  // namespace render
