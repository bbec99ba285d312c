// Teleoperation in the desktop app, without Qt: the default end effector and gripper of the
// workcell, the session on the simulation thread moving the gripper by the commanded
// displacement, the gripper closing, the keyboard and gamepad mappings (dead zone), and the
// target gizmo's picking and drag geometry against the camera's own scale.
#include <catch2/catch.hpp>

#include <cmath>
#include <memory>

#include "app/sim_runner_support.hpp"
#include "gui/target_gizmo.hpp"
#include "gui/teleop_input.hpp"
#include "gui/teleop_session.hpp"
#include "sim/compile.hpp"
#include "sim/contact_forces.hpp"
#include "sim/inverse_kinematics.hpp"
#include "sim/recording.hpp"
#include "sim/scene_io.hpp"
#include "support/model_names.hpp"
#include "support/scoped_resources.hpp"

using namespace coulomb::gui;
using namespace runner_test;
using sim::Vec3;

namespace {

constexpr double kPi = 3.14159265358979323846;

// Waits until the runner has applied every request sent so far (a publish after them).
void settle_requests(SimRunner& runner) {
  const std::uint64_t seen = runner.published_count();
  runner.single_step(0);
  REQUIRE(wait_for(runner, [&](const Snapshot& s) { return s.sequence > seen; }));
}

// Where the default setup's driven point is at t = 0.
Vec3 start_point(const sim::Model& m) {
  const TeleopSetup setup = default_teleop_setup(m);
  const auto b = static_cast<std::size_t>(setup.end_effector);
  return (m.body_initial_pose[b] * m.body_frame_in_com[b]).apply(setup.point);
}

double finger_position(const Snapshot& s, int j) { return sim::chain_positions(*s.model, s.state, {j}).front(); }

}  // namespace

TEST_CASE("the workcell's default teleoperation setup: the hand, between the fingers, both fingers", "[teleop]") {
  const Loaded scene = load("workcell");
  const sim::Model& m = *scene.model;
  const TeleopSetup setup = default_teleop_setup(m);
  REQUIRE(setup.valid());
  CHECK(setup.end_effector == test::body_index(m, "hand"));
  CHECK(setup.gripper_joints == std::vector<int>{test::joint_index(m, "finger_left"), test::joint_index(m, "finger_right")});
  // The fingers' frames are 4 cm below the hand's, on either side of its centre.
  CHECK((setup.point - Vec3(0, 0, -0.04)).norm() < 1e-9);
  CHECK(gripper_finger_bodies(m, setup.gripper_joints) == std::vector<int>{test::body_index(m, "finger_left"), test::body_index(m, "finger_right")});

  // Another body of the arm: driven at its origin, the gripper kept; a finger loses its own joint.
  const TeleopSetup forearm = teleop_setup_for_body(m, test::body_index(m, "forearm"));
  CHECK(forearm.end_effector == test::body_index(m, "forearm"));
  CHECK(forearm.point == Vec3::Zero());
  CHECK(forearm.gripper_joints.size() == 2);
  const TeleopSetup finger = teleop_setup_for_body(m, test::body_index(m, "finger_left"));
  CHECK(finger.gripper_joints == std::vector<int>{test::joint_index(m, "finger_right")});
  // Free bodies and a scene without a robot have nothing to drive.
  CHECK_FALSE(teleop_setup_for_body(m, test::body_index(m, "box")).valid());
  CHECK_FALSE(default_teleop_setup(*load("incline").model).valid());
}

