// One free rigid body held in its own arrays (no Model), stepped through the per-body kernels
// (kernels/body_kernels.hpp): the views are all a kernel needs. Shared by the kernel and
// gyroscopic-term tests.
#pragma once

#include <vector>

#include "kernels/body_kernels.hpp"
#include "kernels/views.hpp"
#include "sim/math.hpp"

namespace test {

struct FreeBody {
  sim::Real inv_mass;
  sim::Vec3 inertia, inv_inertia;
  std::vector<sim::Real> q, u;
  FreeBody(sim::Real mass, const sim::Vec3& principal, const sim::Quat& rot, const sim::Vec3& v, const sim::Vec3& w)
      : inv_mass(1 / mass), inertia(principal), inv_inertia(principal.cwiseInverse()),
        q{0, 0, 1, rot.w(), rot.x(), rot.y(), rot.z()}, u{v.x(), v.y(), v.z(), w.x(), w.y(), w.z()} {}
  sim::BodyView bodies() const { return sim::BodyView{&inv_mass, &inertia, &inv_inertia, 1}; }
  sim::StateView state() const { return sim::StateView{q.data(), u.data(), 1, 0}; }
  sim::Quat rotation() const { return sim::Quat(q[3], q[4], q[5], q[6]); }
  sim::Vec3 omega() const { return sim::Vec3(u[3], u[4], u[5]); }
  sim::Mat3 world_inertia() const {
    const sim::Mat3 R = rotation().toRotationMatrix();
    return R * inertia.asDiagonal() * R.transpose();
  }
  sim::Vec3 angular_momentum() const { return world_inertia() * omega(); }
  sim::Real rotational_energy() const { return sim::Real(0.5) * omega().dot(angular_momentum()); }
  // One unconstrained step through the kernels: ũ (eq. 46) is the new u, then q = q⁻ + h G u;
  // the gyroscopic term implicit (midpoint) or explicit (the paper's).
  void step(const sim::Vec3& gravity, sim::Real h, bool implicit_gyroscopic) {
    sim::Mat3 iw, iw_inv;
    sim::body_world_inertia(bodies(), state(), 0, sim::BodyInertiaView{&iw, &iw_inv});
    std::vector<sim::Real> ut(6);
    sim::predict_body_velocity(bodies(), state(), sim::LoadView{gravity, nullptr, nullptr, implicit_gyroscopic},
                               &iw, &iw_inv, h, 0, ut.data());
    u = ut;
    std::vector<sim::Real> next(7);
    sim::integrate_body(state(), h, 0, next.data());
    q = next;
  }
};

}  // namespace test
