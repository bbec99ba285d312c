// Robot import (sim/src/io/urdf_import.cpp, mjcf_import.cpp, mesh_import.cpp,
// robot_import_common.cpp): real robot files (Allegro hand, Fetch; from ../shared/robots, skipped
// when absent), the project's own arm (assets/robots/gripper_arm), MJCF defaults, angle units and
// actuators, malformed files (errors with file:line and element), unsupported content
// (warnings), missing meshes (warning and a box), mesh formats and package:// resolution.
#include <catch2/catch.hpp>
#include <tinyxml2.h>

#include <Eigen/Eigenvalues>
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <numbers>
#include <set>
#include <string>

#include "collision/convex_hull.hpp"
#include "io/mesh_import.hpp"
#include "sim/compile.hpp"
#include "sim/robot_import.hpp"
#include "sim/state.hpp"
#include "sim/step.hpp"
#include "support/parse_checks.hpp"
#include "support/scratch_files.hpp"

namespace {

namespace fs = std::filesystem;
using sim::Pose;
using sim::Quat;
using sim::Real;
using sim::Vec3;
using test::check_error;
using test::xml_lines;

const fs::path kShared = fs::path(COULOMB_SHARED_DIR) / "robots";
const fs::path kAssets = fs::path(COULOMB_SOURCE_DIR) / "assets" / "robots" / "gripper_arm";

bool has_warning(const sim::ImportResult& r, const std::string& prefix, const std::string& fragment) {
  for (const std::string& w : r.warnings)
    if (w.rfind(prefix, 0) == 0 && w.find(fragment) != std::string::npos) return true;
  return false;
}

std::string all_warnings(const sim::ImportResult& r) {
  std::string out;
  for (const std::string& w : r.warnings) out += w + "\n";
  return out;
}

sim::ImportResult urdf_ok(const std::string& xml, const sim::ImportOptions& options = {}, const std::string& file = "test.urdf") {
  auto r = sim::parse_urdf(xml, file, options);
  INFO((r.ok() ? std::string("ok") : r.error()));
  REQUIRE(r.ok());
  return r.value();
}

sim::ImportResult mjcf_ok(const std::string& xml, const sim::ImportOptions& options = {}, const std::string& file = "test.xml") {
  auto r = sim::parse_mjcf(xml, file, options);
  INFO((r.ok() ? std::string("ok") : r.error()));
  REQUIRE(r.ok());
  return r.value();
}

// Independent count of a URDF's <link> and <joint> elements and sum of its <inertial><mass>.
struct UrdfCounts {
  int links = 0, joints = 0;
  double mass = 0;
};
UrdfCounts count_urdf(const fs::path& path) {
  tinyxml2::XMLDocument doc;
  REQUIRE(doc.LoadFile(path.string().c_str()) == tinyxml2::XML_SUCCESS);
  UrdfCounts c;
  const tinyxml2::XMLElement* robot = doc.RootElement();
  for (auto* e = robot->FirstChildElement(); e; e = e->NextSiblingElement()) {
    const std::string name = e->Name();
    if (name == "joint") ++c.joints;
    if (name != "link") continue;
    ++c.links;
    if (auto* in = e->FirstChildElement("inertial"))
      if (auto* m = in->FirstChildElement("mass")) c.mass += m->DoubleAttribute("value");
  }
  return c;
}

double total_body_mass(const sim::SceneSpec& s) {
  double m = 0;
  for (const sim::BodySpec& b : s.bodies) m += b.mass;
  return m;
}

bool near(const Vec3& a, const Vec3& b, Real tol = Real(1e-9)) { return (a - b).norm() < tol; }
bool same_rotation(const Quat& a, const Quat& b, Real tol = Real(1e-9)) { return std::abs(std::abs(a.dot(b)) - 1) < tol; }

// Every joint's two frames coincide in the world at t = 0 (the tree was composed consistently).
void check_joint_frames(const sim::SceneSpec& s) {
  for (const sim::JointSpec& j : s.joints) {
    const Pose a = j.body_a >= 0 ? s.bodies[j.body_a].pose * j.frame_a : j.frame_a;
    const Pose b = s.bodies[j.body_b].pose * j.frame_b;
    INFO("joint " << j.name);
    CHECK(near(a.pos, b.pos, Real(1e-9)));
    CHECK(same_rotation(a.rot, b.rot, Real(1e-9)));
  }
}

sim::Model compile_ok(const sim::SceneSpec& s) {
  auto m = sim::compile_model(s);
  INFO((m.ok() ? std::string("ok") : m.error()));
  REQUIRE(m.ok());
  return std::move(m.value());
}

sim::SceneSpec placed(const sim::ImportResult& r, const Pose& base = {}, bool fixed_base = true) {
  sim::SceneSpec scene;
  auto ok = sim::append_robot(scene, r, base, fixed_base);
  INFO((ok.ok() ? std::string("ok") : ok.error()));
  REQUIRE(ok.ok());
  return scene;
}

}  // namespace

// ---- real robots -----------------------------------------------------------------------------

TEST_CASE("URDF: the Allegro hand imports with its links, joints and mesh visuals", "[unit][import]") {
  const fs::path path = kShared / "allegro_hand_description" / "allegro_hand_description_right.urdf";
  if (!fs::exists(path)) {
    WARN("skipped: " << path << " not found (../shared/robots is absent)");
    return;
  }
  const UrdfCounts counts = count_urdf(path);
  CHECK(counts.links == 21);
  CHECK(counts.joints == 20);
  CHECK(counts.mass == 0);  // no <inertial> anywhere: masses come from the collision geometry

  auto r = sim::import_urdf(path.string());
  INFO((r.ok() ? all_warnings(r.value()) : r.error()));
  REQUIRE(r.ok());
  const sim::ImportResult& robot = r.value();
  CHECK(robot.name == "allegro_hand_right");
  CHECK(static_cast<int>(robot.links.size()) == counts.links);
  CHECK(static_cast<int>(robot.joints.size()) == counts.joints);
  int revolute = 0, fixed = 0;
  for (const auto& j : robot.joints) {
    if (j.kind == sim::RobotJointKind::Revolute) {
      ++revolute;
      CHECK(j.limited);
      CHECK(j.joint >= 0);
    }
    if (j.kind == sim::RobotJointKind::Fixed) {
      ++fixed;
      CHECK(j.merged);
    }
  }
  CHECK(revolute == 16);
  CHECK(fixed == 4);
  CHECK(robot.scene.bodies.size() == 17);  // the 4 fingertips merge into their links
  CHECK(robot.scene.joints.size() == 16);

  // Mass: the authored masses (none) plus the geometric ones, every link accounted for.
  double authored = 0, links = 0;
  for (const auto& l : robot.links) {
    CHECK(l.mass_from_geometry);
    CHECK(l.mass > 0);
    links += l.mass;
    if (!l.mass_from_geometry) authored += l.mass;
  }
  CHECK(authored == Approx(counts.mass));
  CHECK(total_body_mass(robot.scene) == Approx(links).epsilon(1e-12));
  CHECK(has_warning(robot, path.string() + ":", "has no <inertial>"));

  // package://allegro_hand_description/... found next to the URDF; the STL visuals are loaded.
  CHECK(robot.visuals.size() == 21);
  CHECK(robot.meshes.size() >= 10);
  for (const auto& v : robot.visuals) {
    CHECK(v.geometry == sim::RobotVisual::Geometry::Mesh);
    CHECK(v.mesh >= 0);
    CHECK(fs::exists(v.mesh_file));
  }
  CHECK_FALSE(has_warning(robot, "", "cannot find"));

  const sim::SceneSpec scene = placed(robot, Pose{Vec3(0, 0, 0.5), Quat::Identity()});
  check_joint_frames(scene);
  CHECK(scene.bodies[robot.root_body].fixed);
  CHECK(scene.bodies[robot.root_body].name == "base_link");
  const sim::Model model = compile_ok(scene);
  CHECK(model.body_count == 17);
  CHECK(model.joint_count == 16);
}