TEST_CASE("teleoperation through the simulation thread moves the gripper by the commanded displacement", "[teleop]") {
  const Loaded scene = load("workcell");
  const sim::Model& m = *scene.model;
  SimRunner runner;
  runner.load(scene.spec, scene.model);
  runner.set_teleop(default_teleop_setup(m));
  settle_requests(runner);
  const TeleopStatus start = runner.latest().teleop;
  REQUIRE(start.active);
  CHECK(start.end_effector == test::body_index(m, "hand"));
  CHECK((start.target_position - start.effector_position).norm() < 1e-9);  // starts where the gripper is
  CHECK(start.orientation_tracked);  // 6 arm joints: position and orientation

  // 0.1 m/s forward, 0.05 m/s left and 0.1 m/s down for 0.5 s of simulated time, then hold 1 s.
  const Vec3 velocity(0.1, 0.05, -0.1);
  const int moving = static_cast<int>(std::lround(0.5 / m.dt));
  sim::TeleopCommand command;
  command.linear_velocity = velocity;
  runner.set_teleop_command(command);
  run_steps(runner, moving);
  runner.set_teleop_command(sim::TeleopCommand{});
  run_steps(runner, static_cast<int>(std::lround(1.0 / m.dt)));

  const TeleopStatus& end = runner.latest().teleop;
  const Vec3 expected = start.target_position + velocity * (moving * m.dt);
  INFO("target " << end.target_position.transpose() << " expected " << expected.transpose() << " effector "
                 << end.effector_position.transpose() << " IK error " << end.ik_position_error);
  CHECK((end.target_position - expected).norm() < 1e-9);   // the target integrates the command exactly
  CHECK(end.ik_position_error < 1e-3);                      // IK reaches it
  CHECK((end.effector_position - expected).norm() < 1e-3);  // and the drives have taken the gripper there

  CHECK(end.tracking_error < 1e-3);                         // the real tracking error says so

  // A jump of the target (the gizmo) is approached at the approach speed (0.15 m/s) and reached.
  const Vec3 jumped = expected + Vec3(-0.05, -0.05, 0.04);
  runner.set_teleop_target(jumped, end.target_orientation);
  run_steps(runner, 10);
  CHECK(runner.latest().teleop.moving_to_goal);
  CHECK((runner.latest().teleop.target_position - jumped).norm() > 0.05);  // not a jump
  run_steps(runner, static_cast<int>(std::lround(1.5 / m.dt)));
  CHECK_FALSE(runner.latest().teleop.moving_to_goal);
  CHECK((runner.latest().teleop.effector_position - jumped).norm() < 1e-3);
}

TEST_CASE("the teleoperated gripper closes its fingers towards their upper limits and reads their contact forces",
          "[teleop]") {
  const Loaded scene = load("workcell");
  const sim::Model& m = *scene.model;
  SimRunner runner;
  runner.load(scene.spec, scene.model);
  runner.set_teleop(default_teleop_setup(m));
  run_steps(runner, 10);
  const int left = test::joint_index(m, "finger_left"), right = test::joint_index(m, "finger_right");
  const double open_left = finger_position(runner.latest(), left), open_right = finger_position(runner.latest(), right);
  CHECK_FALSE(runner.latest().teleop.gripper_closed);
  CHECK(open_left == Approx(m.joint_lower[left]).margin(1e-3));

  runner.toggle_teleop_gripper();
  settle_requests(runner);
  CHECK(runner.latest().teleop.gripper_closed);
  run_steps(runner, static_cast<int>(std::lround(1.0 / m.dt)));
  const Snapshot& closed = runner.latest();
  const double closed_left = finger_position(closed, left), closed_right = finger_position(closed, right);
  INFO("fingers " << open_left << ", " << open_right << " -> " << closed_left << ", " << closed_right);
  // Both moved most of the way to their upper limits (0.045 m), by the same amount.
  CHECK(closed_left > open_left + 0.8 * (m.joint_upper[left] - open_left));
  CHECK(closed_right > open_right + 0.8 * (m.joint_upper[right] - open_right));
  CHECK(closed_left == Approx(closed_right).margin(1e-3));
  // The fingers the contact force read-out watches are the gripper's.
  CHECK(closed.teleop.finger_bodies == std::vector<int>{test::body_index(m, "finger_left"), test::body_index(m, "finger_right")});

  // Toggling again opens them.
  runner.toggle_teleop_gripper();
  run_steps(runner, static_cast<int>(std::lround(1.0 / m.dt)));
  CHECK_FALSE(runner.latest().teleop.gripper_closed);
  CHECK(finger_position(runner.latest(), left) < open_left + 0.2 * (m.joint_upper[left] - open_left));

  // Reset restarts the session from the initial pose; stopping ends it.
  runner.reset();
  settle_requests(runner);
  CHECK(runner.latest().teleop.active);
  CHECK((runner.latest().teleop.target_position - start_point(m)).norm() < 1e-9);
  runner.set_teleop(TeleopSetup{});
  settle_requests(runner);
  CHECK_FALSE(runner.latest().teleop.active);
}

