#include "sim/state.hpp"

#include <cstring>

#include "constraint/joint_rows.hpp"
#include "core/kinematics.hpp"

namespace sim {

void State::set_body_pose(int b, const Pose& p) {
  Real* c = &q[7 * b];
  c[0] = p.pos.x(); c[1] = p.pos.y(); c[2] = p.pos.z();
  c[3] = p.rot.w(); c[4] = p.rot.x(); c[5] = p.rot.y(); c[6] = p.rot.z();
}

State make_initial_state(const Model& model) {
  State s;
  s.q.assign(model.coord_count(), Real(0));
  s.u.assign(model.dof_count(), Real(0));
  for (int b = 0; b < model.body_count; ++b) {
    s.set_body_pose(b, model.body_initial_pose[b]);
    const Vec3& v = model.body_initial_velocity[b];
    const Vec3& w = model.body_initial_angular_velocity[b];
    for (int k = 0; k < 3; ++k) {
      s.u[6 * b + k] = v[k];
      s.u[6 * b + 3 + k] = w[k];
    }
  }
  for (int p = 0; p < model.particle_count; ++p) {
    for (int k = 0; k < 3; ++k) {
      s.q[model.particle_coord(p) + k] = model.particle_initial_position[p][k];
      s.u[model.particle_dof(p) + k] = model.particle_initial_velocity[p][k];
    }
  }
  reset_joint_positions(model, s);
  return s;
}

void reset_joint_positions(const Model& model, State& state) {
  Configuration c;
  c.assign(model, state.q.data());
  state.joint_position.assign(model.joint_count, Real(0));
  for (int j = 0; j < model.joint_count; ++j)
    if (joint_has_coordinate(model.joint_type[j])) state.joint_position[j] = joint_coordinate(model, j, c).value;
}

Real joint_position(const Model& model, const State& state, int j) {
  if (!joint_has_coordinate(model.joint_type[j])) return 0;
  Configuration c;
  c.assign(model, state.q.data());
  const Real raw = joint_coordinate(model, j, c).value;
  if (static_cast<int>(state.joint_position.size()) != model.joint_count) return raw;
  return joint_position_near(model.joint_type[j], raw, state.joint_position[j]);
}

Control make_initial_control(const Model& model) {
  Control c;
  c.joint_target = model.joint_initial_target;
  c.joint_target_velocity = model.joint_initial_target_velocity;
  c.body_wrench.assign(model.body_count, Vec6::Zero());
  c.particle_force.assign(model.particle_count, Vec3::Zero());
  c.soft_pressure = model.soft_group_pressure;
  return c;
}

std::uint64_t state_hash(const State& state) {
  std::uint64_t h = 1469598103934665603ull;
  auto mix = [&h](const void* data, std::size_t bytes) {
    const auto* p = static_cast<const unsigned char*>(data);
    for (std::size_t i = 0; i < bytes; ++i) {
      h ^= p[i];
      h *= 1099511628211ull;
    }
  };
  mix(state.q.data(), state.q.size() * sizeof(Real));
  mix(state.u.data(), state.u.size() * sizeof(Real));
  mix(&state.time, sizeof(state.time));
  mix(state.joint_position.data(), state.joint_position.size() * sizeof(Real));
  mix(state.warm_start.contact_key.data(), state.warm_start.contact_key.size() * sizeof(std::uint64_t));
  mix(state.warm_start.contact_lambda.data(), state.warm_start.contact_lambda.size() * sizeof(Real));
  mix(state.warm_start.row_lambda.data(), state.warm_start.row_lambda.size() * sizeof(Real));
  return h;
}

}  // namespace sim