TEST_CASE("URDF: Fetch imports with its links, joints and total mass", "[unit][import]") {
  const fs::path path = kShared / "fetch_description" / "robots" / "fetch.urdf";
  if (!fs::exists(path)) {
    WARN("skipped: " << path << " not found (../shared/robots is absent)");
    return;
  }
  const UrdfCounts counts = count_urdf(path);
  CHECK(counts.links == 26);
  CHECK(counts.joints == 25);
  CHECK(counts.mass == Approx(121.28324572656456).epsilon(1e-12));

  auto r = sim::import_urdf(path.string());
  INFO((r.ok() ? all_warnings(r.value()) : r.error()));
  REQUIRE(r.ok());
  const sim::ImportResult& robot = r.value();
  CHECK(robot.name == "fetch");
  CHECK(static_cast<int>(robot.links.size()) == counts.links);
  CHECK(static_cast<int>(robot.joints.size()) == counts.joints);
  CHECK(total_body_mass(robot.scene) == Approx(counts.mass).epsilon(1e-12));
  double authored = 0;
  for (const auto& l : robot.links) {
    CHECK_FALSE(l.mass_from_geometry);
    authored += l.mass;
  }
  CHECK(authored == Approx(counts.mass).epsilon(1e-12));

  // 10 fixed joints merge their links (5 camera frames, estop, laser, torso, gripper, bellows2);
  // 15 joints remain: 2 continuous wheels, 3 continuous arm rolls, 6 revolute, 4 prismatic.
  CHECK(robot.scene.bodies.size() == 16);
  CHECK(robot.scene.joints.size() == 15);
  int continuous = 0, prismatic = 0;
  for (const auto& j : robot.joints) {
    if (j.kind == sim::RobotJointKind::Continuous) {
      ++continuous;
      CHECK_FALSE(j.limited);
      CHECK_FALSE(robot.scene.joints[j.joint].limited);
    }
    if (j.kind == sim::RobotJointKind::Prismatic) ++prismatic;
  }
  CHECK(continuous == 5);
  CHECK(prismatic == 4);
  // The torso: prismatic along z, limits [0, 0.38615], effort 450, damping 100 (a velocity drive).
  for (const auto& j : robot.joints)
    if (j.name == "torso_lift_joint") {
      const sim::JointSpec& js = robot.scene.joints[j.joint];
      CHECK(js.type == sim::JointType::Prismatic);
      CHECK(js.limited);
      CHECK(js.upper == Approx(0.38615));
      CHECK(j.effort == Approx(450));
      CHECK(js.drive == sim::DriveMode::Velocity);
      CHECK(js.damping == Approx(100));
    }
  // The gripper merged into the wrist roll link, at 0.16645 m along x.
  for (const auto& l : robot.links)
    if (l.name == "gripper_link") {
      CHECK(robot.scene.bodies[l.body].name == "wrist_roll_link");
      CHECK(near(l.frame_in_body.pos, Vec3(0.16645, 0, 0)));
    }

  // The visual base_link.dae is missing from this copy: a warning, the link drawn as its collision
  // mesh (base_link_collision.STL) in the visual's colour.
  CHECK(has_warning(robot, path.string() + ":", "base_link.dae"));
  int base_visuals = 0;
  for (const auto& v : robot.visuals)
    if (v.mesh_file.find("base_link_collision.STL") != std::string::npos) {
      ++base_visuals;
      CHECK(v.mesh >= 0);
      CHECK(v.rgba == std::array<float, 4>{0.356f, 0.361f, 0.376f, 1.0f});
    }
  CHECK(base_visuals == 1);
  // The finger inertia (0.002, 0, 0) is not physical: corrected with a warning.
  CHECK(has_warning(robot, path.string() + ":", "not physically valid"));
  // Collada visuals keep their authored (Z_UP) axes: each DAE visual has about the bounds of
  // the link's STL mesh (a conversion to Y_UP would swap y and z).
  int daes = 0;
  for (const auto& v : robot.visuals) {
    if (v.mesh_file.size() < 4 || v.mesh_file.substr(v.mesh_file.size() - 4) != ".dae") continue;
    REQUIRE(v.mesh >= 0);
    std::string stl = v.mesh_file.substr(0, v.mesh_file.size() - 4) + "_collision.STL";
    if (!fs::exists(stl)) stl = v.mesh_file.substr(0, v.mesh_file.size() - 4) + ".STL";
    if (!fs::exists(stl)) continue;
    auto collision = sim::io::load_mesh_file(stl, Vec3::Ones());
    REQUIRE(collision.ok());
    ++daes;
    Vec3 lo = Vec3::Constant(1e9), hi = Vec3::Constant(-1e9), clo = lo, chi = hi;
    for (const Vec3& p : robot.meshes[v.mesh].vertices) lo = lo.cwiseMin(p), hi = hi.cwiseMax(p);
    for (const Vec3& p : collision.value().vertices) clo = clo.cwiseMin(p), chi = chi.cwiseMax(p);
    INFO(v.mesh_file << ": visual " << lo.transpose() << " / " << hi.transpose() << ", " << stl << " "
                     << clo.transpose() << " / " << chi.transpose());
    CHECK((lo - clo).cwiseAbs().maxCoeff() < 0.02);
    CHECK((hi - chi).cwiseAbs().maxCoeff() < 0.02);
  }
  CHECK(daes >= 8);
  // Collision hulls keep at most max_hull_vertices corners (the wheel's hull has 688) and nearly
  // all of the volume.
  for (const auto& l : robot.links)
    if (l.name == "r_wheel_link") {
      const auto& shapes = robot.scene.bodies[l.body].shapes;
      REQUIRE(shapes.size() == 1);
      CHECK(static_cast<int>(shapes[0].vertices.size()) <= sim::ImportOptions{}.max_hull_vertices);
      auto full = sim::io::load_mesh_file((kShared / "fetch_description" / "meshes" / "r_wheel_link_collision.STL").string(),
                                          Vec3::Ones());
      REQUIRE(full.ok());
      auto full_hull = sim::build_convex_hull(full.value().vertices, "wheel");
      auto reduced_hull = sim::build_convex_hull(shapes[0].vertices, "wheel");
      REQUIRE(full_hull.ok());
      REQUIRE(reduced_hull.ok());
      CHECK(full_hull.value().vertices.size() > 500);
      const Real ratio = sim::hull_mass_properties(reduced_hull.value()).volume /
                         sim::hull_mass_properties(full_hull.value()).volume;
      CHECK(ratio > 0.95);
      CHECK(ratio <= 1 + 1e-9);
    }

  const sim::SceneSpec scene = placed(robot);
  check_joint_frames(scene);
  const sim::Model model = compile_ok(scene);
  CHECK(model.body_count == 16);
  Real inverse_mass_sum = 0;
  for (Real im : model.body_inv_mass) inverse_mass_sum += im;
  CHECK(std::isfinite(inverse_mass_sum));
}

// ---- the project's own arm -------------------------------------------------------------------

TEST_CASE("URDF: the gripper arm asset imports cleanly and simulates", "[unit][import]") {
  const fs::path path = kAssets / "urdf" / "gripper_arm.urdf";
  REQUIRE(fs::exists(path));
  const UrdfCounts counts = count_urdf(path);
  CHECK(counts.links == 8);
  CHECK(counts.joints == 7);
  CHECK(counts.mass == Approx(4.7));

  auto r = sim::import_urdf(path.string());
  INFO((r.ok() ? all_warnings(r.value()) : r.error()));
  REQUIRE(r.ok());
  const sim::ImportResult& robot = r.value();
  // The one simplification: the mimic finger is not coupled.
  REQUIRE(robot.warnings.size() == 1);
  CHECK(robot.warnings[0].find("gripper_arm.urdf:161: <mimic>: joint 'right_finger_joint' = 1 x 'left_finger_joint'") !=
        std::string::npos);
  CHECK(robot.links.size() == 8);
  CHECK(robot.joints.size() == 7);
  CHECK(robot.scene.bodies.size() == 7);  // tool_frame merged into the palm
  CHECK(robot.scene.joints.size() == 6);
  CHECK(total_body_mass(robot.scene) == Approx(4.7).epsilon(1e-12));

  const auto find_joint = [&](const std::string& name) -> const sim::RobotJoint& {
    for (const auto& j : robot.joints)
      if (j.name == name) return j;
    FAIL("no joint " << name);
    return robot.joints.front();
  };
  // Passive damping, limits, effort.
  const auto& yaw = find_joint("shoulder_yaw");
  const sim::JointSpec& yaw_spec = robot.scene.joints[yaw.joint];
  CHECK(yaw_spec.type == sim::JointType::Revolute);
  CHECK(yaw_spec.limited);
  CHECK(yaw_spec.lower == Approx(-2.9));
  CHECK(yaw_spec.upper == Approx(2.9));
  CHECK(yaw.effort == Approx(40));
  CHECK(yaw.velocity == Approx(2));
  CHECK(yaw_spec.drive == sim::DriveMode::Velocity);
  CHECK(yaw_spec.damping == Approx(0.5));
  // Continuous wrist: revolute without limits.
  const auto& wrist = find_joint("wrist");
  CHECK(wrist.kind == sim::RobotJointKind::Continuous);
  CHECK_FALSE(robot.scene.joints[wrist.joint].limited);
  // Mimic finger.
  const auto& right = find_joint("right_finger_joint");
  CHECK(right.mimic);
  CHECK(right.mimic_joint == "left_finger_joint");
  CHECK(right.multiplier == 1);
  CHECK(right.offset == 0);
  CHECK(robot.scene.joints[right.joint].type == sim::JointType::Prismatic);
  CHECK(near(robot.scene.joints[right.joint].axis, Vec3(0, -1, 0)));
  // The fixed tool frame: merged, its frame kept.
  const auto& tool = find_joint("tool_joint");
  CHECK(tool.merged);
  CHECK(tool.joint == -1);
  for (const auto& l : robot.links)
    if (l.name == "tool_frame") {
      CHECK(robot.scene.bodies[l.body].name == "palm");
      CHECK(near(l.frame_in_body.pos, Vec3(0, 0, 0.09)));
    }
  // Kinematic tree: the palm sits at 0.05 + 0.15 + 0.3 + 0.25 = 0.75 m.
  for (const auto& b : robot.scene.bodies)
    if (b.name == "palm") {
      CHECK(near(b.pose.pos, Vec3(0, 0, 0.75)));
      // The U-shaped palm mesh is decomposed into convex parts.
      CHECK(b.shapes.size() >= 2);
      for (const auto& s : b.shapes) CHECK(s.type == sim::ShapeType::ConvexMesh);
      CHECK(b.mass == Approx(0.3));
      CHECK(near(b.com, Vec3(0, 0, 0.0125)));
    }
  // Cylinders are native cylinders.
  CHECK(robot.scene.bodies[0].shapes[0].type == sim::ShapeType::Cylinder);
  CHECK(robot.scene.bodies[0].shapes[0].radius == Approx(0.08));

  // Placed fixed at a base pose, it compiles and holds still for a few steps.
  const Pose base{Vec3(0.3, -0.2, 0.1), Quat(Eigen::AngleAxis<Real>(Real(0.4), Vec3::UnitZ()))};
  sim::SceneSpec scene = placed(robot, base, true);
  check_joint_frames(scene);
  for (const auto& b : scene.bodies)
    if (b.name == "palm") CHECK(near(b.pose.pos, base.pos + Vec3(0, 0, 0.75)));
  sim::ShapeSpec floor;
  floor.type = sim::ShapeType::Plane;
  scene.world_shapes.push_back(floor);
  const sim::Model model = compile_ok(scene);
  sim::State state = sim::make_initial_state(model);
  const sim::Control control = sim::make_initial_control(model);
  sim::Workspace workspace;
  for (int i = 0; i < 20; ++i) {
    const sim::StepReport report = sim::step(model, state, control, workspace);
    INFO(report.message);
    REQUIRE(report.ok());
  }
  for (Real x : state.q) CHECK(std::isfinite(x));
}