TEST_CASE("held keys and gamepad axes map to velocity commands, with a dead zone", "[teleop]") {
  const TeleopSpeeds speeds{0.2, 0.8};
  HeldKeys keys{};
  CHECK(keys_command(keys, speeds).linear_velocity == Vec3::Zero());
  keys[static_cast<std::size_t>(TeleopKey::XPlus)] = true;
  keys[static_cast<std::size_t>(TeleopKey::ZMinus)] = true;
  keys[static_cast<std::size_t>(TeleopKey::YawPlus)] = true;
  sim::TeleopCommand c = keys_command(keys, speeds);
  CHECK(c.linear_velocity == Vec3(0.2, 0, -0.2));
  CHECK(c.angular_velocity == Vec3(0, 0, 0.8));
  keys[static_cast<std::size_t>(TeleopKey::XMinus)] = true;  // opposite keys cancel
  CHECK(keys_command(keys, speeds).linear_velocity.x() == 0);

  // Dead zone 0.15: nothing inside, linear from its edge to full deflection, sign kept.
  CHECK(apply_dead_zone(0.1, 0.15) == 0);
  CHECK(apply_dead_zone(-0.15, 0.15) == 0);
  CHECK(apply_dead_zone(1.0, 0.15) == Approx(1.0));
  CHECK(apply_dead_zone(-1.0, 0.15) == Approx(-1.0));
  CHECK(apply_dead_zone(0.575, 0.15) == Approx(0.5));
  CHECK(apply_dead_zone(-0.575, 0.15) == Approx(-0.5));
  CHECK(apply_dead_zone(3.0, 0.15) == Approx(1.0));  // out-of-range readings clamp

  GamepadState pad;
  pad.left_x = 0.05;   // resting stick noise
  pad.left_y = -0.1;
  pad.right_x = 0.12;
  CHECK(gamepad_command(pad, speeds).linear_velocity == Vec3::Zero());
  CHECK(gamepad_command(pad, speeds).angular_velocity == Vec3::Zero());
  CHECK(gamepad_command(pad, speeds).gripper == 0);
  pad.left_y = -1.0;          // stick up: +x at full speed
  pad.left_x = -0.575;        // half left: +y at half speed
  pad.right_trigger = 1.0;    // up
  pad.left_trigger = 0.575;   // down by half: net +z at half speed
  pad.right_x = 1.0;          // right stick right: yaw −z
  pad.right_y = -0.575;       // right stick half up: pitch +y at half speed
  pad.right_shoulder = true;  // roll +x
  pad.a = true;
  c = gamepad_command(pad, speeds);
  CHECK((c.linear_velocity - Vec3(0.2, 0.1, 0.1)).norm() < 1e-12);
  CHECK((c.angular_velocity - Vec3(0.8, 0.4, -0.8)).norm() < 1e-12);
  CHECK(c.gripper == 1);
  pad.a = false;
  pad.b = true;
  CHECK(gamepad_command(pad, speeds).gripper == -1);
  // Keys and gamepad add up.
  const sim::TeleopCommand sum = combine(keys_command(HeldKeys{}, speeds), c);
  CHECK(sum.linear_velocity == c.linear_velocity);
}

