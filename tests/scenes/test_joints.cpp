// Joints against closed forms: limits as unilateral rows, implicit PD drives (position and
// velocity targets, effort limits), prismatic sliders, and the compliant flexible beam.
#include <catch2/catch.hpp>

#include <cmath>

#include "constraint/joint_rows.hpp"
#include "core/kinematics.hpp"
#include "sim/scene_io.hpp"
#include "support/scene_builders.hpp"

using sim::Real;
using sim::Vec3;

namespace {

constexpr Real kG = 9.81;

Real joint_angle(const sim::Model& model, const sim::State& state, int joint) {
  sim::Configuration c;
  c.assign(model, state.q.data());
  return sim::joint_coordinate(model, joint, c).value;
}

// A 1 kg rod of length 2L along x, hinged at its left end to the world about y (pivot at the
// origin, z up): gravity torque m g L cos θ about the hinge.
sim::SceneSpec hinged_rod(Real L) {
  sim::SceneSpec spec;
  spec.dt = Real(1) / 240;
  spec.solver.newton_iterations = 8;
  spec.solver.linear_iterations = 30;
  test::add_body(spec, "rod", Vec3(L, 0, 0), 1.0, test::box_shape(Vec3(L, 0.02, 0.02)));
  sim::JointSpec j;
  j.type = sim::JointType::Revolute;
  j.body_a = -1;
  j.body_b = 0;
  j.frame_b.pos = Vec3(-L, 0, 0);
  j.axis = Vec3::UnitY();
  spec.joints.push_back(j);
  return spec;
}

}  // namespace

TEST_CASE("a revolute limit stops the falling rod at the limit", "[scene][solver][joint]") {
  sim::SceneSpec spec = hinged_rod(0.25);
  spec.joints[0].limited = true;
  spec.joints[0].lower = -0.3;
  spec.joints[0].upper = 0.3;
  const sim::Model model = test::compile(spec);
  sim::State state = sim::make_initial_state(model);
  sim::Workspace ws;
  Real extreme = 0;
  for (int i = 0; i < 480; ++i) {
    test::run_steps(model, state, sim::make_initial_control(model), ws, 1);
    extreme = std::max(extreme, std::abs(joint_angle(model, state, 0)));
  }
  // Rotating about +y by θ tips +x downwards: gravity drives θ to the upper limit.
  CHECK(joint_angle(model, state, 0) == Approx(0.3).margin(2e-3));
  CHECK(extreme < 0.3 + 5e-3);
  CHECK(ws.joint_force[0] > 0);
}

TEST_CASE("a PD position drive holds the rod where its torque balances gravity", "[scene][solver][joint][drive]") {
  const Real L = 0.25, kp = 50, target = -0.4;
  sim::SceneSpec spec = hinged_rod(L);
  spec.joints[0].drive = sim::DriveMode::Position;
  spec.joints[0].stiffness = kp;
  spec.joints[0].damping = 5;
  spec.joints[0].target = target;
  const sim::Model model = test::compile(spec);
  sim::State state = sim::make_initial_state(model);
  sim::Workspace ws;
  test::run_steps(model, state, sim::make_initial_control(model), ws, 1200);
  const Real theta = joint_angle(model, state, 0);
  // Equilibrium: kp (θ − θ*) = m g L cos θ (gravity pushes θ up, the drive pulls it back).
  INFO("theta " << theta);
  CHECK(kp * (theta - target) == Approx(1.0 * kG * L * std::cos(theta)).epsilon(0.01));
  CHECK(std::abs(state.body_angular_velocity(0).y()) < 1e-4);
}

