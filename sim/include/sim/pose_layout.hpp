// The pose layout the renderer draws from, written by whoever owns the state: the CPU
// (render/pose_sink.hpp's write_poses) or a CUDA kernel straight into memory the renderer
// exported (sim/cuda/imported_pose_buffer.hpp). One float array per published frame:
//   body b:      floats [8b, 8b + 8)          x y z 0, qx qy qz qw  (centre-of-mass frame, world)
//   particle p:  floats [8B + 4p, 8B + 4p + 4)  x y z radius        (B = the body count)
// The shaders read it as vec4s (shaders/scene_layout.glsl). The per-item writers are SIM_HD so
// the host loop and the device kernel are the same code.
#pragma once

#include <cstddef>

#include "sim/host_device.hpp"
#include "sim/math.hpp"

namespace sim {

inline constexpr int kPoseFloatsPerBody = 8;
inline constexpr int kPoseFloatsPerParticle = 4;

inline std::size_t pose_float_count(int body_count, int particle_count) {
  return std::size_t(kPoseFloatsPerBody) * std::size_t(body_count) +
         std::size_t(kPoseFloatsPerParticle) * std::size_t(particle_count);
}

// Body b's 7 coordinates of State::q ([x y z qw qx qy qz]) into its 8 floats (w last for GLSL).
SIM_HD inline void write_body_pose(const Real* q_body, float* out) {
  out[0] = float(q_body[0]), out[1] = float(q_body[1]), out[2] = float(q_body[2]), out[3] = 0.0f;
  out[4] = float(q_body[4]), out[5] = float(q_body[5]), out[6] = float(q_body[6]), out[7] = float(q_body[3]);
}

// Particle p's 3 coordinates of State::q and its radius into its 4 floats.
SIM_HD inline void write_particle_pose(const Real* q_particle, Real radius, float* out) {
  out[0] = float(q_particle[0]), out[1] = float(q_particle[1]), out[2] = float(q_particle[2]);
  out[3] = float(radius);
}

}  // namespace sim