TEST_CASE("the target gizmo: handles picked on screen, arrow drags follow the cursor along one axis, rings turn",
          "[teleop]") {
  // The camera looks at the target from −y, slightly above: x runs to the right on screen.
  GizmoView view;
  view.width = 800;
  view.height = 600;
  view.camera.target = Vec3(0.2, 0.1, 0.9);
  view.camera.distance = 2.0;
  view.camera.yaw = -kPi / 2;
  view.camera.pitch = 0.3;
  view.camera.fov_y = 0.8;
  const Vec3 centre = view.camera.target;
  const double size = TargetGizmo::world_size(view, centre);
  CHECK(size == Approx(TargetGizmo::kArrowPixels * 2.0 * 2.0 * std::tan(0.4) / 600));

  // The centre projects to the middle of the view; the arrows' tips are picked.
  double cx = 0, cy = 0;
  REQUIRE(view.camera.project(centre, view.width, view.height, cx, cy));
  CHECK(cx == Approx(400));
  CHECK(cy == Approx(300));
  GizmoView oblique = view;  // every arrow seen at an angle
  oblique.camera.yaw = -2.2;
  oblique.camera.pitch = 0.5;
  for (int axis = 0; axis < 3; ++axis) {
    double tx = 0, ty = 0;
    const double length = TargetGizmo::world_size(oblique, centre);
    REQUIRE(oblique.camera.project(centre + length * Vec3::Unit(axis), oblique.width, oblique.height, tx, ty));
    const GizmoHandle h = TargetGizmo::pick(oblique, centre, false, tx, ty);
    CHECK(gizmo_axis(h) == axis);
    CHECK_FALSE(gizmo_rotates(h));
  }
  CHECK(TargetGizmo::pick(view, centre, true, 20, 20) == GizmoHandle::None);
  std::vector<GizmoLine> lines;
  TargetGizmo::lines(view, centre, true, lines);
  CHECK(lines.size() == 3 * 5 + 3 * TargetGizmo::kRingSegments);

  // Drag the x arrow 60 px to the right and 25 px down. The x axis lies in the plane through the
  // target facing the camera, where a pixel is 2 d tan(fov/2) / height metres (the pan scale):
  // the target moves 60 such pixels along x, and not at all along y or z.
  double ax = 0, ay = 0;
  view.camera.project(centre + 0.8 * size * Vec3::UnitX(), view.width, view.height, ax, ay);
  TargetGizmo gizmo;
  const sim::Quat q0(Eigen::AngleAxis<sim::Real>(0.3, Vec3(0, 0, 1)));
  REQUIRE(gizmo.begin_drag(TargetGizmo::pick(view, centre, true, ax, ay), view, centre, q0, ax, ay));
  CHECK(gizmo.active() == GizmoHandle::MoveX);
  Vec3 position;
  sim::Quat orientation;
  REQUIRE(gizmo.drag(ax + 60, ay + 25, position, orientation));
  const double metres_per_pixel = 2.0 * view.camera.distance * std::tan(0.5 * view.camera.fov_y) / view.height;
  CHECK(position.x() - centre.x() == Approx(60 * metres_per_pixel).epsilon(1e-9));
  CHECK(position.y() == centre.y());
  CHECK(position.z() == centre.z());
  CHECK(orientation.angularDistance(q0) < 1e-12);
  gizmo.end_drag();
  CHECK(gizmo.active() == GizmoHandle::None);

  // Looking straight down the x axis the arrow cannot be dragged.
  GizmoView end_on = view;
  end_on.camera.yaw = 0;
  end_on.camera.pitch = 0;
  CHECK_FALSE(gizmo.begin_drag(GizmoHandle::MoveX, end_on, centre, q0, 400, 300));

  // From above, dragging the z ring a quarter turn about the centre turns the target 90° about z.
  GizmoView top = view;
  top.camera.pitch = kPi / 2 - 0.01;
  const double r = TargetGizmo::kRingFraction * TargetGizmo::world_size(top, centre);
  double px = 0, py = 0, qx = 0, qy = 0;
  top.camera.project(centre + r * Vec3::UnitX(), top.width, top.height, px, py);
  top.camera.project(centre + r * Vec3::UnitY(), top.width, top.height, qx, qy);
  REQUIRE(TargetGizmo::pick(top, centre, true, px, py) == GizmoHandle::RotateZ);
  REQUIRE(gizmo.begin_drag(GizmoHandle::RotateZ, top, centre, q0, px, py));
  REQUIRE(gizmo.drag(qx, qy, position, orientation));
  CHECK(position == centre);
  const sim::Quat turned = orientation * q0.conjugate();
  const Eigen::AngleAxis<sim::Real> aa(turned);
  CHECK(aa.angle() == Approx(kPi / 2).margin(1e-9));
  CHECK(aa.axis().z() == Approx(1).margin(1e-9));
}

