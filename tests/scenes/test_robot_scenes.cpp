// The robot scenes (assets/scenes/allegro.xml, fetch.xml) over ../shared/robots (skipped with a
// message where it is absent): they hold the importer's bodies and joints (and the URDF's links
// and joints, counted independently), stand still under their drives for 2 s (every driven joint
// within 0.05 rad or m of its target, nothing non-finite), and the Allegro fingers, closed on the
// can by drive targets, press on it: the fingers carry contact force and the can, at rest in the
// hand, is in equilibrium (its contact forces sum to -m g). Both robots collide with themselves,
// except the link pairs overlapping at the initial pose (filtered at compile, listed here).
#include <catch2/catch.hpp>

#include <tinyxml2.h>

#include <cmath>
#include <filesystem>
#include <string>

#include "sim/compile.hpp"
#include "sim/contact_forces.hpp"
#include "sim/inverse_kinematics.hpp"
#include "sim/robot_import.hpp"
#include "sim/scene_io.hpp"
#include "sim/state.hpp"
#include "sim/step.hpp"
#include "support/shared_robots.hpp"
#include "support/model_names.hpp"

namespace {

namespace fs = std::filesystem;
using sim::Real;
using sim::Vec3;

std::string scene_path(const std::string& name) { return std::string(COULOMB_SOURCE_DIR) + "/assets/scenes/" + name; }

// <link> and <joint> elements of a URDF, counted without the importer.
std::pair<int, int> urdf_link_joint_counts(const std::string& path) {
  tinyxml2::XMLDocument doc;
  REQUIRE(doc.LoadFile(path.c_str()) == tinyxml2::XML_SUCCESS);
  int links = 0, joints = 0;
  for (auto* e = doc.RootElement()->FirstChildElement(); e; e = e->NextSiblingElement()) {
    if (std::string(e->Name()) == "link") ++links;
    if (std::string(e->Name()) == "joint") ++joints;
  }
  return {links, joints};
}

struct LoadedRobotScene {
  sim::SceneSpec spec;
  sim::Model model;
};

// Loads the scene and checks it against the importer's result for its one robot.
LoadedRobotScene load_and_count(const std::string& name, int urdf_links, int urdf_joints, int scene_bodies,
                                int scene_joints) {
  auto spec = sim::load_scene_file(scene_path(name));
  INFO((spec.ok() ? std::string("ok") : spec.error()));
  REQUIRE(spec.ok());
  REQUIRE(spec->robots.size() == 1);
  const sim::RobotIncludeSpec& r = spec->robots[0];
  INFO(r.path << " loaded in " << r.load_seconds << " s");
  const auto [links, joints] = urdf_link_joint_counts(r.path);
  CHECK(links == urdf_links);
  CHECK(joints == urdf_joints);
  auto imported = sim::import_urdf(r.path);
  REQUIRE(imported.ok());
  CHECK(static_cast<int>(imported->links.size()) == links);
  CHECK(static_cast<int>(imported->joints.size()) == joints);
  CHECK(r.body_count == static_cast<int>(imported->scene.bodies.size()));
  CHECK(r.joint_count == static_cast<int>(imported->scene.joints.size()));
  for (int b = 0; b < r.body_count; ++b)
    CHECK(spec->bodies[static_cast<std::size_t>(r.first_body + b)].name == imported->scene.bodies[static_cast<std::size_t>(b)].name);
  CHECK(static_cast<int>(spec->bodies.size()) == r.body_count + scene_bodies);
  CHECK(static_cast<int>(spec->joints.size()) == r.joint_count + scene_joints);
  CHECK(spec->bodies[static_cast<std::size_t>(r.first_body + imported->root_body)].fixed);
  auto model = sim::compile_model(*spec);
  INFO((model.ok() ? std::string("ok") : model.error()));
  REQUIRE(model.ok());
  return {std::move(spec.value()), std::move(model.value())};
}

Vec3 vec3_at(const std::vector<Real>& v, int i) { return Vec3(v[i], v[i + 1], v[i + 2]); }

bool finite(const sim::State& s) {
  for (Real v : s.q)
    if (!std::isfinite(v)) return false;
  for (Real v : s.u)
    if (!std::isfinite(v)) return false;
  return true;
}

// Largest |q - target| over the robot's position-driven joints.
Real worst_drive_error(const sim::Model& m, const sim::State& s, const sim::Control& c, const sim::RobotIncludeSpec& r,
                       std::string* worst) {
  Real err = 0;
  for (int j = r.first_joint; j < r.first_joint + r.joint_count; ++j) {
    if (m.joint_drive[j] != sim::DriveMode::Position) continue;
    const auto chain = sim::joint_chain(m, m.joint_body_b[j]);
    const Real e = std::abs(sim::chain_positions(m, s, chain).back() - c.joint_target[j]);
    if (e > err) {
      err = e;
      if (worst) *worst = m.joint_name[j];
    }
  }
  return err;
}

// 2 s under the drives alone: every step ok and finite, every driven joint near its target.
void stands_still(const LoadedRobotScene& scene) {
  const sim::Model& m = scene.model;
  const sim::RobotIncludeSpec& r = scene.spec.robots[0];
  sim::State s = sim::make_initial_state(m);
  const sim::Control c = sim::make_initial_control(m);
  sim::Workspace ws;
  Real worst = 0;
  std::string worst_joint;
  const int steps = static_cast<int>(std::lround(2.0 / m.dt));
  for (int i = 0; i < steps; ++i) {
    const sim::StepReport report = sim::step(m, s, c, ws);
    INFO("step " << i << ": " << report.message);
    REQUIRE(report.ok());
    REQUIRE(finite(s));
    std::string joint;
    const Real e = worst_drive_error(m, s, c, r, &joint);
    if (e > worst) worst = e, worst_joint = joint;
  }
  INFO("worst joint " << worst_joint << ": " << worst);
  CHECK(worst < Real(0.05));
  // And it has settled: the robot's bodies are (nearly) at rest.
  Real speed = 0;
  for (int b = r.first_body; b < r.first_body + r.body_count; ++b)
    speed = std::max(speed, vec3_at(s.u, m.body_dof(b)).norm());
  CHECK(speed < Real(0.01));
}

// The robot's self-collision is on and exactly these body pairs (overlapping at the initial pose)
// are filtered (Model::initial_overlap_pairs), each about `depth` deep.
void check_filtered_pairs(const sim::Model& m, std::vector<std::pair<std::string, std::string>> expected,
                          std::vector<Real> depth) {
  REQUIRE(m.initial_overlap_pairs.size() == expected.size());
  CHECK(m.no_collision_pairs.size() == expected.size());
  for (std::size_t i = 0; i < expected.size(); ++i) {
    bool found = false;
    for (const sim::Model::FilteredPair& p : m.initial_overlap_pairs) {
      const std::string& a = m.body_name[p.body_a];
      const std::string& b = m.body_name[p.body_b];
      if ((a == expected[i].first && b == expected[i].second) || (a == expected[i].second && b == expected[i].first)) {
        found = true;
        CHECK(p.depth == Approx(depth[i]).margin(2e-4));
      }
    }
    INFO(expected[i].first << " / " << expected[i].second);
    CHECK(found);
  }
}

}  // namespace

