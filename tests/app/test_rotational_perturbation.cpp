// The Ctrl+right-drag rotational perturbation (app/gui/grab_spring.hpp): an angular spring
// τ = I_w (ω² θ − 2 ω ω_b) towards a target orientation, critically damped and scaled by the
// world inertia: at rest it starts with τ = I_w ω² θ, it turns a free body onto the target
// without overshoot (critical damping), and it pushes the centre of mass nowhere.
#include <catch2/catch.hpp>

#include <cmath>

#include "gui/grab_spring.hpp"
#include "sim/compile.hpp"
#include "sim/scene_io.hpp"
#include "sim/step.hpp"

using namespace coulomb::gui;

TEST_CASE("the rotational perturbation turns a body onto its target, critically damped", "[app][interaction]") {
  // A free brick in zero gravity with three different principal moments.
  auto spec = sim::parse_scene_xml(R"(<scene name="brick" dt="0.002" gravity="0 0 0">
      <body name="brick" pos="0 0 1" euler="0 0 0" mass="2"><box size="0.4 0.2 0.1"/></body>
    </scene>)",
                                   "brick.xml");
  REQUIRE(spec.ok());
  auto compiled = sim::compile_model(spec.value());
  REQUIRE(compiled.ok());
  const sim::Model& model = compiled.value();
  sim::State state = sim::make_initial_state(model);
  const sim::Control rest = sim::make_initial_control(model);

  Grab grab;
  grab.kind = Grab::Body;
  grab.index = 0;
  grab.rotate = true;
  grab.frequency_hz = 2.0;
  const sim::Vec3 axis = sim::Vec3(1, 2, 3).normalized();
  const sim::Real angle = 0.6;
  grab.target_rotation = sim::Quat(Eigen::AngleAxis<sim::Real>(angle, axis)) * state.body_rotation(0);

  // At rest: τ = I_w ω² θ exactly (world inertia of the com frame).
  const GrabForce f0 = grab_force(model, state, grab);
  const sim::Real omega = sim::Real(2 * M_PI * grab.frequency_hz);
  const sim::Mat3 rot = state.body_rotation(0).toRotationMatrix();
  const sim::Mat3 inertia = rot * model.body_inertia[0].asDiagonal() * rot.transpose();
  const sim::Vec3 expected = inertia * (omega * omega * angle * axis);
  CHECK((f0.torque - expected).norm() < 1e-9 * expected.norm());
  CHECK(f0.force.norm() == 0);

  // Released into the simulation: the angle to the target falls without crossing zero by more
  // than round-off, to under 1 % after 1.5 s (critically damped: e^{-ωt}(1 + ωt) = 2.6e-7).
  sim::Workspace ws;
  sim::Control control = rest;
  sim::Real previous = angle, max_rise = 0;
  const sim::Vec3 start = state.body_position(0);
  for (int i = 0; i < 750; ++i) {
    control.body_wrench.assign(1, sim::Vec6::Zero());
    apply_grab(model, state, grab, control);
    REQUIRE(sim::step(model, model.solver, state, control, ws).ok());
    const sim::Real now = sim::Real(Eigen::AngleAxis<sim::Real>(grab.target_rotation * state.body_rotation(0).conjugate()).angle());
    max_rise = std::max(max_rise, now - previous);
    previous = now;
  }
  CHECK(previous < 0.01 * angle);
  CHECK(max_rise < 1e-3);  // monotone approach, no overshoot swing
  CHECK((state.body_position(0) - start).norm() < 1e-9);
}