TEST_CASE("teleoperated grasp: the finger force read-out holds the grip force and carries the cube's weight",
          "[teleop]") {
  // The grasp scene: a palm on a vertical lift, two fingers with force-limited drives (5 N) around
  // a 0.2 kg cube. Close by teleoperation, then command the gripper up 5 cm.
  const Loaded scene = load("grasp");
  const sim::Model& m = *scene.model;
  const TeleopSetup setup = default_teleop_setup(m);
  REQUIRE(setup.end_effector == test::body_index(m, "palm"));
  REQUIRE(setup.gripper_joints.size() == 2);
  SimRunner runner;
  runner.load(scene.spec, scene.model);
  runner.set_teleop(setup);
  runner.set_teleop_gripper(true);
  run_steps(runner, static_cast<int>(std::lround(1.0 / m.dt)));
  const int cube = test::body_index(m, "cube");
  const double z0 = runner.latest().state.body_position(cube).z();
  sim::TeleopCommand up;
  up.linear_velocity = Vec3(0, 0, 0.1);
  runner.set_teleop_command(up);
  run_steps(runner, static_cast<int>(std::lround(0.5 / m.dt)));
  runner.set_teleop_command(sim::TeleopCommand{});
  run_steps(runner, static_cast<int>(std::lround(1.0 / m.dt)));

  // What the Teleop panel plots: each finger body's contact force from the snapshot.
  const Snapshot& s = runner.latest();
  REQUIRE(s.teleop.finger_bodies.size() == 2);
  const sim::BodyContactForce left = sim::body_contact_force(s.workspace, s.teleop.finger_bodies[0]);
  const sim::BodyContactForce right = sim::body_contact_force(s.workspace, s.teleop.finger_bodies[1]);
  const double grip = m.joint_max_force[static_cast<std::size_t>(setup.gripper_joints[0])];
  const double weight = -m.gravity.z() / m.body_inv_mass[static_cast<std::size_t>(cube)];
  INFO("left " << left.force.transpose() << " (" << left.normal << " N), right " << right.force.transpose() << " ("
               << right.normal << " N), cube lifted " << s.state.body_position(cube).z() - z0 << " m");
  // The cube is off the table, held only by the fingers.
  CHECK(s.state.body_position(cube).z() - z0 > 0.04);
  // Each finger squeezes with its drive's force limit, equal and opposite along the closing axis.
  CHECK(left.normal == Approx(grip).epsilon(0.01));
  CHECK(right.normal == Approx(grip).epsilon(0.01));
  CHECK(left.force.x() == Approx(-right.force.x()).epsilon(0.01));
  // Friction on the two fingers carries the cube's weight (the cube pulls the fingers down by m g).
  CHECK(left.force.z() + right.force.z() == Approx(-weight).epsilon(0.01));
}

TEST_CASE("] / [ and the gamepad's X / Y ramp the soft groups' pressure, clamped to the slider's range", "[teleop][actuation]") {
  HeldKeys keys{};
  GamepadState pad;
  CHECK(pressure_direction(keys, pad) == 0);
  keys[static_cast<std::size_t>(TeleopKey::Inflate)] = true;
  CHECK(pressure_direction(keys, pad) == 1);
  pad.y = true;  // deflate on the pad while ] is held: neither
  CHECK(pressure_direction(keys, pad) == 0);
  keys = HeldKeys{};
  CHECK(pressure_direction(keys, pad) == -1);
  // The teleop keys leave the hand alone.
  keys[static_cast<std::size_t>(TeleopKey::Deflate)] = true;
  CHECK(keys_command(keys, TeleopSpeeds{}).linear_velocity == Vec3::Zero());
  // 10 kPa range: 5 kPa/s; 0.5 s up from 1 kPa gives 3.5 kPa; 3 s up stops at 10 kPa, 5 s down at −10.
  std::vector<sim::Real> p{1000, 0};
  const std::vector<double> range{1e4, 2e4};
  ramp_soft_pressure(p, range, 1, 0.5);
  CHECK(p[0] == Approx(3500).epsilon(1e-12));
  CHECK(p[1] == Approx(5000).epsilon(1e-12));
  ramp_soft_pressure(p, range, 1, 3);
  CHECK(p == std::vector<sim::Real>{1e4, 2e4});
  ramp_soft_pressure(p, range, -1, 5);
  CHECK(p == std::vector<sim::Real>{-1e4, -2e4});
  ramp_soft_pressure(p, range, 0, 5);
  CHECK(p == std::vector<sim::Real>{-1e4, -2e4});
}

