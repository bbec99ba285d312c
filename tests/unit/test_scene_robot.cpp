// <robot> in scene files (sim/src/io/scene_xml.cpp, docs/scene-format.md): a URDF/MJCF file placed
// by the element's pose, with its prefix, fixed base, URDF drives and <body>/<joint> overrides
// (initial joint positions among them); the SceneSpec keeps the include's ranges; errors name the
// scene file, line and element and carry the robot file's own message. Uses the project's own
// arm (assets/robots/gripper_arm), so nothing here depends on ../shared.
#include <catch2/catch.hpp>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>

#include "sim/resource_policy.hpp"
#include "sim/compile.hpp"
#include "sim/inverse_kinematics.hpp"
#include "sim/robot_import.hpp"
#include "sim/scene_io.hpp"
#include "sim/state.hpp"
#include "support/parse_checks.hpp"
#include "support/scratch_files.hpp"

namespace {

namespace fs = std::filesystem;
using sim::Pose;
using sim::Quat;
using sim::Real;
using sim::Vec3;

const fs::path kArm = fs::path(COULOMB_SOURCE_DIR) / "assets" / "robots" / "gripper_arm";
const std::string kUrdf = (kArm / "urdf" / "gripper_arm.urdf").string();

using test::check_error;

sim::SceneSpec parse_ok(const std::string& xml, const std::string& file = "scene.xml") {
  return test::parse_scene_ok(xml, file);
}

int body_index(const sim::SceneSpec& s, const std::string& name) {
  for (std::size_t i = 0; i < s.bodies.size(); ++i)
    if (s.bodies[i].name == name) return static_cast<int>(i);
  FAIL("no body " << name);
  return -1;
}

int joint_index(const sim::SceneSpec& s, const std::string& name) {
  for (std::size_t i = 0; i < s.joints.size(); ++i)
    if (s.joints[i].name == name) return static_cast<int>(i);
  FAIL("no joint " << name);
  return -1;
}

}  // namespace