TEST_CASE("URDF: options (no merging, drives, prefix)", "[unit][import]") {
  const fs::path path = kAssets / "urdf" / "gripper_arm.urdf";
  sim::ImportOptions options;
  options.merge_fixed_links = false;
  options.urdf_drive = sim::DriveMode::Position;
  options.urdf_drive_stiffness = 50;
  options.urdf_drive_damping = 2;
  options.name_prefix = "left/";
  auto r = sim::import_urdf(path.string(), options);
  REQUIRE(r.ok());
  const sim::ImportResult& robot = r.value();
  CHECK(robot.scene.bodies.size() == 8);
  CHECK(robot.scene.joints.size() == 7);
  // The massless tool frame on its own: a small mass, with a warning.
  CHECK(has_warning(robot, path.string() + ":", "has no mass"));
  for (const auto& j : robot.scene.joints) {
    CHECK(j.name.rfind("left/", 0) == 0);
    if (j.name == "left/tool_joint") CHECK(j.type == sim::JointType::Fixed);
    if (j.name == "left/elbow") {
      CHECK(j.drive == sim::DriveMode::Position);
      CHECK(j.stiffness == 50);
      CHECK(j.damping == 2);
      CHECK(j.max_force == 20);
    }
    if (j.name == "left/shoulder_yaw") CHECK(j.damping == Approx(2.5));  // drive + dynamics damping
    if (j.name == "left/right_finger_joint") CHECK(j.drive == sim::DriveMode::None);  // mimic: not driven
  }
  sim::SceneSpec scene = placed(robot);
  check_joint_frames(scene);
  compile_ok(scene);
  // A second copy with another prefix fits; the same prefix again does not.
  sim::ImportOptions other = options;
  other.name_prefix = "right/";
  auto second = sim::import_urdf(path.string(), other);
  REQUIRE(second.ok());
  CHECK(sim::append_robot(scene, second.value(), Pose{Vec3(1, 0, 0), Quat::Identity()}, true).ok());
  CHECK(scene.bodies.size() == 16);
  auto clash = sim::append_robot(scene, robot, Pose{}, true);
  REQUIRE_FALSE(clash.ok());
  CHECK(clash.error().find("already in the scene") != std::string::npos);
  CHECK(scene.bodies.size() == 16);
  compile_ok(scene);
}

TEST_CASE("MJCF: the gripper arm asset imports with classes, actuators and options", "[unit][import]") {
  const fs::path path = kAssets / "mjcf" / "gripper_arm.xml";
  REQUIRE(fs::exists(path));
  auto r = sim::import_mjcf(path.string());
  INFO((r.ok() ? all_warnings(r.value()) : r.error()));
  REQUIRE(r.ok());
  const sim::ImportResult& robot = r.value();
  CHECK(robot.warnings.empty());
  CHECK(robot.name == "gripper_arm");
  CHECK(robot.has_timestep);
  CHECK(robot.scene.dt == Approx(0.004));
  CHECK(robot.links.size() == 8);  // world + 7 bodies
  CHECK(robot.links[0].body == -1);
  CHECK(robot.joints.size() == 6);
  CHECK(robot.scene.bodies.size() == 7);
  CHECK(robot.scene.joints.size() == 6);
  CHECK(robot.scene.world_shapes.size() == 1);
  CHECK(robot.scene.world_shapes[0].type == sim::ShapeType::Plane);
  CHECK(total_body_mass(robot.scene) == Approx(4.7).epsilon(1e-9));
  CHECK(robot.root_body == -1);  // no free joint: nothing for fixed_base to pin
  CHECK(robot.scene.bodies[0].name == "base_link");
  CHECK(robot.scene.bodies[0].fixed);  // no joint under the world: welded

  // Materials by friction: floor 1, default class 0.8, finger class 1.2.
  std::set<Real> frictions;
  for (const auto& m : robot.scene.materials) frictions.insert(m.friction);
  CHECK(frictions == std::set<Real>{Real(0.8), Real(1), Real(1.2)});
  for (const auto& b : robot.scene.bodies)
    if (b.name == "left_finger") CHECK(robot.scene.materials[b.shapes[0].material].friction == Approx(1.2));

  const auto spec = [&](const std::string& name) -> const sim::JointSpec& {
    for (const auto& j : robot.scene.joints)
      if (j.name == name) return j;
    FAIL("no joint " << name);
    return robot.scene.joints.front();
  };
  const Real deg = std::numbers::pi_v<Real> / 180;
  CHECK(spec("shoulder_yaw").lower == Approx(-166 * deg));
  CHECK(spec("shoulder_yaw").upper == Approx(166 * deg));
  CHECK(near(spec("shoulder_yaw").axis, Vec3::UnitZ()));
  CHECK(near(spec("elbow").axis, Vec3::UnitY()));  // from the default class
  CHECK(spec("shoulder_yaw").drive == sim::DriveMode::Position);
  CHECK(spec("shoulder_yaw").stiffness == Approx(80));
  CHECK(spec("shoulder_yaw").damping == Approx(0.5));
  CHECK(spec("shoulder_yaw").max_force == Approx(40));
  CHECK(spec("shoulder_pitch").stiffness == Approx(120));
  CHECK(spec("wrist").drive == sim::DriveMode::Velocity);
  CHECK(spec("wrist").damping == Approx(1.0));  // kv 0.5 + joint damping 0.5
  CHECK_FALSE(spec("wrist").limited);
  CHECK(spec("left_finger_joint").type == sim::JointType::Prismatic);  // childclass finger: slide
  CHECK(spec("left_finger_joint").upper == Approx(0.03));             // metres, not degrees
  CHECK(spec("left_finger_joint").stiffness == Approx(400));
  CHECK(spec("left_finger_joint").damping == Approx(2));
  CHECK(spec("left_finger_joint").max_force == Approx(5));
  CHECK(robot.actuators.size() == 6);
  for (const auto& a : robot.actuators) CHECK(a.joint_index >= 0);
  REQUIRE(robot.sites.size() == 1);
  CHECK(robot.sites[0].name == "tool");
  CHECK(robot.scene.bodies[robot.sites[0].body].name == "palm");
  for (const auto& b : robot.scene.bodies)
    if (b.name == "palm") {
      CHECK(near(b.pose.pos, Vec3(0, 0, 0.75)));
      CHECK(b.shapes.size() >= 2);  // the decomposed U
    }

  sim::SceneSpec scene;
  scene.dt = Real(0.01);
  REQUIRE(sim::append_robot(scene, robot, Pose{}, true).ok());
  CHECK(scene.dt == Approx(0.004));  // the file's option wins
  check_joint_frames(scene);
  const sim::Model model = compile_ok(scene);
  sim::State state = sim::make_initial_state(model);
  const sim::Control control = sim::make_initial_control(model);
  sim::Workspace workspace;
  for (int i = 0; i < 20; ++i) REQUIRE(sim::step(model, state, control, workspace).ok());
}

