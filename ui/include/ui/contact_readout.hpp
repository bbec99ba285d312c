// One contact's numbers for the Contact panel (issue 15 item 2): clicking a contact in the
// viewport shows its gap, normal, normal force, friction force, μ (both axes when anisotropic)
// and slip velocity, from the last step's contacts and forces (Workspace) at the state after it.
// contact_readout is pure (no ImGui) and tested against closed forms; contact_panel draws it.
#pragma once

#include <string>

#include "sim/contact.hpp"
#include "sim/model.hpp"
#include "sim/state.hpp"
#include "sim/step.hpp"

namespace ui {

struct ContactReadout {
  int contact = -1;              // index into Workspace::contacts (-1: none)
  std::string side_a, side_b;    // "body 'box'", "world", "particle 3", "cloth face 7"
  sim::Vec3 point_a = sim::Vec3::Zero(), point_b = sim::Vec3::Zero();  // the sides' points, world [m]
  sim::Vec3 normal = sim::Vec3::UnitZ();  // unit, from b towards a
  double gap = 0;                // C_n = n·(p_a − p_b) − d at the state (negative: penetration) [m]
  double initial_gap = 0;        // C_n at the step's start [m]
  double normal_force = 0;       // λ_n [N]
  sim::Vec3 friction_force = sim::Vec3::Zero();  // λ_f1 d1 + λ_f2 d2, world [N]
  double friction_magnitude = 0; // [N]
  double mu = 0, mu_bitangent = 0;  // along tangent1 and tangent2 (equal when isotropic)
  bool anisotropic = false;
  // The friction frame (tangent1: the grain's axis, of μ, when anisotropic; tangent2 = n × t1, of
  // μ_b) and the friction force and slip in it: the cone's section the panel draws.
  sim::Vec3 tangent1 = sim::Vec3::UnitX(), tangent2 = sim::Vec3::UnitY();
  sim::Vec2 friction_tangent = sim::Vec2::Zero();  // (f1, f2) [N]
  sim::Vec2 slip_tangent = sim::Vec2::Zero();      // (v1, v2) [m/s]
  sim::Vec3 slip_velocity = sim::Vec3::Zero();  // a's point relative to b's, tangential part [m/s]
  double slip_speed = 0;         // [m/s]
  double cone_ratio = 0;         // the friction force against the cone's bound: 1 at the cone (sliding)
};

// The world point of one side of a contact at `state` (a body's point in its com frame moved with
// it; a particle's centre less its radius along `outward`; a cloth face's weighted corners).
sim::Vec3 contact_side_point(const sim::Model& model, const sim::State& state, const sim::ContactSide& side,
                             const sim::Vec3& outward);
// The velocity of that point at `state` (v + ω × r for bodies; the weighted corners' velocity).
sim::Vec3 contact_side_velocity(const sim::Model& model, const sim::State& state, const sim::ContactSide& side,
                                const sim::Vec3& point);
std::string contact_side_name(const sim::Model& model, const sim::ContactSide& side);

// Where a contact's friction force (f1, f2 along tangent1, tangent2) is in its cone: the
// elliptic bound |(f1/μ_t, f2/μ_b)| against λ_n (eq. 34; μ_b = μ_t when isotropic): 1 on the
// cone; 0 without load or friction. Above kSlidingConeRatio the contact is sliding.
double friction_cone_ratio(const sim::Contact& contact, double normal_force, const sim::Vec2& friction_force);
inline constexpr double kSlidingConeRatio = 0.99;

// Contact `contact` of `workspace` (the step that led to `state`); contact -1 when out of range.
ContactReadout contact_readout(const sim::Model& model, const sim::State& state, const sim::Workspace& workspace,
                               int contact);

// The "Contact" panel. Returns false when its close button was pressed.
bool contact_panel(const ContactReadout& readout);

}  // namespace ui
