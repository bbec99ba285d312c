// The grasping oracle (issue: objects creeping out of grippers): a force-limited parallel
// gripper holds a 0.2 kg cube without slip when 2 μ F exceeds m g, and loses it below
// μ = m g / (2 F); and the mechanical scale reads a placed mass.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>

#include "constraint/joint_rows.hpp"
#include "core/kinematics.hpp"
#include "sim/scene_io.hpp"
#include "support/scene_builders.hpp"
#include "support/model_names.hpp"

using sim::Real;

namespace {

struct GraspRun {
  Real lifted = 0;  // cube height gain after the lift [m]
  Real slip = 0;    // change of the cube's height relative to the palm during the 5 s hold [m]
};

// Close (0.5 s), lift 10 cm (1 s), hold (5 s).
GraspRun scripted_grasp(Real finger_friction) {
  auto spec = sim::load_scene_file(std::string(COULOMB_SOURCE_DIR) + "/assets/scenes/grasp.xml");
  REQUIRE(spec.ok());
  for (sim::MaterialSpec& m : spec->materials)
    if (m.name == "rubber" || m.name == "object") m.friction = finger_friction;
  const sim::Model model = test::compile(*spec);
  const int cube = test::body_index(model, "cube"), palm = test::body_index(model, "palm");
  const int lift = test::joint_index(model, "lift");
  sim::State state = sim::make_initial_state(model);
  sim::Control control = sim::make_initial_control(model);
  control.joint_target[test::joint_index(model, "finger_left")] = 0.045;
  control.joint_target[test::joint_index(model, "finger_right")] = 0.045;
  sim::Workspace ws;
  const Real dt = model.dt;
  const Real z0 = state.body_position(cube).z();
  test::run_steps(model, state, control, ws, static_cast<int>(0.5 / dt));
  const int lift_steps = static_cast<int>(1.0 / dt);
  for (int i = 1; i <= lift_steps; ++i) {
    control.joint_target[lift] = 0.1 * i / lift_steps;
    test::run_steps(model, state, control, ws, 1);
  }
  test::run_steps(model, state, control, ws, static_cast<int>(0.5 / dt));  // settle the lift
  GraspRun out;
  out.lifted = state.body_position(cube).z() - z0;
  const Real rel0 = state.body_position(cube).z() - state.body_position(palm).z();
  test::run_steps(model, state, control, ws, static_cast<int>(5.0 / dt));
  out.slip = std::abs(state.body_position(cube).z() - state.body_position(palm).z() - rel0);
  return out;
}

}  // namespace

TEST_CASE("the gripper lifts a 0.2 kg cube 10 cm and holds it 5 s without slip at mu 0.8", "[scene][grasp]") {
  const GraspRun r = scripted_grasp(0.8);
  INFO("lifted " << r.lifted << " m, slip " << r.slip << " m");
  CHECK(r.lifted > 0.09);
  CHECK(r.slip < 1e-3);
}

TEST_CASE("below mu = m g / (2 F) the cube slips out of the gripper", "[scene][grasp]") {
  const GraspRun r = scripted_grasp(0.15);  // 2 μ F = 1.5 N < m g = 1.96 N
  INFO("lifted " << r.lifted << " m, slip " << r.slip << " m");
  CHECK(r.lifted < 0.05);
}

namespace {

// Needle angle after 3 s on the scale, with or without the 1 kg load (and a load mass override).
Real needle_angle(bool with_load, Real load_mass) {
  auto spec = sim::load_scene_file(std::string(COULOMB_SOURCE_DIR) + "/assets/scenes/scale.xml");
  REQUIRE(spec.ok());
  auto load = std::find_if(spec->bodies.begin(), spec->bodies.end(), [](const sim::BodySpec& b) { return b.name == "load"; });
  REQUIRE(load != spec->bodies.end());
  if (with_load) load->mass = load_mass;
  else spec->bodies.erase(load);  // the load is the last body: no index shifts
  const sim::Model model = test::compile(*spec);
  sim::State state = sim::make_initial_state(model);
  sim::Workspace ws;
  test::run_steps(model, state, sim::make_initial_control(model), ws, static_cast<int>(3.0 / model.dt));
  sim::Configuration c;
  c.assign(model, state.q.data());
  return sim::joint_coordinate(model, test::joint_index(model, "needle_pivot"), c).value;
}

}  // namespace

TEST_CASE("the mechanical scale reads a placed mass within 2%", "[scene][scale]") {
  const Real k = 500, r = 0.1, g = 9.81;
  const Real empty = needle_angle(false, 0);
  for (Real mass : {0.5, 1.0, 1.5}) {
    const Real loaded = needle_angle(true, mass);
    const Real reading = k * r * std::abs(std::sin(empty) - std::sin(loaded)) / g;
    INFO("mass " << mass << " kg: needle " << empty << " -> " << loaded << " rad, reads " << reading << " kg");
    CHECK(reading == Approx(mass).epsilon(0.02));
  }
}