TEST_CASE("an effort-limited velocity drive accelerates at tau_max / I, then holds the target", "[scene][solver][joint][drive]") {
  sim::SceneSpec spec;
  spec.dt = Real(1) / 240;
  spec.gravity = Vec3::Zero();
  const Real radius = 0.1, mass = 2.0;
  test::add_body(spec, "wheel", Vec3(0, 0, 1), mass, test::sphere_shape(radius));
  sim::JointSpec j;
  j.type = sim::JointType::Revolute;
  j.body_a = -1;
  j.body_b = 0;
  j.frame_a.pos = Vec3(0, 0, 1);
  j.axis = Vec3::UnitZ();
  j.drive = sim::DriveMode::Velocity;
  j.damping = 1e4;  // stiff velocity servo: the effort limit is what bounds it
  j.max_force = 0.2;
  j.target_velocity = 5;
  spec.joints.push_back(j);
  const sim::Model model = test::compile(spec);
  sim::State state = sim::make_initial_state(model);
  sim::Workspace ws;
  const sim::Control control = sim::make_initial_control(model);
  const Real inertia = 0.4 * mass * radius * radius;  // 0.008 kg m²: 25 rad/s² at 0.2 N m
  test::run_steps(model, state, control, ws, 24);     // 0.1 s, still accelerating
  CHECK(state.body_angular_velocity(0).z() == Approx(0.2 / inertia * 0.1).epsilon(0.02));
  CHECK(ws.joint_force[0] > 0);
  test::run_steps(model, state, control, ws, 240);    // 1.1 s: the target is reached
  CHECK(state.body_angular_velocity(0).z() == Approx(5).epsilon(1e-3));
}

TEST_CASE("a prismatic slider falls freely along its axis and stops at its limit", "[scene][solver][joint]") {
  sim::SceneSpec spec;
  spec.dt = Real(1) / 240;
  test::add_body(spec, "slider", Vec3(0.3, 0.2, 2), 1.5, test::box_shape(Vec3(0.05, 0.05, 0.05)));
  spec.bodies[0].linear_velocity = Vec3(1, 0, 0);  // pushes sideways: the joint must cancel it
  sim::JointSpec j;
  j.type = sim::JointType::Prismatic;
  j.body_a = -1;
  j.body_b = 0;
  j.frame_a.pos = Vec3(0.3, 0.2, 2);
  j.axis = Vec3::UnitZ();
  j.limited = true;
  j.lower = -0.5;
  j.upper = 1;
  spec.joints.push_back(j);
  const sim::Model model = test::compile(spec);
  sim::State state = sim::make_initial_state(model);
  sim::Workspace ws;
  const sim::Control control = sim::make_initial_control(model);
  test::run_steps(model, state, control, ws, 60);  // 0.25 s: free fall along z
  CHECK(state.body_velocity(0).z() == Approx(-kG * 0.25).epsilon(0.01));
  CHECK(std::abs(state.body_position(0).x() - 0.3) < 1e-4);
  CHECK(std::abs(state.body_position(0).y() - 0.2) < 1e-4);
  test::run_steps(model, state, control, ws, 480);
  CHECK(joint_angle(model, state, 0) == Approx(-0.5).margin(1e-3));
  CHECK(state.body_position(0).z() == Approx(1.5).margin(1e-3));
}

TEST_CASE("the flexible beam deflects as its 250 N m hinges predict", "[scene][solver][joint][beam]") {
  auto spec = sim::load_scene_file(std::string(COULOMB_SOURCE_DIR) + "/assets/scenes/flexible_beam.xml");
  REQUIRE(spec.ok());
  const sim::Model model = test::compile(*spec);
  sim::State state = sim::make_initial_state(model);
  const sim::State initial = state;
  sim::Workspace ws;
  test::run_steps(model, state, sim::make_initial_control(model), ws, 600);
  // Discrete cantilever: joint j at x_j carries the moment of every body beyond it,
  // M_j = Σ_{b >= j} m g (x_b − x_j); it turns by θ_j = M_j / k; the last body drops
  // δ = Σ_j θ_j (x_last − x_j) (small angles).
  const int n = model.body_count;
  const Real k = 250;
  const Real m = 1 / model.body_inv_mass[0];
  std::vector<Real> x_body(n), x_joint(n);
  for (int b = 0; b < n; ++b) x_body[b] = initial.body_position(b).x();
  for (int j = 0; j < model.joint_count; ++j) {
    const int b = model.joint_body_b[j];
    x_joint[b] = (initial.body_pose(b) * model.joint_frame_b[j]).pos.x();
  }
  Real deflection = 0;
  for (int j = 0; j < n; ++j) {
    Real moment = 0;
    for (int b = j; b < n; ++b) moment += m * kG * (x_body[b] - x_joint[j]);
    deflection += moment / k * (x_body[n - 1] - x_joint[j]);
  }
  const Real drop = initial.body_position(n - 1).z() - state.body_position(n - 1).z();
  INFO("drop " << drop << " m, expected " << deflection << " m");
  CHECK(drop == Approx(deflection).epsilon(0.02));
}