TEST_CASE("robot scenes: the Allegro hand holds its pose for 2 s", "[scene][robot]") {
  if (!test::shared_robots_available()) {
    WARN("skipped: " << test::shared_robots_dir() << " not found");
    return;
  }
  // 21 links, 20 joints (4 fixed fingertips merge): 17 bodies, 16 joints; can, box, ball.
  const LoadedRobotScene scene = load_and_count("allegro.xml", 21, 20, 3, 0);
  CHECK(scene.spec.robots[0].body_count == 17);
  CHECK(scene.spec.robots[0].joint_count == 16);
  // Self-collision on; the thumb's second link, 6.8 mm into the palm at rest, is filtered.
  check_filtered_pairs(scene.model, {{"base_link", "link_13.0"}}, {Real(0.0068)});
  stands_still(scene);
}

TEST_CASE("robot scenes: Fetch holds its pose for 2 s", "[scene][robot]") {
  if (!test::shared_robots_available()) {
    WARN("skipped: " << test::shared_robots_dir() << " not found");
    return;
  }
  // 26 links, 25 joints (10 fixed merge): 16 bodies, 15 joints; the scale (platform, rod,
  // needle; 4 joints) and three objects.
  const LoadedRobotScene scene = load_and_count("fetch.xml", 26, 25, 6, 4);
  CHECK(scene.spec.robots[0].body_count == 16);
  CHECK(scene.spec.robots[0].joint_count == 15);
  // Self-collision on; two pairs overlap at rest (URDF collision meshes) and are filtered.
  check_filtered_pairs(scene.model, {{"base_link", "bellows_link"}, {"l_gripper_finger_link", "r_gripper_finger_link"}},
                       {Real(0.0011), Real(0.0006)});
  stands_still(scene);
}

