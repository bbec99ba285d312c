// PoseSink: where the simulation writes what the renderer draws, so that a frame needs no copy
// of the State. The layout (one float array per published frame, read by the shaders as vec4s)
// is sim/pose_layout.hpp's. SharedPoseBuffer backs it with a persistently mapped Vulkan buffer;
// ExportedPoseBuffer (render/exported_pose_buffer.hpp) keeps it in device memory exported to a
// CUDA producer, whose kernel writes it with the same per-item functions.
#pragma once

#include <cstddef>
#include <span>

#include "sim/model.hpp"
#include "sim/pose_layout.hpp"
#include "sim/state.hpp"

namespace render {

using sim::kPoseFloatsPerBody;
using sim::kPoseFloatsPerParticle;
using sim::pose_float_count;

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
