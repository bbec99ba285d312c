// Teleoperation in the workcell: commanded Cartesian velocities move the simulated gripper by
// the integrated displacement; the gripper command drives the fingers to their limits.
#include <catch2/catch.hpp>

#include "sim/scene_io.hpp"
#include "sim/teleoperation.hpp"
#include "support/scene_builders.hpp"

using sim::Real;
using sim::Vec3;

TEST_CASE("teleoperation moves the gripper by the commanded displacement", "[unit][ik][teleop]") {
  auto spec = sim::load_scene_file(std::string(COULOMB_SOURCE_DIR) + "/assets/scenes/workcell.xml");
  REQUIRE(spec.ok());
  const sim::Model model = test::compile(*spec);
  int palm = -1;
  std::vector<int> fingers;
  for (int b = 0; b < model.body_count; ++b)
    if (model.body_name[b] == "hand") palm = b;
  for (int j = 0; j < model.joint_count; ++j)
    if (model.joint_name[j].rfind("finger", 0) == 0) fingers.push_back(j);
  REQUIRE(fingers.size() == 2);
  sim::State state = sim::make_initial_state(model);
  sim::Control control = sim::make_initial_control(model);
  auto teleop = sim::TeleopController::create(model, state, palm, Vec3::Zero(), fingers);
  REQUIRE(teleop.ok());
  const Vec3 start = teleop->target().position;
  sim::Workspace ws;
  sim::TeleopCommand command;
  command.linear_velocity = Vec3(0.1, -0.05, -0.1);  // forward, right and down for 1 s
  command.gripper = 1;
  const int steps = static_cast<int>(1.0 / model.dt);
  for (int i = 0; i < steps; ++i) {
    teleop->update(model, state, &ws, command, model.dt, control);
    test::run_steps(model, state, control, ws, 1);
  }
  command = sim::TeleopCommand{};
  for (int i = 0; i < steps; ++i) {  // hold: let the drives settle
    teleop->update(model, state, &ws, command, model.dt, control);
    test::run_steps(model, state, control, ws, 1);
  }
  const Vec3 expected = start + Vec3(0.1, -0.05, -0.1) * (steps * model.dt);
  CHECK((teleop->target().position - expected).norm() < 1e-9);
  CHECK(teleop->last_solution().position_error < 1e-3);
  const Vec3 palm_now = (state.body_pose(palm) * model.body_frame_in_com[palm]).pos;
  INFO("hand " << palm_now.transpose() << " expected " << expected.transpose());
  CHECK((palm_now - expected).norm() < 1e-3);  // the weight is compensated: no sag
  CHECK(teleop->gripper_closed());
  for (int j : fingers) CHECK(control.joint_target[j] == Approx(model.joint_upper[j]));
}