// ---- MJCF details ----------------------------------------------------------------------------

TEST_CASE("MJCF: defaults, classes and childclass inherit", "[unit][import]") {
  const std::string xml = xml_lines({
      "<mujoco model='m'>",                                                  // 1
      "  <default>",                                                         // 2
      "    <geom friction='0.3' density='500'/>",                            // 3
      "    <joint damping='1' axis='1 0 0'/>",                               // 4
      "    <default class='a'>",                                             // 5
      "      <geom friction='0.6'/>",                                        // 6
      "      <default class='b'>",                                           // 7
      "        <joint damping='3'/>",                                        // 8
      "      </default>",                                                    // 9
      "    </default>",                                                      // 10
      "  </default>",                                                        // 11
      "  <worldbody>",                                                       // 12
      "    <body name='p' pos='0 0 1' childclass='b'>",                      // 13
      "      <freejoint/>",                                                  // 14
      "      <geom type='box' size='0.1 0.1 0.1'/>",                         // 15
      "      <body name='c' pos='0 0 0.5'>",                                 // 16
      "        <joint name='j'/>",                                           // 17
      "        <geom type='sphere' size='0.1' class='main'/>",               // 18
      "      </body>",                                                       // 19
      "    </body>",                                                         // 20
      "  </worldbody>",                                                      // 21
      "</mujoco>",                                                           // 22
  });
  const auto r = mjcf_ok(xml);
  CHECK(r.warnings.empty());
  REQUIRE(r.scene.bodies.size() == 2);
  const sim::BodySpec& p = r.scene.bodies[0];
  const sim::BodySpec& c = r.scene.bodies[1];
  // Box: class b inherits a's friction 0.6 and main's density 500.
  CHECK(r.scene.materials[p.shapes[0].material].friction == Approx(0.6));
  CHECK(p.mass == Approx(500 * 0.008));
  // Sphere with class main: friction 0.3.
  CHECK(r.scene.materials[c.shapes[0].material].friction == Approx(0.3));
  CHECK(c.mass == Approx(500 * 4.0 / 3 * std::numbers::pi * 0.001));
  // The joint: damping 3 from b, axis from main.
  REQUIRE(r.scene.joints.size() == 1);
  CHECK(r.scene.joints[0].damping == Approx(3));
  CHECK(r.scene.joints[0].drive == sim::DriveMode::Velocity);
  CHECK(near(r.scene.joints[0].axis, Vec3::UnitX()));
  // The free body: no joint, the root; fixed only when placed with fixed_base.
  CHECK(r.joints[0].kind == sim::RobotJointKind::Floating);
  CHECK(r.joints[0].joint == -1);
  CHECK(r.root_body == 0);
  CHECK_FALSE(p.fixed);
  CHECK(placed(r, {}, false).bodies[0].fixed == false);
  CHECK(placed(r, {}, true).bodies[0].fixed == true);
  compile_ok(placed(r, {}, false));

  check_error(sim::parse_mjcf(xml_lines({"<mujoco>", "  <worldbody>", "    <geom class='nope' size='1'/>",
                                         "  </worldbody>", "</mujoco>"}),
                              "test.xml"),
              "test.xml", 3, "geom", "unknown default class 'nope'");
}

TEST_CASE("MJCF: angle units, euler sequences and orientations", "[unit][import]") {
  const auto body_rotation = [](const std::string& compiler, const std::string& orientation) {
    const std::string xml = "<mujoco><compiler " + compiler + "/><worldbody><body name='b' " + orientation +
                            "><freejoint/><geom size='0.1'/></body></worldbody></mujoco>";
    auto r = sim::parse_mjcf(xml, "test.xml");
    INFO((r.ok() ? std::string("ok") : r.error()));
    REQUIRE(r.ok());
    return r.value().scene.bodies[0].pose.rot;
  };
  const Real pi = std::numbers::pi_v<Real>;
  const Quat z90(Eigen::AngleAxis<Real>(pi / 2, Vec3::UnitZ()));
  CHECK(same_rotation(body_rotation("", "euler='0 0 90'"), z90));  // degrees by default
  CHECK(same_rotation(body_rotation("angle='radian'", "euler='0 0 1.5707963267948966'"), z90));
  CHECK(same_rotation(body_rotation("angle='degree'", "axisangle='0 0 1 90'"), z90));
  CHECK(same_rotation(body_rotation("angle='radian'", "axisangle='0 0 2 1.5707963267948966'"), z90));
  CHECK(same_rotation(body_rotation("", "quat='0.7071067811865476 0 0 0.7071067811865476'"), z90));
  CHECK(same_rotation(body_rotation("", "xyaxes='0 1 0 -1 0 0'"), z90));
  CHECK(same_rotation(body_rotation("", "zaxis='1 0 0'"), Quat(Eigen::AngleAxis<Real>(pi / 2, Vec3::UnitY()))));
  // Euler sequences: lowercase rotates with the frame (intrinsic), uppercase about fixed axes.
  const Quat rx(Eigen::AngleAxis<Real>(pi / 6, Vec3::UnitX())), ry(Eigen::AngleAxis<Real>(pi / 4, Vec3::UnitY())),
      rz(Eigen::AngleAxis<Real>(pi / 3, Vec3::UnitZ()));
  CHECK(same_rotation(body_rotation("", "euler='30 45 60'"), rx * ry * rz));
  CHECK(same_rotation(body_rotation("eulerseq='zyx'", "euler='60 45 30'"), rz * ry * rx));
  CHECK(same_rotation(body_rotation("eulerseq='XYZ'", "euler='30 45 60'"), rz * ry * rx));

  // Hinge ranges follow the unit; slide ranges never.
  const std::string joints = "<worldbody><body name='a'><joint name='h' range='-90 45'/><geom size='0.1'/>"
                             "<body name='b'><joint name='s' type='slide' range='-0.5 2'/><geom size='0.1'/></body>"
                             "</body></worldbody></mujoco>";
  auto deg = mjcf_ok("<mujoco>" + joints);
  CHECK(deg.scene.joints[0].lower == Approx(-pi / 2));
  CHECK(deg.scene.joints[0].upper == Approx(pi / 4));
  CHECK(deg.scene.joints[1].lower == Approx(-0.5));
  CHECK(deg.scene.joints[1].upper == Approx(2));
  auto rad = mjcf_ok("<mujoco><compiler angle='radian'/>" + joints);
  CHECK(rad.scene.joints[0].lower == Approx(-90));
  CHECK(rad.scene.joints[1].upper == Approx(2));
  // autolimits off: a range alone does not limit.
  auto off = mjcf_ok("<mujoco><compiler autolimits='false'/>" + joints);
  CHECK_FALSE(off.scene.joints[0].limited);
  CHECK(off.joints[0].kind == sim::RobotJointKind::Continuous);
}