TEST_CASE("<robot>: placed with its pose, prefix, fixed base, drives and overrides", "[unit][io][robot]") {
  auto imported = sim::import_urdf(kUrdf);
  REQUIRE(imported.ok());
  const sim::ImportResult& robot = imported.value();
  const std::string xml = R"(<scene name="t">
  <material name="grip" friction="1.2"/>
  <body name="before" pos="3 0 0.5" mass="1"><sphere radius="0.1"/></body>
  <robot file=")" + kUrdf + R"(" prefix="arm_" pos="1 2 0.1" euler="0 0 90" fixed_base="true"
         drive="position" stiffness="50" damping="2" material="grip">
    <joint name="arm_elbow" position="0.5"><drive target="0.4" max_force="unlimited"/></joint>
    <joint name="arm_shoulder_pitch" position="-0.3" limit="-1 1"/>
    <body name="arm_forearm" velocity="0 0 1"/>
  </robot>
  <body name="after" pos="3 1 0.5" mass="1"><sphere radius="0.1"/></body>
  <joint name="attach" type="fixed" parent="arm_palm" child="after"/>
</scene>)";
  const sim::SceneSpec s = parse_ok(xml);

  REQUIRE(s.robots.size() == 1);
  const sim::RobotIncludeSpec& r = s.robots[0];
  CHECK(r.format == "urdf");
  CHECK(r.path == fs::path(kUrdf).lexically_normal().generic_string());
  CHECK(r.first_body == 1);
  CHECK(r.body_count == static_cast<int>(robot.scene.bodies.size()));
  CHECK(r.first_joint == 0);
  CHECK(r.joint_count == static_cast<int>(robot.scene.joints.size()));
  CHECK(s.bodies.size() == robot.scene.bodies.size() + 2);
  CHECK(s.joints.size() == robot.scene.joints.size() + 1);
  CHECK(s.bodies.back().name == "after");
  CHECK(s.joints.back().body_a == body_index(s, "arm_palm"));
  CHECK(sim::robot_of_body(s, 0) == -1);
  CHECK(sim::robot_of_body(s, 1) == 0);
  CHECK(sim::robot_of_joint(s, static_cast<int>(s.joints.size()) - 1) == -1);

  const Pose base{Vec3(1, 2, Real(0.1)), Quat(Eigen::AngleAxis<Real>(Real(M_PI / 2), Vec3::UnitZ()))};
  const int root = r.first_body + robot.root_body;
  CHECK(s.bodies[root].name == "arm_" + robot.scene.bodies[robot.root_body].name);
  CHECK(s.bodies[root].fixed);
  CHECK((s.bodies[root].pose.pos - (base * robot.scene.bodies[robot.root_body].pose).pos).norm() < 1e-12);
  // Every robot shape without a material took the element's.
  for (int b = r.first_body; b < r.first_body + r.body_count; ++b)
    for (const sim::ShapeSpec& shape : s.bodies[b].shapes) CHECK(shape.material == 0);
  // Overrides: the forearm's velocity, the shoulder's limits.
  CHECK(s.bodies[body_index(s, "arm_forearm")].linear_velocity == Vec3(0, 0, 1));
  const sim::JointSpec& shoulder = s.joints[joint_index(s, "arm_shoulder_pitch")];
  CHECK(shoulder.limited);
  CHECK(shoulder.lower == -1);
  CHECK(shoulder.upper == 1);

  // URDF drives: position, kp 50, kd 2 + the joint's <dynamics damping>, effort as max force;
  // the mimic finger has none. The elbow's own <drive> wins (target, unlimited).
  for (const sim::RobotJoint& rj : robot.joints) {
    if (rj.joint < 0) continue;
    const sim::JointSpec& j = s.joints[joint_index(s, "arm_" + rj.name)];
    INFO(j.name);
    if (rj.mimic) {
      CHECK(j.drive == sim::DriveMode::None);
      continue;
    }
    CHECK(j.drive == sim::DriveMode::Position);
    CHECK(j.stiffness == 50);
    CHECK(j.damping == Approx(2 + rj.damping));
    if (rj.name == "elbow") {
      CHECK(j.max_force == -1);
      CHECK(j.target == Real(0.4));
    } else {
      CHECK(j.max_force == (rj.effort > 0 ? rj.effort : -1));
      CHECK(j.target == (rj.name == "shoulder_pitch" ? Real(-0.3) : Real(0)));
    }
  }
  CHECK(r.joint_positions.size() == 2);

  // The initial positions, read back through the simulator's own joint coordinates.
  auto model = sim::compile_model(s);
  INFO((model.ok() ? std::string("ok") : model.error()));
  REQUIRE(model.ok());
  const sim::State state = sim::make_initial_state(*model);
  for (const sim::JointSpec& j : s.joints) {
    if (j.type != sim::JointType::Revolute && j.type != sim::JointType::Prismatic) continue;
    const int index = joint_index(s, j.name);
    const auto chain = sim::joint_chain(*model, model->joint_body_b[index]);
    REQUIRE(!chain.empty());
    REQUIRE(chain.back() == index);
    const Real q = sim::chain_positions(*model, state, chain).back();
    INFO(j.name);
    CHECK(q == Approx(j.name == "arm_elbow" ? 0.5 : j.name == "arm_shoulder_pitch" ? -0.3 : 0.0).margin(1e-9));
  }
  // The turned subtree stays assembled: each joint's frames coincide except for its coordinate.
  const sim::JointSpec& elbow = s.joints[joint_index(s, "arm_elbow")];
  const Pose fa = s.bodies[elbow.body_a].pose * elbow.frame_a;
  const Pose fb = s.bodies[elbow.body_b].pose * elbow.frame_b;
  CHECK((fa.pos - fb.pos).norm() < 1e-12);
  CHECK(std::abs(fa.rot.angularDistance(fb.rot) - 0.5) < 1e-9);
}