TEST_CASE("robot scenes: Allegro fingers closed on the can press on it", "[scene][robot]") {
  if (!test::shared_robots_available()) {
    WARN("skipped: " << test::shared_robots_dir() << " not found");
    return;
  }
  const LoadedRobotScene scene = load_and_count("allegro.xml", 21, 20, 3, 0);
  const sim::Model& m = scene.model;
  sim::State s = sim::make_initial_state(m);
  sim::Control c = sim::make_initial_control(m);
  sim::Workspace ws;
  // Middle (joints 5-7) and ring (9-11) fingers curl over the can; their drives close further
  // than the can allows, so they keep pressing.
  for (int finger : {4, 8}) {
    c.joint_target[test::joint_index(m, "joint_" + std::to_string(finger + 1) + ".0")] = Real(1.4);
    c.joint_target[test::joint_index(m, "joint_" + std::to_string(finger + 2) + ".0")] = Real(1.4);
    c.joint_target[test::joint_index(m, "joint_" + std::to_string(finger + 3) + ".0")] = Real(1.2);
  }
  const int can = test::body_index(m, "can");
  const Vec3 start = vec3_at(s.q, m.body_coord(can));
  const int steps = static_cast<int>(std::lround(2.0 / m.dt));
  for (int i = 0; i < steps; ++i) {
    REQUIRE(sim::step(m, s, c, ws).ok());
    REQUIRE(finite(s));
  }
  // The fingers touch the can: normal force on the links of both fingers (sim/contact_forces.hpp).
  int pressing_fingers = 0;
  for (int finger : {4, 8}) {
    Real normal = 0;
    for (int k = 1; k <= 3; ++k) normal += sim::body_contact_force(ws, test::body_index(m, "link_" + std::to_string(finger + k) + ".0")).normal;
    INFO("finger " << finger / 4 << ": " << normal << " N");
    CHECK(normal > Real(0.05));
    if (normal > Real(0.05)) ++pressing_fingers;
  }
  CHECK(pressing_fingers == 2);
  // The can stays in the hand and is at rest there: static equilibrium, contact forces = -m g.
  const Vec3 end = vec3_at(s.q, m.body_coord(can));
  CHECK((end - start).norm() < 0.03);
  CHECK(vec3_at(s.u, m.body_dof(can)).norm() < 0.01);
  const Real mass = 1 / m.body_inv_mass[can];
  const sim::BodyContactForce on_can = sim::body_contact_force(ws, can);
  INFO("contact force on the can " << on_can.force.transpose() << " N, weight " << mass * 9.81 << " N");
  CHECK((on_can.force + mass * m.gravity).norm() < 0.05 * mass * 9.81);
}
