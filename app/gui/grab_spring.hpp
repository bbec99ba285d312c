// The viewport's Ctrl+drag perturbation: a spring from a point fixed in a body (or a particle) to
// a target point in the world, critically damped and scaled by the effective mass at the grab
// point, so every body answers the mouse alike whatever its mass (MuJoCo's perturbation, in spirit).
//
//   K = (1/m) I + [r]× I_w⁻¹ [r]×ᵀ      point mobility: velocity change per unit impulse at the point
//   M_eff = K⁻¹                         effective mass at the point (3×3; a particle: m I)
//   F = M_eff (ω² (x* − p) − 2 ω v_p)   spring k = M_eff ω², damping c = 2 M_eff ω (critical)
//
// with r the grab point relative to the centre of mass, p and v_p its world position and velocity,
// ω = 2π f (f = 5 Hz by default). The force acts at p: wrench (F, r × F) on the body.
//
// Ctrl+right drag turns a body instead (MuJoCo's rotational perturbation): an angular spring
// towards a target orientation R*, critically damped and scaled by the world inertia,
//
//   θ = log(R* Rᵀ)  (rotation vector, world)     τ = I_w (ω² θ − 2 ω ω_b)
//
// with no force (the centre of mass is left to the other forces).
// No Qt here.
#pragma once

#include "sim/model.hpp"
#include "sim/state.hpp"

namespace coulomb::gui {

struct Grab {
  enum Kind { None, Body, Particle };
  Kind kind = None;
  int index = -1;                          // body or particle
  sim::Vec3 local_point = sim::Vec3::Zero();  // bodies: grab point in the com frame [m]
  sim::Vec3 target = sim::Vec3::Zero();    // world [m]
  double frequency_hz = 5.0;               // spring frequency f (ω = 2π f)
  bool rotate = false;                     // bodies: the angular spring to target_rotation
  sim::Quat target_rotation = sim::Quat::Identity();  // world orientation of the com frame
  bool active() const { return kind != None && index >= 0; }
};

struct GrabForce {
  sim::Vec3 point = sim::Vec3::Zero();     // grab point, world [m]
  sim::Vec3 force = sim::Vec3::Zero();     // force on the body at the point, world [N]
  sim::Real effective_mass = 0;            // along the spring direction [kg]
  sim::Vec3 torque = sim::Vec3::Zero();    // rotational perturbation: torque on the body, world [N m]
};

// The effective mass matrix M_eff at a world point of a body (zero for fixed bodies).
sim::Mat3 effective_mass_matrix(const sim::Model& model, const sim::State& state, int body, const sim::Vec3& world_point);

// The spring force for the grab in the current state (zero when inactive or immovable).
GrabForce grab_force(const sim::Model& model, const sim::State& state, const Grab& grab);

// Adds the grab's wrench (bodies) or force (particles) to the control.
void apply_grab(const sim::Model& model, const sim::State& state, const Grab& grab, sim::Control& control);

// The grab point in world coordinates in the given state.
sim::Vec3 grab_point(const sim::Model& model, const sim::State& state, const Grab& grab);

}  // namespace coulomb::gui