TEST_CASE("<robot>: self_collision=false lists the robot's body pairs for the collision filter", "[unit][io][robot]") {
  const std::string xml = "<scene><robot file=\"" + kUrdf + "\" self_collision=\"false\"/>"
                          "<body name=\"ball\" pos=\"0 0 3\" mass=\"1\"><sphere radius=\"0.1\"/></body></scene>";
  const sim::SceneSpec s = parse_ok(xml);
  auto model = sim::compile_model(s);
  REQUIRE(model.ok());
  const int n = s.robots[0].body_count;
  CHECK(static_cast<int>(model->no_collision_pairs.size()) == n * (n - 1) / 2);
  for (const auto& [a, b] : model->no_collision_pairs) {
    CHECK(a < b);
    CHECK(b < n);  // the ball (index n) is never filtered
  }
  const sim::SceneSpec with = parse_ok("<scene><robot file=\"" + kUrdf + "\"/></scene>");
  CHECK(sim::compile_model(with)->no_collision_pairs.empty());
}

TEST_CASE("<robot>: paths resolve relative to the scene file, MJCF by extension", "[unit][io][robot]") {
  const fs::path dir = test::scratch_dir("scene_robot_relative");
  fs::create_directories(dir / "scenes");
  fs::copy(kArm, dir / "gripper_arm", fs::copy_options::recursive);
  // ../gripper_arm is outside the scene's folder: the scratch folder is a package root here.
  const sim::ScopedResourcePolicy roots({false, {dir.string()}});
  std::ofstream(dir / "scenes" / "arm.xml")
      << "<scene>\n  <robot file=\"../gripper_arm/urdf/gripper_arm.urdf\"/>\n"
         "  <robot file=\"../gripper_arm/mjcf/gripper_arm.xml\" prefix=\"m_\" pos=\"2 0 0\"/>\n</scene>\n";
  auto r = sim::load_scene_file((dir / "scenes" / "arm.xml").string());
  INFO((r.ok() ? std::string("ok") : r.error()));
  REQUIRE(r.ok());
  REQUIRE(r->robots.size() == 2);
  CHECK(r->robots[0].format == "urdf");
  CHECK(r->robots[1].format == "mjcf");
  CHECK(r->robots[1].first_body == r->robots[0].body_count);
  CHECK(fs::equivalent(r->robots[0].path, dir / "gripper_arm" / "urdf" / "gripper_arm.urdf"));
  // The MJCF's floor became world geometry of the robot's range; MJCF actuators made drives.
  CHECK(r->robots[1].world_shape_count >= 1);
  int driven = 0;
  for (int j = r->robots[1].first_joint; j < r->robots[1].first_joint + r->robots[1].joint_count; ++j)
    if (r->joints[j].drive != sim::DriveMode::None) ++driven;
  CHECK(driven > 0);
  CHECK(sim::compile_model(*r).ok());
}