TEST_CASE("MJCF: actuators map to drives", "[unit][import]") {
  const std::string xml = xml_lines({
      "<mujoco>",
      "  <option gravity='0 0 -3'/>",
      "  <worldbody>",
      "    <body name='a'><joint name='ja' damping='0.2'/><geom size='0.1'/>",
      "      <body name='b'><joint name='jb'/><geom size='0.1'/>",
      "        <body name='c'><joint name='jc' type='slide'/><geom size='0.1'/>",
      "          <body name='d'><joint name='jd' stiffness='10' springref='30'/><geom size='0.1'/></body>",
      "        </body>",
      "      </body>",
      "    </body>",
      "  </worldbody>",
      "  <actuator>",
      "    <position joint='ja' kp='100' kv='5' gear='2' forcerange='-3 3'/>",
      "    <velocity joint='jb' kv='7'/>",
      "    <motor name='m' joint='jc' gear='4' ctrlrange='-1 1'/>",
      "  </actuator>",
      "</mujoco>",
  });
  const auto r = mjcf_ok(xml);
  INFO(all_warnings(r));
  CHECK(r.warnings.size() == 1);  // the motor: a direct torque input the simulation lacks
  CHECK(has_warning(r, "test.xml:15: <motor>: ", "is left passive"));
  CHECK(r.has_gravity);
  CHECK_FALSE(r.has_timestep);
  CHECK(near(r.scene.gravity, Vec3(0, 0, -3)));
  REQUIRE(r.scene.joints.size() == 4);
  const sim::JointSpec& a = r.scene.joints[0];
  CHECK(a.drive == sim::DriveMode::Position);
  CHECK(a.stiffness == Approx(400));       // gear² kp
  CHECK(a.damping == Approx(20 + 0.2));    // gear² kv + joint damping
  CHECK(a.max_force == Approx(6));         // gear · forcerange
  const sim::JointSpec& b = r.scene.joints[1];
  CHECK(b.drive == sim::DriveMode::Velocity);
  CHECK(b.damping == Approx(7));
  CHECK(b.stiffness == 0);
  const sim::JointSpec& c = r.scene.joints[2];
  CHECK(c.drive == sim::DriveMode::None);  // a motor is recorded, not a drive
  const sim::JointSpec& d = r.scene.joints[3];
  CHECK(d.drive == sim::DriveMode::Position);  // joint spring
  CHECK(d.stiffness == Approx(10));
  CHECK(d.target == Approx(30 * std::numbers::pi / 180));
  REQUIRE(r.actuators.size() == 3);
  CHECK(r.actuators[0].kind == sim::RobotActuator::Kind::Position);
  CHECK(r.actuators[0].gear == 2);
  CHECK(r.actuators[0].force_limited);
  CHECK(r.actuators[2].kind == sim::RobotActuator::Kind::Motor);
  CHECK(r.actuators[2].name == "m");
  CHECK(r.actuators[2].gear == 4);
  CHECK(r.actuators[2].ctrl_limited);
  CHECK(r.actuators[2].ctrl_upper == 1);
  CHECK(r.actuators[2].joint_index == 2);
  sim::SceneSpec scene = placed(r);
  CHECK(near(scene.gravity, Vec3(0, 0, -3)));
  compile_ok(scene);
}

TEST_CASE("MJCF: geoms (fromto, mass, visual-only, ellipsoid) and inertials", "[unit][import]") {
  const std::string xml = xml_lines({
      "<mujoco>",
      "  <worldbody>",
      "    <body name='a'>",
      "      <freejoint/>",
      "      <geom type='capsule' fromto='0 0 0 0.4 0 0' size='0.05' mass='2'/>",
      "      <geom type='box' size='0.1 0.1 0.1' contype='0' conaffinity='0' mass='1'/>",
      "      <geom type='ellipsoid' size='0.1 0.2 0.3' pos='0 0 1'/>",
      "    </body>",
      "    <body name='b' pos='1 0 0'>",
      "      <joint type='ball'/>",
      "      <inertial pos='0.1 0 0' quat='0.9238795325112867 0 0 0.3826834323650898' mass='3' diaginertia='0.1 0.2 0.3'/>",
      "      <geom type='sphere' size='0.1'/>",
      "    </body>",
      "  </worldbody>",
      "</mujoco>",
  });
  const auto r = mjcf_ok(xml);
  const sim::BodySpec& a = r.scene.bodies[0];
  REQUIRE(a.shapes.size() == 2);  // the visual-only box is not a collision shape...
  CHECK(a.shapes[0].type == sim::ShapeType::Capsule);
  CHECK(a.shapes[0].half_length == Approx(0.2));
  CHECK(near(a.shapes[0].local.pos, Vec3(0.2, 0, 0)));
  CHECK(near(a.shapes[0].local.rot * Vec3::UnitZ(), Vec3::UnitX()));
  CHECK(a.shapes[1].type == sim::ShapeType::Ellipsoid);
  const Real ellipsoid_mass = 1000 * 4.0 / 3 * std::numbers::pi * 0.1 * 0.2 * 0.3;  // exact
  CHECK(a.mass == Approx(3 + ellipsoid_mass).epsilon(1e-9));                        // ...the box has mass too
  CHECK(r.visuals.size() == 4);
  // The inertial: mass, com, and the tensor's axes rotated 45 degrees about z.
  const sim::BodySpec& b = r.scene.bodies[1];
  CHECK(b.mass == Approx(3));
  CHECK(near(b.com, Vec3(0.1, 0, 0)));
  const sim::Mat3 rot = b.inertia_frame.toRotationMatrix();
  const sim::Mat3 tensor = rot * b.inertia.asDiagonal() * rot.transpose();
  const sim::Mat3 r45 = Quat(Eigen::AngleAxis<Real>(std::numbers::pi_v<Real> / 4, Vec3::UnitZ())).toRotationMatrix();
  const sim::Mat3 expected = r45 * Vec3(0.1, 0.2, 0.3).asDiagonal() * r45.transpose();
  CHECK((tensor - expected).norm() < 1e-9);
  CHECK(r.scene.joints[0].type == sim::JointType::Ball);
  compile_ok(placed(r));
}

// ---- URDF details ----------------------------------------------------------------------------

TEST_CASE("URDF: full inertia tensors, origins and the kinematic tree", "[unit][import]") {
  const std::string xml = xml_lines({
      "<robot name='r'>",
      "  <link name='base'>",
      "    <inertial><origin xyz='0.1 0.2 0.3' rpy='0.3 -0.2 0.5'/><mass value='2'/>",
      "      <inertia ixx='0.3' ixy='0.05' ixz='-0.02' iyy='0.4' iyz='0.01' izz='0.5'/></inertial>",
      "    <collision><origin xyz='0 0 0.1'/><geometry><box size='0.2 0.2 0.2'/></geometry></collision>",
      "  </link>",
      "  <link name='l1'><inertial><mass value='1'/><inertia ixx='0.01' iyy='0.01' izz='0.01'/></inertial></link>",
      "  <link name='l2'><inertial><mass value='1'/><inertia ixx='0.01' iyy='0.01' izz='0.01'/></inertial></link>",
      "  <joint name='j1' type='revolute'><parent link='base'/><child link='l1'/>",
      "    <origin xyz='0 0 1' rpy='0 1.5707963267948966 0'/><axis xyz='0 1 0'/><limit lower='-1' upper='1'/></joint>",
      "  <joint name='j2' type='prismatic'><parent link='l1'/><child link='l2'/>",
      "    <origin xyz='0.5 0 0' rpy='0.1 0.2 0.3'/><axis xyz='0 0 2'/><limit lower='0' upper='0.2'/></joint>",
      "</robot>",
  });
  const auto r = urdf_ok(xml);
  CHECK(r.warnings.empty());
  REQUIRE(r.scene.bodies.size() == 3);
  // Child frames composed from the joint origins: R = Rz(yaw) Ry(pitch) Rx(roll).
  const auto rpy = [](Real roll, Real pitch, Real yaw) {
    return Quat(Eigen::AngleAxis<Real>(yaw, Vec3::UnitZ()) * Eigen::AngleAxis<Real>(pitch, Vec3::UnitY()) *
                Eigen::AngleAxis<Real>(roll, Vec3::UnitX()));
  };
  const Pose p1{Vec3(0, 0, 1), rpy(0, std::numbers::pi_v<Real> / 2, 0)};
  const Pose p2 = p1 * Pose{Vec3(0.5, 0, 0), rpy(Real(0.1), Real(0.2), Real(0.3))};
  CHECK(near(r.scene.bodies[1].pose.pos, p1.pos));
  CHECK(same_rotation(r.scene.bodies[1].pose.rot, p1.rot));
  CHECK(near(r.scene.bodies[2].pose.pos, p2.pos));
  CHECK(same_rotation(r.scene.bodies[2].pose.rot, p2.rot));
  CHECK(near(r.scene.bodies[2].pose.pos, Vec3(0, 0, 0.5)));  // x of l1 points down
  CHECK(near(r.scene.joints[1].axis, Vec3::UnitZ()));        // normalised
  check_joint_frames(r.scene);

  // The full tensor, rotated by the inertial rpy, ends in the body frame exactly.
  const sim::BodySpec& base = r.scene.bodies[0];
  CHECK(base.mass == 2);
  CHECK(near(base.com, Vec3(0.1, 0.2, 0.3)));
  sim::Mat3 authored;
  authored << 0.3, 0.05, -0.02, 0.05, 0.4, 0.01, -0.02, 0.01, 0.5;
  const sim::Mat3 rr = rpy(Real(0.3), Real(-0.2), Real(0.5)).toRotationMatrix();
  const sim::Mat3 expected = rr * authored * rr.transpose();
  const sim::Mat3 q = base.inertia_frame.toRotationMatrix();
  CHECK((q * base.inertia.asDiagonal() * q.transpose() - expected).norm() < 1e-12);
  // And compile_model keeps it: principal moments and com frame axes in the world.
  const sim::Model model = compile_ok(placed(r));
  Eigen::SelfAdjointEigenSolver<sim::Mat3> eig(expected);
  Vec3 moments = model.body_inertia[0];
  std::sort(moments.data(), moments.data() + 3);
  CHECK(near(moments, eig.eigenvalues(), Real(1e-12)));
  const sim::Mat3 world = model.body_initial_pose[0].rot.toRotationMatrix();
  CHECK((world * model.body_inertia[0].asDiagonal() * world.transpose() - expected).norm() < 1e-12);
  CHECK(near(model.body_initial_pose[0].pos, Vec3(0.1, 0.2, 0.3)));
}