TEST_CASE("a pressure ramped by the teleop keys through the simulation thread replays bit for bit from a recording",
          "[teleop][actuation][recording]") {
  auto parsed = sim::parse_scene_xml(
      "<scene dt=\"0.01\"><world><plane/></world>"
      "<softbody box=\"0.2 0.2 0.2\" divisions=\"2 2 2\" pos=\"0 0 0.1\" E=\"1e5\" nu=\"0.3\" damping=\"0.01\">"
      "<group name=\"chamber\" min=\"-1 -1 -1\" max=\"1 1 0\"/></softbody></scene>",
      "chamber.xml");
  REQUIRE(parsed.ok());
  auto compiled = sim::compile_model(*parsed);
  REQUIRE(compiled.ok());
  auto spec = std::make_shared<const sim::SceneSpec>(std::move(*parsed));
  auto model = std::make_shared<const sim::Model>(std::move(*compiled));
  const sim::Model& m = *model;
  REQUIRE(m.soft_group_count == 1);
  SimRunner runner;
  runner.load(spec, model);
  settle_requests(runner);
  sim::Recording rec;
  rec.begin("chamber.xml", m, m.solver, runner.latest().state);
  // As the driver does every poll: ] held for 15 steps, the pad's Y for 10, nothing for 5; the
  // ramp over one step's time each, sent to the runner, then one step. The control each step
  // ran with (the runner publishes it) is what a recording holds.
  const std::vector<double> range{1e4};
  std::vector<sim::Real> pressure = m.soft_group_pressure;
  sim::Real highest = 0;
  for (int i = 0; i < 30; ++i) {
    HeldKeys keys{};
    GamepadState pad;
    keys[static_cast<std::size_t>(TeleopKey::Inflate)] = i < 15;
    pad.y = i >= 15 && i < 25;
    ramp_soft_pressure(pressure, range, pressure_direction(keys, pad), m.dt);
    runner.set_soft_pressure(0, static_cast<double>(pressure[0]));
    run_steps(runner, 1);
    const Snapshot& s = runner.latest();
    REQUIRE(s.soft_pressure == pressure);
    sim::Control c = sim::make_initial_control(m);
    c.soft_pressure = s.soft_pressure;
    c.joint_target = s.joint_target;
    rec.record(c);
    highest = std::max(highest, pressure[0]);
  }
  CHECK(highest == Approx(15 * 1e4 * 0.01 / 2).epsilon(1e-12));  // 750 Pa after 15 steps up
  CHECK(pressure[0] == Approx(250).epsilon(1e-9));               // 10 steps down: 250 Pa
  rec.final_hash = sim::state_hash(runner.latest().state);
  test::TempDir dir("coulomb-teleop-pressure");
  const std::string path = (dir.path / "session.rec").string();
  REQUIRE(sim::save_recording(rec, path).ok());
  auto loaded = sim::load_recording(path);
  INFO((loaded.ok() ? std::string() : loaded.error()));
  REQUIRE(loaded.ok());
  sim::State replay = loaded->initial;
  sim::Workspace ws;
  for (const sim::Control& c : loaded->controls) REQUIRE(sim::step(m, replay, c, ws).ok());
  CHECK(sim::state_hash(replay) == loaded->final_hash);
  CHECK(replay.q == runner.latest().state.q);
  // The pressure mattered: replayed at the scene's own (zero) pressure the session ends elsewhere.
  sim::State flat = loaded->initial;
  sim::Workspace ws2;
  for (sim::Control c : loaded->controls) {
    c.soft_pressure = m.soft_group_pressure;
    REQUIRE(sim::step(m, flat, c, ws2).ok());
  }
  CHECK(sim::state_hash(flat) != loaded->final_hash);
}
