// Damped-least-squares IK: reachable targets (made by forward kinematics from random joint
// coordinates) are reached within 1 mm; driving the solution through PD drives brings the
// simulated end effector there too.
#include <catch2/catch.hpp>

#include <random>

#include "sim/inverse_kinematics.hpp"
#include "sim/scene_io.hpp"
#include "support/scene_builders.hpp"

using sim::Real;
using sim::Vec3;

namespace {

// A 4-dof arm on a fixed base: yaw about z, then shoulder, elbow and wrist about y; 0.3 m links.
sim::SceneSpec arm(bool drives) {
  sim::SceneSpec spec;
  spec.dt = Real(1) / 240;
  spec.gravity = Vec3::Zero();
  spec.solver.newton_iterations = 8;
  spec.solver.linear_iterations = 40;
  const Vec3 axes[4] = {Vec3::UnitZ(), Vec3::UnitY(), Vec3::UnitY(), Vec3::UnitY()};
  Vec3 joint_pos(0, 0, 0.5);
  for (int i = 0; i < 4; ++i) {
    const Vec3 centre = joint_pos + Vec3(0, 0, 0.15);
    test::add_body(spec, "link" + std::to_string(i), centre, 1.0, test::box_shape(Vec3(0.03, 0.03, 0.15)));
    sim::JointSpec j;
    j.name = "j" + std::to_string(i);
    j.type = sim::JointType::Revolute;
    j.body_a = i - 1;
    j.body_b = i;
    j.frame_a.pos = i == 0 ? joint_pos : Vec3(0, 0, 0.15);
    j.frame_b.pos = Vec3(0, 0, -0.15);
    j.axis = axes[i];
    j.limited = true;
    j.lower = -2.5;
    j.upper = 2.5;
    if (drives) {
      j.drive = sim::DriveMode::Position;
      j.stiffness = 400;
      j.damping = 40;
    }
    spec.joints.push_back(j);
    joint_pos += Vec3(0, 0, 0.3);
  }
  return spec;
}

}  // namespace

TEST_CASE("IK reaches reachable targets within 1 mm", "[unit][ik]") {
  const sim::Model model = test::compile(arm(false));
  const sim::State state = sim::make_initial_state(model);
  const std::vector<int> chain = sim::joint_chain(model, 3);
  REQUIRE(chain == std::vector<int>{0, 1, 2, 3});
  std::mt19937 rng(5);
  std::uniform_real_distribution<Real> angle(-1.2, 1.2);
  for (int trial = 0; trial < 20; ++trial) {
    std::vector<Real> q(4);
    for (Real& v : q) v = angle(rng);
    const Vec3 tip(0, 0, 0.15);
    const Vec3 goal = sim::forward_kinematics(model, state, chain, q, 3).apply(tip);
    sim::IkTarget target;
    target.body = 3;
    target.point = tip;
    target.position = goal;
    auto r = sim::solve_ik(model, state, target);
    REQUIRE(r.ok());
    INFO("trial " << trial << " error " << r->position_error);
    CHECK(r->position_error < 1e-3);
    const Vec3 reached = sim::forward_kinematics(model, state, chain, r->positions, 3).apply(tip);
    CHECK((reached - goal).norm() < 1e-3);
  }
  // Zero configuration: forward kinematics reproduces the authored poses.
  const sim::Pose rest = sim::forward_kinematics(model, state, chain, {0, 0, 0, 0}, 3);
  CHECK((rest.pos - state.body_position(3)).norm() < 1e-12);
}

TEST_CASE("the IK solution as drive targets brings the simulated arm to the target", "[unit][ik][drive]") {
  const sim::Model model = test::compile(arm(true));
  sim::State state = sim::make_initial_state(model);
  const std::vector<int> chain = sim::joint_chain(model, 3);
  const Vec3 tip(0, 0, 0.15);
  const Vec3 goal = sim::forward_kinematics(model, state, chain, {0.6, 0.7, -0.9, 0.5}, 3).apply(tip);
  sim::IkTarget target;
  target.body = 3;
  target.point = tip;
  target.position = goal;
  auto r = sim::solve_ik(model, state, target);
  REQUIRE(r.ok());
  sim::Control control = sim::make_initial_control(model);
  for (std::size_t k = 0; k < r->joints.size(); ++k) control.joint_target[r->joints[k]] = r->positions[k];
  sim::Workspace ws;
  test::run_steps(model, state, control, ws, 720);  // 3 s
  const Vec3 reached = (state.body_pose(3) * model.body_frame_in_com[3]).apply(tip);
  INFO("distance " << (reached - goal).norm());
  CHECK((reached - goal).norm() < 1e-3);
}

TEST_CASE("IK reports bodies without a chain", "[unit][ik]") {
  sim::SceneSpec spec;
  test::add_body(spec, "free", Vec3(0, 0, 1), 1.0, test::box_shape(Vec3(0.1, 0.1, 0.1)));
  const sim::Model model = test::compile(spec);
  sim::IkTarget t;
  t.body = 0;
  auto r = sim::solve_ik(model, sim::make_initial_state(model), t);
  REQUIRE_FALSE(r.ok());
  CHECK(r.error().find("free") != std::string::npos);
}

TEST_CASE("teleoperation in the workcell: IK drive targets carry the gripper above the box", "[unit][ik][workcell]") {
  auto spec = sim::load_scene_file(std::string(COULOMB_SOURCE_DIR) + "/assets/scenes/workcell.xml");
  REQUIRE(spec.ok());
  const sim::Model model = test::compile(*spec);
  int palm = -1, box = -1;
  for (int b = 0; b < model.body_count; ++b) {
    if (model.body_name[b] == "hand") palm = b;
    if (model.body_name[b] == "box") box = b;
  }
  REQUIRE(palm >= 0);
  REQUIRE(box >= 0);
  sim::State state = sim::make_initial_state(model);
  sim::IkTarget target;
  target.body = palm;
  target.position = state.body_position(box) + Vec3(0, 0, 0.15);  // hand 15 cm above the box
  // Fingers down (the hand's authored orientation), turned 30° about the vertical and tilted 10°.
  target.orientation = sim::Quat(Eigen::AngleAxis<Real>(0.5, Vec3::UnitZ()) * Eigen::AngleAxis<Real>(0.17, Vec3::UnitY()));
  target.use_orientation = true;
  auto r = sim::solve_ik(model, state, target);
  REQUIRE(r.ok());
  CHECK(r->joints.size() == 6);  // base, shoulder, elbow, wrist roll, pitch, tool roll
  INFO("IK error " << r->position_error << " m, " << r->orientation_error << " rad");
  CHECK(r->position_error < 1e-3);
  CHECK(r->orientation_error < 1e-2);
  sim::Control control = sim::make_initial_control(model);
  for (std::size_t k = 0; k < r->joints.size(); ++k) control.joint_target[r->joints[k]] = r->positions[k];
  sim::Workspace ws;
  test::run_steps(model, state, control, ws, static_cast<int>(3.0 / model.dt));
  const Vec3 reached = (state.body_pose(palm) * model.body_frame_in_com[palm]).pos;
  INFO("simulated palm is " << (reached - target.position).norm() << " m from the target");
  CHECK((reached - target.position).norm() < 2e-2);  // PD drives without gravity compensation sag
}