TEST_CASE("URDF: a world link, floating and unconnected links", "[unit][import]") {
  const std::string xml = xml_lines({
      "<robot name='r'>",                                                                          // 1
      "  <link name='world'/>",                                                                    // 2
      "  <link name='base'><collision><geometry><sphere radius='0.1'/></geometry></collision></link>",  // 3
      "  <link name='free'><collision><geometry><box size='0.1 0.1 0.1'/></geometry></collision></link>",  // 4
      "  <link name='loose'><inertial><mass value='1'/><inertia ixx='1' iyy='1' izz='1'/></inertial></link>",  // 5
      "  <joint name='anchor' type='fixed'><parent link='world'/><child link='base'/><origin xyz='0 0 2'/></joint>",
      "  <joint name='f' type='floating'><parent link='base'/><child link='free'/><origin xyz='1 0 0'/></joint>",
      "</robot>",
  });
  const auto r = urdf_ok(xml);
  CHECK(r.links.size() == 4);
  CHECK(r.links[0].body == -1);
  REQUIRE(r.scene.bodies.size() == 3);
  CHECK(r.scene.bodies[0].name == "base");
  CHECK(r.scene.bodies[0].fixed);  // fixed to the world link
  CHECK(near(r.scene.bodies[0].pose.pos, Vec3(0, 0, 2)));
  CHECK_FALSE(r.scene.bodies[1].fixed);  // floating: free, placed by its origin
  CHECK(near(r.scene.bodies[1].pose.pos, Vec3(1, 0, 2)));
  CHECK(r.scene.joints.empty());
  CHECK(r.scene.bodies[0].mass == Approx(1000 * 4.0 / 3 * std::numbers::pi * 0.001));
  CHECK(has_warning(r, "test.urdf:5: <link>: ", "'loose' is connected to nothing"));
  CHECK(has_warning(r, "test.urdf:3: <link>: ", "has no <inertial>"));
  CHECK(r.root_body == 0);
  compile_ok(placed(r, Pose{Vec3(0, 0, 1), Quat::Identity()}, false));
}

// ---- errors and warnings ---------------------------------------------------------------------

TEST_CASE("URDF: malformed files give errors with file, line and element", "[unit][import]") {
  const auto err = [](std::initializer_list<const char*> lines) { return sim::parse_urdf(xml_lines(lines), "bad.urdf"); };
  // XML syntax error.
  check_error(err({"<robot name='r'>", "  <link name='a'>", "  </linx>", "</robot>"}), "bad.urdf", 2, "link",
              "XML syntax error");
  // Not a URDF.
  check_error(err({"<scene/>"}), "bad.urdf", 1, "scene", "the root element must be <robot>");
  check_error(err({"<robot name='r'/>"}), "bad.urdf", 1, "robot", "the robot has no <link>");
  // A joint to a missing link: the <child> element's line.
  check_error(err({"<robot name='r'>", "  <link name='a'/>", "  <joint name='j' type='fixed'>",
                   "    <parent link='a'/>", "    <child link='b'/>", "  </joint>", "</robot>"}),
              "bad.urdf", 5, "child", "unknown link 'b'");
  // Negative mass.
  check_error(err({"<robot name='r'>", "  <link name='a'>", "    <inertial>", "      <mass value='-1'/>",
                   "    </inertial>", "  </link>", "</robot>"}),
              "bad.urdf", 4, "mass", "attribute 'value': must be >= 0");
  // A bad number.
  check_error(err({"<robot name='r'>", "  <link name='a'>", "    <collision><origin xyz='0 0 x'/>",
                   "      <geometry><box size='1 1 1'/></geometry></collision>", "  </link>", "</robot>"}),
              "bad.urdf", 3, "origin", "malformed number 'x'");
  check_error(err({"<robot name='r'>", "  <link name='a'>", "    <collision><geometry>",
                   "      <box size='1 1'/></geometry></collision>", "  </link>", "</robot>"}),
              "bad.urdf", 4, "box", "expected 3 numbers, got 2");
  check_error(err({"<robot name='r'>", "  <link name='a'>", "    <collision><geometry>",
                   "      <sphere radius='0'/></geometry></collision>", "  </link>", "</robot>"}),
              "bad.urdf", 4, "sphere", "must be > 0");
  // Unknown joint type, missing attributes, duplicates, limits, cycles, two parents.
  check_error(err({"<robot name='r'>", "  <link name='a'/>", "  <link name='b'/>",
                   "  <joint name='j' type='hinge'><parent link='a'/><child link='b'/></joint>", "</robot>"}),
              "bad.urdf", 4, "joint", "unknown joint type 'hinge'");
  check_error(err({"<robot name='r'>", "  <link/>", "</robot>"}), "bad.urdf", 2, "link",
              "missing required attribute 'name'");
  check_error(err({"<robot name='r'>", "  <link name='a'/>", "  <link name='a'/>", "</robot>"}), "bad.urdf", 3,
              "link", "duplicate link name 'a'");
  check_error(err({"<robot name='r'>", "  <link name='a'/>", "  <link name='b'/>",
                   "  <joint name='j' type='revolute'><parent link='a'/><child link='b'/>",
                   "    <limit lower='1' upper='-1'/></joint>", "</robot>"}),
              "bad.urdf", 5, "limit", "lower limit '1' above upper limit '-1'");
  check_error(err({"<robot name='r'>", "  <link name='a'/>", "  <link name='b'/>", "  <link name='c'/>",
                   "  <joint name='j1' type='fixed'><parent link='a'/><child link='b'/></joint>",
                   "  <joint name='j2' type='fixed'><parent link='c'/><child link='b'/></joint>", "</robot>"}),
              "bad.urdf", 6, "joint", "link 'b' already has a parent (joint 'j1')");
  check_error(err({"<robot name='r'>", "  <link name='a'/>", "  <link name='b'/>",
                   "  <joint name='j1' type='fixed'><parent link='a'/><child link='b'/></joint>",
                   "  <joint name='j2' type='fixed'><parent link='b'/><child link='a'/></joint>", "</robot>"}),
              "bad.urdf", 5, "joint", "cycle");
  check_error(err({"<robot name='r'>", "  <link name='a'/>", "  <link name='b'/>",
                   "  <joint name='j1' type='revolute'><parent link='a'/><child link='b'/>",
                   "    <axis xyz='0 0 0'/></joint>", "</robot>"}),
              "bad.urdf", 5, "axis", "the axis must not be zero");
  // A file that does not exist.
  auto missing = sim::import_urdf("/nonexistent/robot.urdf");
  REQUIRE_FALSE(missing.ok());
  CHECK(missing.error().rfind("/nonexistent/robot.urdf: ", 0) == 0);
}

TEST_CASE("MJCF: malformed files give errors with file, line and element", "[unit][import]") {
  const auto err = [](std::initializer_list<const char*> lines) { return sim::parse_mjcf(xml_lines(lines), "bad.xml"); };
  check_error(err({"<mujoco>", "  <worldbody>", "    <body>", "  </worldbody>", "</mujoco>"}), "bad.xml", 3,
              "body", "XML syntax error");
  check_error(err({"<robot/>"}), "bad.xml", 1, "robot", "the root element must be <mujoco>");
  check_error(err({"<mujoco>", "  <worldbody>", "    <body pos='0 0 nan'><geom size='1'/></body>", "  </worldbody>",
                   "</mujoco>"}),
              "bad.xml", 3, "body", "attribute 'pos': malformed number 'nan'");
  check_error(err({"<mujoco>", "  <worldbody>", "    <body>", "      <inertial mass='-2' diaginertia='1 1 1'/>",
                   "    </body>", "  </worldbody>", "</mujoco>"}),
              "bad.xml", 4, "inertial", "attribute 'mass': must be >= 0");
  check_error(err({"<mujoco>", "  <worldbody>", "    <geom type='mesh' mesh='nothing'/>", "  </worldbody>",
                   "</mujoco>"}),
              "bad.xml", 3, "geom", "unknown mesh 'nothing'");
  check_error(err({"<mujoco>", "  <worldbody><body><joint name='j'/><geom size='1'/></body></worldbody>",
                   "  <actuator>", "    <motor joint='k'/>", "  </actuator>", "</mujoco>"}),
              "bad.xml", 4, "motor", "unknown joint 'k'");
  check_error(err({"<mujoco>", "  <compiler angle='gradian'/>", "</mujoco>"}), "bad.xml", 2, "compiler",
              "expected degree or radian");
  check_error(err({"<mujoco>", "  <worldbody>", "    <body><joint type='screw'/><geom size='1'/></body>",
                   "  </worldbody>", "</mujoco>"}),
              "bad.xml", 3, "joint", "unknown joint type 'screw'");
  check_error(err({"<mujoco>", "  <worldbody>", "    <geom type='box' size='1 1'/>", "  </worldbody>", "</mujoco>"}),
              "bad.xml", 3, "geom", "needs at least 3 numbers");
  // A default's attribute is reported where it is written.
  check_error(err({"<mujoco>", "  <default>", "    <geom size='0.1 oops'/>", "  </default>", "  <worldbody>",
                   "    <geom/>", "  </worldbody>", "</mujoco>"}),
              "bad.xml", 3, "geom", "malformed number 'oops'");
}

