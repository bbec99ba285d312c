#include "core/kinematics.hpp"

#include "core/kernel_views.hpp"
#include "core/parallel.hpp"
#include "kernels/body_kernels.hpp"
#include "kernels/particle_kernels.hpp"

namespace sim {

void integrate_positions(const Model& model, const Real* q0, const Real* u, Real h, Real* q_out) {
  const StateView start = state_view(model, q0, u);
  parallel_for(model.body_count, [&](int b) { integrate_body(start, h, b, q_out); });
  parallel_for(model.particle_count, [&](int p) { integrate_particle(start, h, p, q_out); });
}

void Configuration::assign(const Model& model, const Real* q) {
  body_pose.resize(model.body_count);
  particle_position.resize(model.particle_count);
  const StateView at = state_view(model, q, nullptr);
  parallel_for(model.body_count, [&](int b) { body_pose[b] = sim::body_pose(at, b); });
  parallel_for(model.particle_count, [&](int p) { particle_position[p] = at.particle_position(p); });
}

}  // namespace sim
