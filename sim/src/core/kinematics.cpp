#include "core/kinematics.hpp"

#include "core/parallel.hpp"

namespace sim {

void integrate_positions(const Model& model, const Real* q0, const Real* u, Real h, Real* q_out) {
  parallel_for(model.body_count, [&](int b) {
    const Real* c0 = q0 + 7 * b;
    const Real* v = u + 6 * b;
    Real* c = q_out + 7 * b;
    for (int k = 0; k < 3; ++k) c[k] = c0[k] + h * v[k];
    // θ̇ = ½ [0, ω] ⊗ θ (ω in world frame, scalar first), eqs. 88-89.
    const Quat th(c0[3], c0[4], c0[5], c0[6]);
    const Quat w(Real(0), v[3], v[4], v[5]);
    Quat dq = w * th;
    Quat next(th.w() + Real(0.5) * h * dq.w(), th.x() + Real(0.5) * h * dq.x(),
              th.y() + Real(0.5) * h * dq.y(), th.z() + Real(0.5) * h * dq.z());
    next.normalize();
    c[3] = next.w(); c[4] = next.x(); c[5] = next.y(); c[6] = next.z();
  });
  const int first_particle = 7 * model.body_count;
  const int pdof = 6 * model.body_count;
  for (int p = 0; p < model.particle_count; ++p)
    for (int k = 0; k < 3; ++k)
      q_out[first_particle + 3 * p + k] = q0[first_particle + 3 * p + k] + h * u[pdof + 3 * p + k];
}

void Configuration::assign(const Model& model, const Real* q) {
  body_pose.resize(model.body_count);
  particle_position.resize(model.particle_count);
  for (int b = 0; b < model.body_count; ++b) {
    const Real* c = q + 7 * b;
    body_pose[b] = Pose{Vec3(c[0], c[1], c[2]), Quat(c[3], c[4], c[5], c[6])};
  }
  const Real* pq = q + 7 * model.body_count;
  for (int p = 0; p < model.particle_count; ++p)
    particle_position[p] = Vec3(pq[3 * p], pq[3 * p + 1], pq[3 * p + 2]);
}

}  // namespace sim