TEST_CASE("unsupported elements and attributes are warnings, and skipped", "[unit][import]") {
  const auto urdf = urdf_ok(xml_lines({
      "<robot name='r' xmlns:xacro='http://www.ros.org/wiki/xacro'>",                          // 1
      "  <link name='a' colour='red'>",                                                        // 2
      "    <inertial><mass value='1'/><inertia ixx='1' iyy='1' izz='1'/></inertial>",          // 3
      "    <sensor name='s'/>",                                                                // 4
      "  </link>",                                                                             // 5
      "  <link name='b'><inertial><mass value='1'/><inertia ixx='1' iyy='1' izz='1'/></inertial></link>",  // 6
      "  <joint name='p' type='planar'><parent link='a'/><child link='b'/></joint>",           // 7
      "  <transmission name='t'><joint name='p'/></transmission>",                             // 8
      "  <gazebo reference='a'/>",                                                             // 9
      "</robot>",                                                                              // 10
  }));
  CHECK(has_warning(urdf, "test.urdf:2: <link>: ", "unsupported attribute 'colour'"));
  CHECK(has_warning(urdf, "test.urdf:4: <sensor>: ", "unsupported element"));
  CHECK(has_warning(urdf, "test.urdf:7: <joint>: ", "planar joints are not supported"));
  CHECK(has_warning(urdf, "test.urdf:8: <transmission>: ", "transmissions are ignored"));
  CHECK(has_warning(urdf, "test.urdf:9: <gazebo>: ", "unsupported element"));
  CHECK(urdf.scene.bodies.size() == 2);
  CHECK(urdf.scene.joints.empty());  // the planar child is a free body
  CHECK(urdf.joints[0].kind == sim::RobotJointKind::Planar);

  const auto mjcf = mjcf_ok(xml_lines({
      "<mujoco model='m'>",                                               // 1
      "  <option timestep='0.01' integrator='RK4'/>",                    // 2
      "  <worldbody>",                                                    // 3
      "    <light pos='0 0 3'/>",                                         // 4
      "    <body name='a'>",                                              // 5
      "      <joint name='j1' armature='0.1'/>",                          // 6
      "      <joint name='j2'/>",                                         // 7
      "      <geom type='hfield' size='1 1 1'/>",                         // 8
      "      <geom size='0.1' fluidshape='ellipsoid'/>",                  // 9
      "    </body>",                                                      // 10
      "  </worldbody>",                                                   // 11
      "  <sensor><jointpos joint='j1'/></sensor>",                        // 12
      "  <tendon/>",                                                      // 13
      "</mujoco>",                                                        // 14
  }));
  CHECK(has_warning(mjcf, "test.xml:2: <option>: ", "'integrator' is not supported"));
  CHECK(has_warning(mjcf, "test.xml:4: <light>: ", "unsupported element"));
  CHECK_FALSE(has_warning(mjcf, "test.xml:6: <joint>: ", "armature"));  // a hinge's armature is simulated
  CHECK(has_warning(mjcf, "test.xml:8: <geom>: ", "'hfield' is not supported"));
  CHECK(has_warning(mjcf, "test.xml:9: <geom>: ", "unsupported attribute 'fluidshape'"));
  CHECK(has_warning(mjcf, "test.xml:12: <sensor>: ", "unsupported element"));
  CHECK(has_warning(mjcf, "test.xml:13: <tendon>: ", "unsupported element"));
  CHECK(mjcf.scene.joints.size() == 2);  // two hinges of one body: a chain through a frame body
  CHECK(mjcf.joints.size() == 2);
  CHECK(mjcf.joints[1].joint == 1);
  REQUIRE(mjcf.joints[0].joint >= 0);
  CHECK(mjcf.scene.joints[static_cast<std::size_t>(mjcf.joints[0].joint)].armature == Approx(0.1));
  CHECK(mjcf.scene.dt == Approx(0.01));
  compile_ok(placed(mjcf));
}

TEST_CASE("missing or unreadable meshes fall back to a box with a warning", "[unit][import]") {
  const fs::path dir = test::scratch_dir("robot_import_missing");
  test::write_file(dir / "meshes" / "garbage.stl", "this is not a mesh\n");
  const std::string urdf = xml_lines({
      "<robot name='r'>",                                                                         // 1
      "  <link name='a'>",                                                                        // 2
      "    <inertial><mass value='3'/><inertia ixx='0.05' iyy='0.1' izz='0.13'/></inertial>",     // 3
      "    <collision><origin xyz='0 0 1'/>",                                                     // 4
      "      <geometry><mesh filename='package://nowhere/meshes/gone.stl'/></geometry>",          // 5
      "    </collision>",                                                                         // 6
      "    <visual><geometry><mesh filename='meshes/gone.dae'/></geometry></visual>",             // 7
      "  </link>",                                                                                // 8
      "  <link name='b'>",                                                                        // 9
      "    <collision><geometry><mesh filename='meshes/garbage.stl'/></geometry></collision>",    // 10
      "  </link>",                                                                                // 11
      "  <joint name='j' type='continuous'><parent link='a'/><child link='b'/></joint>",          // 12
      "</robot>",                                                                                 // 13
  });
  const fs::path file = dir / "r.urdf";
  test::write_file(file, urdf);
  auto r = sim::import_urdf(file.string());
  INFO((r.ok() ? all_warnings(r.value()) : r.error()));
  REQUIRE(r.ok());
  const auto& robot = r.value();
  const std::string f = file.string();
  CHECK(has_warning(robot, f + ":5: <mesh>: ", "cannot find 'package://nowhere/meshes/gone.stl'"));
  CHECK(has_warning(robot, f + ":7: <mesh>: ", "cannot find 'meshes/gone.dae'"));
  CHECK(has_warning(robot, f + ":10: <mesh>: ", "garbage.stl"));
  // Sized from the inertia: a uniform 3 kg box with moments 0.05, 0.1, 0.13 has edges 0.6, 0.4, 0.2.
  const sim::ShapeSpec& box = robot.scene.bodies[0].shapes.at(0);
  CHECK(box.type == sim::ShapeType::Box);
  CHECK(near(box.half_extents, Vec3(0.3, 0.2, 0.1), Real(1e-9)));
  CHECK(robot.scene.bodies[0].mass == 3);  // the authored inertial stays
  // Without an inertial: a 5 cm cube, whose mass the link then gets.
  const sim::ShapeSpec& cube = robot.scene.bodies[1].shapes.at(0);
  CHECK(cube.type == sim::ShapeType::Box);
  CHECK(near(cube.half_extents, Vec3::Constant(0.025)));
  CHECK(robot.scene.bodies[1].mass == Approx(1000 * 0.05 * 0.05 * 0.05));
  // The missing visual: link a is drawn as its collision geometry (the stand-in box).
  CHECK(has_warning(robot, f + ":7: <mesh>: ", "the link is drawn as its collision geometry"));
  REQUIRE(robot.visuals.size() == 1);
  CHECK(robot.visuals[0].geometry == sim::RobotVisual::Geometry::Box);
  CHECK(near(robot.visuals[0].half_extents, Vec3(0.3, 0.2, 0.1), Real(1e-9)));
  CHECK(robot.visuals[0].body == 0);
  compile_ok(placed(robot));

  // MJCF: a mesh asset whose file is missing.
  const std::string mjcf = xml_lines({
      "<mujoco>",
      "  <asset><mesh name='m' file='gone.obj'/></asset>",
      "  <worldbody><body><freejoint/><geom type='mesh' mesh='m'/></body></worldbody>",
      "</mujoco>",
  });
  const auto m = mjcf_ok(mjcf, {}, (dir / "m.xml").string());
  CHECK(has_warning(m, (dir / "m.xml").string() + ":3: <geom>: ", "cannot find mesh file"));
  REQUIRE(m.scene.bodies[0].shapes.size() == 1);
  CHECK(m.scene.bodies[0].shapes[0].type == sim::ShapeType::Box);
  compile_ok(placed(m));
}