TEST_CASE("<robot>: errors name the scene file, line and element and carry the robot file's message",
          "[unit][io][robot]") {
  const fs::path dir = test::scratch_dir("scene_robot_errors");
  const std::string scene = (dir / "scene.xml").string();

  // A missing file.
  check_error(sim::parse_scene_xml("<scene>\n\n  <robot file=\"nope/missing.urdf\"/>\n</scene>", scene), scene, 3,
              "robot", {"attribute 'file'", "cannot import 'nope/missing.urdf'", "cannot read"});

  // A malformed URDF: the scene's place, then the URDF's own "file:line: <element>: ...".
  std::ofstream(dir / "bad.urdf") << "<robot name=\"bad\">\n  <link name=\"a\"/>\n  <joint name=\"j\" type=\"revolute\">\n"
                                     "    <parent link=\"a\"/>\n  </joint>\n</robot>\n";
  {
    auto r = sim::parse_scene_xml("<scene>\n  <robot file=\"bad.urdf\"/>\n</scene>", scene);
    check_error(r, scene, 2, "robot", {"cannot import 'bad.urdf'", (dir / "bad.urdf").string() + ":3: <joint>"});
  }

  const std::string head = "<scene>\n  <robot file=\"" + kUrdf + "\"";
  // Attributes.
  check_error(sim::parse_scene_xml(head + " drive=\"torque\"/>\n</scene>", scene), scene, 2, "robot",
              {"attribute 'drive'", "expected position, velocity or none"});
  check_error(sim::parse_scene_xml(head + " drive=\"position\"/>\n</scene>", scene), scene, 2, "robot",
              {"a position drive needs stiffness > 0"});
  check_error(sim::parse_scene_xml(head + " stiffness=\"5\"/>\n</scene>", scene), scene, 2, "robot",
              {"need drive="});
  check_error(sim::parse_scene_xml(head + " fixed_base=\"maybe\"/>\n</scene>", scene), scene, 2, "robot",
              {"fixed_base"});
  check_error(sim::parse_scene_xml(head + " format=\"sdf\"/>\n</scene>", scene), scene, 2, "robot",
              {"expected urdf or mjcf"});
  check_error(sim::parse_scene_xml("<scene>\n  <robot file=\"arm.sdf\"/>\n</scene>", scene), scene, 2, "robot",
              {"cannot tell the format"});
  check_error(sim::parse_scene_xml("<scene>\n  <robot file=\"" + (kArm / "mjcf" / "gripper_arm.xml").string() +
                                       "\" drive=\"position\" stiffness=\"5\"/>\n</scene>",
                                   scene),
              scene, 2, "robot", {"only URDF joints"});
  check_error(sim::parse_scene_xml(head + " material=\"nope\"/>\n</scene>", scene), scene, 2, "robot",
              {"unknown material 'nope'"});
  // Names: the same robot twice needs a prefix; a scene body may not reuse a robot body's name.
  check_error(sim::parse_scene_xml(head + "/>\n" + "  <robot file=\"" + kUrdf + "\"/>\n</scene>", scene), scene, 3,
              "robot", {"is already in the scene (set prefix=)"});
  check_error(sim::parse_scene_xml(head + "/>\n  <body name=\"palm\" mass=\"1\"/>\n</scene>", scene), scene, 3, "body",
              {"duplicate body name 'palm'"});
  // Overrides.
  check_error(sim::parse_scene_xml(head + ">\n    <joint name=\"knee\"/>\n  </robot>\n</scene>", scene), scene, 3,
              "joint", {"the robot has no joint 'knee'", "elbow"});
  check_error(sim::parse_scene_xml(head + ">\n    <body name=\"wheel\"/>\n  </robot>\n</scene>", scene), scene, 3,
              "body", {"the robot has no body 'wheel'"});
  check_error(sim::parse_scene_xml(head + ">\n    <joint name=\"elbow\" limit=\"1 0\"/>\n  </robot>\n</scene>", scene),
              scene, 3, "joint", {"lower limit above upper limit"});
  check_error(sim::parse_scene_xml(head + ">\n    <joint name=\"elbow\" position=\"x\"/>\n  </robot>\n</scene>", scene),
              scene, 3, "joint", {"attribute 'position'"});
  check_error(sim::parse_scene_xml(head + ">\n    <joint name=\"elbow\">\n      <drive mode=\"position\" stiffness=\"0\"/>\n"
                                          "    </joint>\n  </robot>\n</scene>",
                                   scene),
              scene, 4, "drive", {"a position drive needs stiffness > 0"});
  check_error(sim::parse_scene_xml(head + ">\n    <site name=\"x\"/>\n  </robot>\n</scene>", scene), scene, 3, "site",
              {"unknown element in <robot>"});
}
