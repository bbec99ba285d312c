// State and Control: plain arrays, so reset, record/replay and hashing are memcpy.
#pragma once

#include <cstdint>
#include <vector>

#include "sim/math.hpp"
#include "sim/model.hpp"

namespace sim {

// The multipliers of the last solved step: the next step's starting λ when warm starting
// (SolverOptions::warm_start). Part of the State because the future depends on them: a State
// copied into a fresh Workspace continues bit for bit.
struct WarmStart {
  std::vector<std::uint64_t> contact_key;  // Contact::key, sorted ascending (contact_count)
  std::vector<Real> contact_lambda;        // (λ_n, λ_f1, λ_f2) per key (3 contact_count) [N]
  std::vector<Real> row_lambda;            // joint, drive, limit and distance rows in row order
                                           // (the rows before the contacts) [N or N m]
  void clear() {
    contact_key.clear();
    contact_lambda.clear();
    row_lambda.clear();
  }
};

struct State {
  // Generalized positions: per body [x y z qw qx qy qz] of its centre-of-mass frame, then per
  // particle [x y z] (coord_count) [m, unit quaternion]
  std::vector<Real> q;
  // Generalized velocities: per body [vx vy vz ωx ωy ωz] (ω in world frame), then per particle
  // [vx vy vz] (dof_count) [m/s, rad/s]
  std::vector<Real> u;
  Real time = 0;             // [s]
  std::int64_t step_index = 0;
  // Unwrapped joint coordinate (joint_count) [rad or m]: a revolute angle accumulates beyond ±π
  // (limits, drives and targets past π work; a wheel keeps its turn count). The solver reads it
  // as the reference that picks the branch of atan2 and writes it back after each step; empty or
  // mis-sized, it is taken from q (angles in (−π, π]). Other joint types: their coordinate or 0.
  std::vector<Real> joint_position;
  WarmStart warm_start;

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
  std::vector<Real> soft_pressure;          // active pressure per soft group (soft_group_count) [Pa]
};

State make_initial_state(const Model& model);

// The joint coordinates of `state.q` unwrapped against `state.joint_position` (the branch of the
// angle nearest to it), or in (−π, π] where the state has none; for chains and read-outs.
Real joint_position(const Model& model, const State& state, int joint);
// Sets state.joint_position from q (angles in (−π, π]): after editing q by hand (a new pose).
void reset_joint_positions(const Model& model, State& state);
Control make_initial_control(const Model& model);

// FNV-1a over the raw bytes of q, u, time, the joint positions and the warm-start multipliers:
// equal hashes mean bit-identical states (and bit-identical futures).
std::uint64_t state_hash(const State& state);

}  // namespace sim
