// State and Control: plain arrays, so reset, record/replay and hashing are memcpy.
#pragma once

#include <cstdint>
#include <vector>

#include "sim/math.hpp"
#include "sim/model.hpp"

namespace sim {

struct State {
  // Generalized positions: per body [x y z qw qx qy qz] of its centre-of-mass frame, then per
  // particle [x y z] (coord_count) [m, unit quaternion]
  std::vector<Real> q;
  // Generalized velocities: per body [vx vy vz ωx ωy ωz] (ω in world frame), then per particle
  // [vx vy vz] (dof_count) [m/s, rad/s]
  std::vector<Real> u;
  Real time = 0;             // [s]
  std::int64_t step_index = 0;

  Vec3 body_position(int b) const { return Vec3(q[7 * b], q[7 * b + 1], q[7 * b + 2]); }
  Quat body_rotation(int b) const { return Quat(q[7 * b + 3], q[7 * b + 4], q[7 * b + 5], q[7 * b + 6]); }
  Pose body_pose(int b) const { return Pose{body_position(b), body_rotation(b)}; }
  void set_body_pose(int b, const Pose& p);
  Vec3 body_velocity(int b) const { return Vec3(u[6 * b], u[6 * b + 1], u[6 * b + 2]); }
  Vec3 body_angular_velocity(int b) const { return Vec3(u[6 * b + 3], u[6 * b + 4], u[6 * b + 5]); }
};

struct Control {
  std::vector<Real> joint_target;           // drive position targets (joint_count)
  std::vector<Real> joint_target_velocity;  // drive velocity targets (joint_count)
  std::vector<Vec6> body_wrench;            // applied force and torque at the com, world (body_count) [N, N m]
  std::vector<Vec3> particle_force;         // applied force (particle_count) [N]
};

State make_initial_state(const Model& model);
Control make_initial_control(const Model& model);

// FNV-1a over the raw bytes of q, u and time: equal hashes mean bit-identical states.
std::uint64_t state_hash(const State& state);

}  // namespace sim