namespace {

std::string base64(const std::string& bytes) {
  static const char* table = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  std::size_t i = 0;
  for (; i + 2 < bytes.size(); i += 3) {
    const unsigned v = (static_cast<unsigned char>(bytes[i]) << 16) | (static_cast<unsigned char>(bytes[i + 1]) << 8) |
                       static_cast<unsigned char>(bytes[i + 2]);
    for (int k = 3; k >= 0; --k) out += table[(v >> (6 * k)) & 63];
  }
  if (i < bytes.size()) {
    unsigned v = static_cast<unsigned char>(bytes[i]) << 16;
    if (i + 1 < bytes.size()) v |= static_cast<unsigned char>(bytes[i + 1]) << 8;
    out += table[(v >> 18) & 63];
    out += table[(v >> 12) & 63];
    out += i + 1 < bytes.size() ? table[(v >> 6) & 63] : '=';
    out += '=';
  }
  return out;
}

// A unit cube ([0,1]^3) as OBJ text, a glTF (embedded buffer) and a Collada file.
const char* kCubeObj =
    "v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nv 0 0 1\nv 1 0 1\nv 1 1 1\nv 0 1 1\n"
    "f 1 4 3 2\nf 5 6 7 8\nf 1 2 6 5\nf 2 3 7 6\nf 3 4 8 7\nf 4 1 5 8\n";

std::string cube_gltf() {
  const float v[8][3] = {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}, {0, 0, 1}, {1, 0, 1}, {1, 1, 1}, {0, 1, 1}};
  const unsigned short idx[36] = {0, 3, 2, 0, 2, 1, 4, 5, 6, 4, 6, 7, 0, 1, 5, 0, 5, 4,
                                  1, 2, 6, 1, 6, 5, 2, 3, 7, 2, 7, 6, 3, 0, 4, 3, 4, 7};
  std::string bytes(reinterpret_cast<const char*>(v), sizeof v);
  bytes.append(reinterpret_cast<const char*>(idx), sizeof idx);
  return std::string("{\"asset\":{\"version\":\"2.0\"},\"scene\":0,\"scenes\":[{\"nodes\":[0]}],") +
         "\"nodes\":[{\"mesh\":0}],\"meshes\":[{\"primitives\":[{\"attributes\":{\"POSITION\":0},\"indices\":1}]}]," +
         "\"buffers\":[{\"byteLength\":168,\"uri\":\"data:application/octet-stream;base64," + base64(bytes) + "\"}]," +
         "\"bufferViews\":[{\"buffer\":0,\"byteOffset\":0,\"byteLength\":96},{\"buffer\":0,\"byteOffset\":96,\"byteLength\":72}]," +
         "\"accessors\":[{\"bufferView\":0,\"componentType\":5126,\"count\":8,\"type\":\"VEC3\",\"min\":[0,0,0],\"max\":[1,1,1]}," +
         "{\"bufferView\":1,\"componentType\":5123,\"count\":36,\"type\":\"SCALAR\"}]}";
}

const char* kCubeDae = R"(<?xml version="1.0" encoding="utf-8"?>
<COLLADA xmlns="http://www.collada.org/2005/11/COLLADASchema" version="1.4.1">
  <asset><unit name="centimeter" meter="0.01"/><up_axis>Z_UP</up_axis></asset>
  <library_geometries><geometry id="cube" name="cube"><mesh>
    <source id="p"><float_array id="pa" count="24">0 0 0 1 0 0 1 1 0 0 1 0 0 0 1 1 0 1 1 1 1 0 1 1</float_array>
      <technique_common><accessor source="#pa" count="8" stride="3"><param name="X" type="float"/><param name="Y" type="float"/><param name="Z" type="float"/></accessor></technique_common></source>
    <vertices id="v"><input semantic="POSITION" source="#p"/></vertices>
    <triangles count="12"><input semantic="VERTEX" source="#v" offset="0"/>
      <p>0 3 2 0 2 1 4 5 6 4 6 7 0 1 5 0 5 4 1 2 6 1 6 5 2 3 7 2 7 6 3 0 4 3 4 7</p></triangles>
  </mesh></geometry></library_geometries>
  <library_visual_scenes><visual_scene id="s"><node id="n"><instance_geometry url="#cube"/></node></visual_scene></library_visual_scenes>
  <scene><instance_visual_scene url="#s"/></scene>
</COLLADA>
)";

}  // namespace

TEST_CASE("mesh formats (OBJ, glTF, DAE, STL), scale and package:// resolution", "[unit][import]") {
  const fs::path dir = test::scratch_dir("robot_import_formats");
  test::write_file(dir / "pkgs" / "props" / "meshes" / "cube.obj", kCubeObj);
  test::write_file(dir / "pkgs" / "props" / "meshes" / "cube.gltf", cube_gltf());
  test::write_file(dir / "pkgs" / "props" / "meshes" / "cube.dae", kCubeDae);
  const std::string urdf = xml_lines({
      "<robot name='r'>",
      "  <link name='a'>",
      "    <inertial><mass value='1'/><inertia ixx='1' iyy='1' izz='1'/></inertial>",
      "    <collision><geometry><mesh filename='package://props/meshes/cube.obj' scale='0.1 0.2 0.3'/></geometry></collision>",
      "    <collision><geometry><mesh filename='package://props/meshes/cube.gltf' scale='0.5'/></geometry></collision>",
      "    <collision><geometry><mesh filename='package://props/meshes/cube.dae'/></geometry></collision>",
      "    <visual><geometry><mesh filename='package://props/meshes/cube.obj' scale='-1 1 1'/></geometry></visual>",
      "  </link>",
      "</robot>",
  });
  const fs::path file = dir / "robot" / "r.urdf";
  test::write_file(file, urdf);

  // Not found without a package path (the URDF's ancestors hold no folder "props").
  auto lost = sim::import_urdf(file.string());
  REQUIRE(lost.ok());
  CHECK(has_warning(lost.value(), file.string() + ":4: <mesh>: ", "cannot find 'package://props/meshes/cube.obj'"));

  sim::ImportOptions options;
  options.package_paths = {(dir / "pkgs").string()};
  auto r = sim::import_urdf(file.string(), options);
  INFO((r.ok() ? all_warnings(r.value()) : r.error()));
  REQUIRE(r.ok());
  const auto& robot = r.value();
  CHECK(robot.warnings.empty());
  const auto& shapes = robot.scene.bodies.at(0).shapes;
  REQUIRE(shapes.size() == 3);
  const auto extent = [](const sim::ShapeSpec& s) {
    Vec3 lo = Vec3::Constant(1e9), hi = Vec3::Constant(-1e9);
    for (const Vec3& v : s.vertices) lo = lo.cwiseMin(v), hi = hi.cwiseMax(v);
    return std::make_pair(lo, hi);
  };
  for (const auto& s : shapes) {
    CHECK(s.type == sim::ShapeType::ConvexMesh);
    CHECK(s.vertices.size() == 8);
  }
  CHECK(near(extent(shapes[0]).second, Vec3(0.1, 0.2, 0.3), Real(1e-6)));    // OBJ, scaled per axis
  CHECK(near(extent(shapes[1]).second, Vec3(0.5, 0.5, 0.5), Real(1e-6)));    // glTF, uniform scale
  CHECK(near(extent(shapes[2]).second, Vec3(0.01, 0.01, 0.01), Real(1e-6)));  // DAE in centimetres, Z up kept
  CHECK(near(extent(shapes[2]).first, Vec3::Zero(), Real(1e-6)));
  // The mirrored visual keeps its triangles outward (positive volume).
  REQUIRE(robot.visuals.size() == 1);
  REQUIRE(robot.visuals[0].mesh >= 0);
  const sim::TriangleMesh& mirrored = robot.meshes[robot.visuals[0].mesh];
  double volume = 0;
  for (const auto& t : mirrored.triangles)
    volume += mirrored.vertices[t[0]].dot(mirrored.vertices[t[1]].cross(mirrored.vertices[t[2]])) / 6;
  CHECK(volume == Approx(1.0));
  Real min_x = 0;
  for (const Vec3& p : mirrored.vertices) min_x = std::min(min_x, p.x());
  CHECK(min_x == Approx(-1.0));

  // The package folder itself may be given, and is found next to an ancestor of the URDF.
  options.package_paths = {(dir / "pkgs" / "props").string()};
  CHECK(sim::import_urdf(file.string(), options).value().warnings.empty());
  test::write_file(dir / "robot" / "nested" / "deeper" / "r.urdf", urdf);
  fs::copy(dir / "pkgs" / "props", dir / "robot" / "props", fs::copy_options::recursive);
  CHECK(sim::import_urdf((dir / "robot" / "nested" / "deeper" / "r.urdf").string()).value().warnings.empty());
}
