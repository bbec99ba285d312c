#include "gui/grab_spring.hpp"

#include <Eigen/LU>
#include <cmath>

namespace coulomb::gui {

namespace {

constexpr double kTwoPi = 6.283185307179586476925;

sim::Mat3 cross_matrix(const sim::Vec3& r) {
  sim::Mat3 m;
  m << 0, -r.z(), r.y(), r.z(), 0, -r.x(), -r.y(), r.x(), 0;
  return m;
}

sim::Vec3 particle_position(const sim::Model& model, const sim::State& state, int p) {
  const auto c = static_cast<std::size_t>(model.particle_coord(p));
  return sim::Vec3(state.q[c], state.q[c + 1], state.q[c + 2]);
}

sim::Vec3 particle_velocity(const sim::Model& model, const sim::State& state, int p) {
  const auto d = static_cast<std::size_t>(model.particle_dof(p));
  return sim::Vec3(state.u[d], state.u[d + 1], state.u[d + 2]);
}

bool valid(const sim::Model& model, const sim::State& state, const Grab& grab) {
  if (!grab.active()) return false;
  if (static_cast<int>(state.q.size()) != model.coord_count()) return false;
  if (grab.kind == Grab::Body) return grab.index < model.body_count && model.body_inv_mass[static_cast<std::size_t>(grab.index)] > 0;
  return grab.index < model.particle_count && model.particle_inv_mass[static_cast<std::size_t>(grab.index)] > 0;
}

}  // namespace

sim::Mat3 effective_mass_matrix(const sim::Model& model, const sim::State& state, int body, const sim::Vec3& world_point) {
  const auto b = static_cast<std::size_t>(body);
  if (body < 0 || body >= model.body_count || !(model.body_inv_mass[b] > 0)) return sim::Mat3::Zero();
  const sim::Mat3 rot = state.body_rotation(body).toRotationMatrix();
  const sim::Mat3 inv_inertia_world = rot * model.body_inv_inertia[b].asDiagonal() * rot.transpose();
  const sim::Mat3 rx = cross_matrix(world_point - state.body_position(body));
  const sim::Mat3 mobility = model.body_inv_mass[b] * sim::Mat3::Identity() + rx * inv_inertia_world * rx.transpose();
  return mobility.inverse();
}

sim::Vec3 grab_point(const sim::Model& model, const sim::State& state, const Grab& grab) {
  if (grab.kind == Grab::Body && grab.index >= 0 && grab.index < model.body_count)
    return state.body_pose(grab.index).apply(grab.local_point);
  if (grab.kind == Grab::Particle && grab.index >= 0 && grab.index < model.particle_count)
    return particle_position(model, state, grab.index);
  return grab.target;
}

GrabForce grab_force(const sim::Model& model, const sim::State& state, const Grab& grab) {
  GrabForce out;
  if (!valid(model, state, grab)) return out;
  const sim::Real omega = static_cast<sim::Real>(kTwoPi * grab.frequency_hz);
  sim::Mat3 m_eff;
  sim::Vec3 velocity;
  if (grab.kind == Grab::Body && grab.rotate) {
    const int b = grab.index;
    out.point = state.body_position(b);
    const sim::Quat r = state.body_rotation(b);
    const sim::Mat3 rot = r.toRotationMatrix();
    const sim::Vec3 inertia = model.body_inv_inertia[static_cast<std::size_t>(b)].cwiseInverse();
    const sim::Mat3 inertia_world = rot * inertia.asDiagonal() * rot.transpose();
    sim::Quat delta = grab.target_rotation * r.conjugate();
    if (delta.w() < 0) delta.coeffs() *= -1;  // the short way round
    const Eigen::AngleAxis<sim::Real> aa(delta.normalized());
    const sim::Vec3 theta = aa.angle() * aa.axis();
    out.torque = inertia_world * (omega * omega * theta - 2 * omega * state.body_angular_velocity(b));
    if (!out.torque.allFinite()) out.torque.setZero();
    return out;
  }
  if (grab.kind == Grab::Body) {
    out.point = grab_point(model, state, grab);
    m_eff = effective_mass_matrix(model, state, grab.index, out.point);
    const sim::Vec3 r = out.point - state.body_position(grab.index);
    velocity = state.body_velocity(grab.index) + state.body_angular_velocity(grab.index).cross(r);
  } else {
    out.point = particle_position(model, state, grab.index);
    m_eff = sim::Mat3::Identity() / model.particle_inv_mass[static_cast<std::size_t>(grab.index)];
    velocity = particle_velocity(model, state, grab.index);
  }
  const sim::Vec3 stretch = grab.target - out.point;
  out.force = m_eff * (omega * omega * stretch - 2 * omega * velocity);
  const sim::Real len = stretch.norm();
  const sim::Vec3 dir = len > sim::Real(1e-12) ? sim::Vec3(stretch / len) : sim::Vec3::UnitZ();
  out.effective_mass = dir.dot(m_eff * dir);
  if (!out.force.allFinite()) out.force.setZero();
  return out;
}

void apply_grab(const sim::Model& model, const sim::State& state, const Grab& grab, sim::Control& control) {
  if (!valid(model, state, grab)) return;
  const GrabForce f = grab_force(model, state, grab);
  if (grab.kind == Grab::Body) {
    if (static_cast<int>(control.body_wrench.size()) != model.body_count) return;
    sim::Vec6& w = control.body_wrench[static_cast<std::size_t>(grab.index)];
    w.head<3>() += f.force;
    w.tail<3>() += (f.point - state.body_position(grab.index)).cross(f.force) + f.torque;
  } else {
    if (static_cast<int>(control.particle_force.size()) != model.particle_count) return;
    control.particle_force[static_cast<std::size_t>(grab.index)] += f.force;
  }
}

}  // namespace coulomb::gui
