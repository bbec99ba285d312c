// Scene writer (sim/src/io/scene_xml_writer.cpp): every shipped scene survives write -> parse with
// identical SceneSpec values, and saving is atomic (no partial or stray file when it fails).
#include <catch2/catch.hpp>

#include <sys/resource.h>

#include <cmath>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "app/spec_equal.hpp"
#include "gui/scene_properties.hpp"
#include "sim/resource_policy.hpp"
#include "sim/compile.hpp"
#include "sim/scene_io.hpp"
#include "support/shared_robots.hpp"
#include "support/scratch_files.hpp"

namespace fs = std::filesystem;

namespace {

std::vector<fs::path> shipped_scenes() {
  std::vector<fs::path> out;
  for (const auto& e : fs::directory_iterator(fs::path(COULOMB_SOURCE_DIR) / "assets" / "scenes"))
    if (e.path().extension() == ".xml") out.push_back(e.path());
  std::sort(out.begin(), out.end());
  return out;
}

std::string read_file(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::vector<std::string> directory_listing(const fs::path& dir) {
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(dir)) names.push_back(e.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

sim::SceneSpec load(const fs::path& p) {
  auto spec = sim::load_scene_file(p.string());
  INFO((spec ? std::string("ok") : spec.error()));
  REQUIRE(spec.ok());
  return spec.value();
}

}  // namespace

TEST_CASE("every shipped scene round-trips through the writer with identical values", "[app][writer]") {
  const auto scenes = shipped_scenes();
  REQUIRE(scenes.size() >= 12);
  const fs::path dir = test::scratch_dir("app_writer_roundtrip");
  for (const fs::path& path : scenes) {
    SECTION(path.filename().string()) {
      if (test::scene_needs_shared_robots(path) && !test::shared_robots_available()) {
        WARN("skipped " << path.filename() << ": " << test::shared_robots_dir() << " not found");
        return;
      }
      const sim::SceneSpec original = load(path);
      // In memory (read as if beside the original: <robot file> paths are relative to it).
      const std::string xml = sim::write_scene_xml(original);
      auto reparsed = sim::parse_scene_xml(xml, path.string());
      INFO((reparsed ? std::string("ok") : reparsed.error()));
      REQUIRE(reparsed.ok());
      CHECK(app_test::spec_difference(original, reparsed.value()) == "");
      // Through a file, and a second generation is byte-identical to the first.
      const fs::path saved = dir / path.filename();
      auto result = sim::save_scene_file(original, saved.string());
      INFO((result ? std::string("saved") : result.error()));
      REQUIRE(result.ok());
      const sim::SceneSpec loaded = load(saved);
      CHECK(app_test::spec_difference(original, loaded) == "");
      CHECK(sim::write_scene_xml(loaded) == read_file(saved));
      if (original.robots.empty()) CHECK(read_file(saved) == xml);  // robot files are re-relativised
      // And it compiles to the same model sizes.
      auto a = sim::compile_model(original);
      auto b = sim::compile_model(loaded);
      REQUIRE(a.ok());
      REQUIRE(b.ok());
      CHECK(a->body_count == b->body_count);
      CHECK(a->shape_count == b->shape_count);
      CHECK(a->particle_count == b->particle_count);
      CHECK(a->joint_count == b->joint_count);
      CHECK(a->distance_count == b->distance_count);
    }
  }
}

TEST_CASE("the round-trip comparison names the first field that differs", "[app][writer]") {
  // The oracle of the round-trip tests must itself see a one-bit change, wherever it is.
  sim::SceneSpec a = load(fs::path(COULOMB_SOURCE_DIR) / "assets" / "scenes" / "incline.xml");
  REQUIRE(app_test::spec_difference(a, a) == "");
  REQUIRE(a.bodies.size() >= 1);
  REQUIRE(a.bodies[0].shapes.size() >= 1);
  sim::SceneSpec b = a;
  b.bodies[0].pose.rot.coeffs()[1] = std::nextafter(b.bodies[0].pose.rot.coeffs()[1], sim::Real(2));
  CHECK(app_test::spec_difference(a, b).rfind("bodies[0].pose.rot: ", 0) == 0);
  b = a;
  b.bodies[0].shapes[0].vertices.push_back(sim::Vec3(1, 2, 3));
  CHECK(app_test::spec_difference(a, b).rfind("bodies[0].shapes[0].vertices.size: ", 0) == 0);
  b = a;
  b.robots.push_back(sim::RobotIncludeSpec{});
  b.robots.back().joint_positions.emplace_back("j", sim::Real(0.5));
  a.robots.push_back(sim::RobotIncludeSpec{});
  a.robots.back().joint_positions.emplace_back("j", sim::Real(0.25));
  CHECK(app_test::spec_difference(a, b) == "robots[0].joint_positions[0].value: 0.25 vs 0.5");
}

TEST_CASE("the writer names unnamed entities as the parser would and escapes text", "[app][writer]") {
  sim::SceneSpec spec;
  spec.name = "quotes \"&\" <angles>";
  sim::MaterialSpec m;
  m.name = "a&b";
  m.friction = sim::Real(0.3);
  spec.materials.push_back(m);
  sim::BodySpec b;
  b.mass = 2;
  sim::ShapeSpec s;
  s.type = sim::ShapeType::Sphere;
  s.radius = sim::Real(0.1);
  s.material = 0;
  b.shapes.push_back(s);
  spec.bodies.push_back(b);  // unnamed
  sim::JointSpec j;
  j.type = sim::JointType::Ball;
  j.body_b = 0;
  spec.joints.push_back(j);  // unnamed
  auto parsed = sim::parse_scene_xml(sim::write_scene_xml(spec), "t.xml");
  INFO((parsed ? std::string("ok") : parsed.error()));
  REQUIRE(parsed.ok());
  CHECK(parsed->name == spec.name);
  CHECK(parsed->materials[0].name == "a&b");
  CHECK(parsed->bodies[0].name == "body0");
  CHECK(parsed->joints[0].name == "joint0");
  CHECK(parsed->joints[0].body_b == 0);
  CHECK(parsed->joints[0].body_a == -1);
}

TEST_CASE("saving replaces the file atomically and leaves nothing behind", "[app][writer]") {
  const fs::path dir = test::scratch_dir("app_writer_atomic");
  const sim::SceneSpec incline = load(fs::path(COULOMB_SOURCE_DIR) / "assets" / "scenes" / "incline.xml");
  const sim::SceneSpec cloth = load(fs::path(COULOMB_SOURCE_DIR) / "assets" / "scenes" / "cloth.xml");
  const fs::path target = dir / "scene.xml";

  SECTION("a new file, then a replacement keeping permissions") {
    REQUIRE(sim::save_scene_file(incline, target.string()).ok());
    CHECK(directory_listing(dir) == std::vector<std::string>{"scene.xml"});
    fs::permissions(target, fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read);
    REQUIRE(sim::save_scene_file(cloth, target.string()).ok());
    CHECK(directory_listing(dir) == std::vector<std::string>{"scene.xml"});
    CHECK(app_test::spec_difference(cloth, load(target)) == "");
    CHECK((fs::status(target).permissions() & fs::perms::all) ==
          (fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read));
  }

  SECTION("a failed write (file size limit) keeps the old file and removes the temporary") {
    REQUIRE(sim::save_scene_file(incline, target.string()).ok());
    const std::string before = read_file(target);
    // The cloth's XML is ~150 kB; allow 4 kB. write() then fails with EFBIG (SIGXFSZ ignored).
    auto* old_handler = std::signal(SIGXFSZ, SIG_IGN);
    rlimit old_limit{};
    REQUIRE(getrlimit(RLIMIT_FSIZE, &old_limit) == 0);
    rlimit limit = old_limit;
    limit.rlim_cur = 4096;
    REQUIRE(setrlimit(RLIMIT_FSIZE, &limit) == 0);
    auto result = sim::save_scene_file(cloth, target.string());
    setrlimit(RLIMIT_FSIZE, &old_limit);
    std::signal(SIGXFSZ, old_handler);
    REQUIRE_FALSE(result.ok());
    INFO(result.error());
    CHECK(result.error().rfind(target.string() + ": ", 0) == 0);  // names the file
    CHECK(read_file(target) == before);
    CHECK(directory_listing(dir) == std::vector<std::string>{"scene.xml"});
  }

  SECTION("a directory in the way, a missing directory, an unreadable spec") {
    const fs::path blocked = dir / "blocked.xml";
    fs::create_directories(blocked);
    auto r1 = sim::save_scene_file(incline, blocked.string());
    REQUIRE_FALSE(r1.ok());
    CHECK(r1.error().find(blocked.string()) == 0);
    const fs::path missing = dir / "no" / "such" / "dir.xml";
    auto r2 = sim::save_scene_file(incline, missing.string());
    REQUIRE_FALSE(r2.ok());
    CHECK(r2.error().find(missing.string()) == 0);
    // A spec the format cannot hold (a joint to a body that does not exist) is refused before
    // anything touches the disk.
    REQUIRE(sim::save_scene_file(incline, target.string()).ok());
    const std::string before = read_file(target);
    sim::SceneSpec broken = incline;
    sim::JointSpec j;
    j.type = sim::JointType::Fixed;
    j.body_b = 0;
    j.body_a = 0;  // to itself
    broken.joints.push_back(j);
    auto r3 = sim::save_scene_file(broken, target.string());
    REQUIRE_FALSE(r3.ok());
    CHECK(r3.error().rfind(target.string() + ": ", 0) == 0);
    CHECK(read_file(target) == before);
    CHECK(directory_listing(dir) == std::vector<std::string>{"blocked.xml", "scene.xml"});
  }
}

TEST_CASE("saving refuses what the file format cannot hold instead of dropping it", "[app][writer]") {
  const fs::path dir = test::scratch_dir("app_writer_lossy");
  const fs::path target = dir / "robot.xml";
  sim::SceneSpec spec = load(fs::path(COULOMB_SOURCE_DIR) / "assets" / "scenes" / "incline.xml");
  // Principal inertia axes rotated in the body frame (as URDF/MJCF full tensors give them): the
  // format has no attribute for them.
  sim::BodySpec& b = spec.bodies[0];
  b.mass = 8;
  b.inertia = sim::Vec3(0.1, 0.2, 0.3);
  b.inertia_frame = sim::Quat(Eigen::AngleAxis<sim::Real>(0.3, sim::Vec3::UnitZ()));
  auto result = sim::save_scene_file(spec, target.string());
  REQUIRE_FALSE(result.ok());
  INFO(result.error());
  CHECK(result.error().rfind(target.string() + ": ", 0) == 0);
  CHECK(result.error().find("inertia axes") != std::string::npos);
  CHECK(directory_listing(dir).empty());
  // With axes along the body frame it saves.
  b.inertia_frame = sim::Quat::Identity();
  CHECK(sim::save_scene_file(spec, target.string()).ok());
}

TEST_CASE("triangle meshes save inline and read back with their SDF parameters", "[app][writer]") {
  const fs::path dir = test::scratch_dir("app_writer_mesh");
  const fs::path target = dir / "mesh.xml";
  sim::SceneSpec spec = load(fs::path(COULOMB_SOURCE_DIR) / "assets" / "scenes" / "incline.xml");
  // A triangle mesh (as robot imports and <mesh file=...> make them): a tetrahedron.
  sim::ShapeSpec& s = spec.bodies[0].shapes[0];
  s.type = sim::ShapeType::ConvexMesh;
  s.vertices = {sim::Vec3(0, 0, 0), sim::Vec3(0.1, 0, 0), sim::Vec3(0, 0.1, 0), sim::Vec3(0, 0, 0.1)};
  s.triangles = {{0, 2, 1}, {0, 1, 3}, {0, 3, 2}, {1, 2, 3}};
  s.sdf_voxel_size = 0.0025;
  s.sdf_band = 4.5;
  auto result = sim::save_scene_file(spec, target.string());
  INFO((result.ok() ? std::string() : result.error()));
  REQUIRE(result.ok());
  CHECK(read_file(target).find("<mesh ") != std::string::npos);
  const sim::SceneSpec back = load(target);
  const sim::ShapeSpec& t = back.bodies[0].shapes[0];
  CHECK(t.vertices == s.vertices);
  CHECK(t.triangles == s.triangles);
  CHECK(t.sdf_voxel_size == s.sdf_voxel_size);
  CHECK(t.sdf_band == s.sdf_band);
}

// ---- robots ----------------------------------------------------------------------------------

namespace {

// A scene beside a copy of the project's arm (assets/robots/gripper_arm), referenced relatively.
fs::path robot_scene(const fs::path& dir) {
  fs::copy(fs::path(COULOMB_SOURCE_DIR) / "assets" / "robots" / "gripper_arm", dir / "gripper_arm",
           fs::copy_options::recursive);
  const fs::path scene = dir / "arm_scene.xml";
  std::ofstream(scene) << R"(<scene name="arm_scene" dt="0.0083">
  <material name="floor" friction="0.9"/>
  <world material="floor"><plane/></world>
  <body name="table" pos="0.5 0 0.2" fixed="true"><box size="0.4 0.4 0.4"/></body>
  <robot file="gripper_arm/urdf/gripper_arm.urdf" prefix="arm_" pos="0 0 0.01" euler="0 0 30"
         drive="position" stiffness="40" damping="1" self_collision="false" material="floor">
    <joint name="arm_elbow" position="0.7"/>
    <joint name="arm_shoulder_pitch" position="-0.2"><drive target="-0.1"/></joint>
  </robot>
  <body name="cube" pos="0.5 0 0.45" mass="0.2"><box size="0.05 0.05 0.05"/></body>
  <joint name="slide" type="prismatic" parent="world" child="cube" axis="1 0 0"/>
</scene>
)";
  return scene;
}

int index_of_body(const sim::SceneSpec& s, const std::string& name) {
  for (std::size_t i = 0; i < s.bodies.size(); ++i)
    if (s.bodies[i].name == name) return static_cast<int>(i);
  return -1;
}

int index_of_joint(const sim::SceneSpec& s, const std::string& name) {
  for (std::size_t i = 0; i < s.joints.size(); ++i)
    if (s.joints[i].name == name) return static_cast<int>(i);
  return -1;
}

}  // namespace

TEST_CASE("a scene with a <robot> is saved as the element, not its expansion", "[app][writer][robot]") {
  const fs::path dir = test::scratch_dir("app_writer_robot_element");
  const sim::SceneSpec original = load(robot_scene(dir));
  REQUIRE(original.robots.size() == 1);

  const fs::path same_dir = dir / "saved.xml";
  auto saved = sim::save_scene_file(original, same_dir.string());
  INFO((saved ? std::string("saved") : saved.error()));
  REQUIRE(saved.ok());
  const std::string text = read_file(same_dir);
  CHECK(text.find("<robot file=\"gripper_arm/urdf/gripper_arm.urdf\" format=\"urdf\"") != std::string::npos);
  CHECK(text.find("self_collision=\"false\"") != std::string::npos);
  CHECK(text.find("<joint name=\"arm_elbow\" position=\"0.7\"") != std::string::npos);
  CHECK(text.find("<body name=\"arm_") == std::string::npos);   // no expanded robot bodies
  CHECK(text.find("<convex") == std::string::npos);             // nor its hulls
  const sim::SceneSpec reread = load(same_dir);
  CHECK(app_test::spec_difference(original, reread) == "");
  // Where scene and robot sit is kept: the element comes after the table, before the cube.
  CHECK(text.find("name=\"table\"") < text.find("<robot"));
  CHECK(text.find("<robot") < text.find("name=\"cube\""));

  // Save As into another folder: the relative robot path is rewritten to still reach the file.
  fs::create_directories(dir / "elsewhere" / "deeper");
  const fs::path moved = dir / "elsewhere" / "deeper" / "moved.xml";
  REQUIRE(sim::save_scene_file(original, moved.string()).ok());
  // ../../gripper_arm is outside the moved scene's folder: reading it back needs a package root.
  CHECK_FALSE(sim::load_scene_file(moved.string()).ok());
  const sim::ScopedResourcePolicy roots({false, {dir.string()}});
  CHECK(read_file(moved).find("file=\"../../gripper_arm/urdf/gripper_arm.urdf\"") != std::string::npos);
  CHECK(app_test::spec_difference(original, load(moved)) == "");
}

TEST_CASE("edits of a robot's bodies and joints through the app's property path save as overrides",
          "[app][writer][robot]") {
  using namespace coulomb::gui;
  const fs::path dir = test::scratch_dir("app_writer_robot_overrides");
  sim::SceneSpec spec = load(robot_scene(dir));
  const int forearm = index_of_body(spec, "arm_forearm");
  const int elbow = index_of_joint(spec, "arm_elbow");
  const int wrist = index_of_joint(spec, "arm_wrist");
  REQUIRE(forearm >= 0);
  REQUIRE(elbow >= 0);
  REQUIRE(wrist >= 0);
  auto set = [&](ItemKind kind, int index, const std::string& name, const PropertyValue& value) {
    const std::string error = set_property(spec, PropertyKey{ItemRef{kind, index, -1}, name}, value);
    INFO(name << ": " << error);
    REQUIRE(error.empty());
  };
  set(ItemKind::Body, forearm, "pos.z", 0.9);
  set(ItemKind::Body, forearm, "mass", 0.75);
  set(ItemKind::Body, forearm, "velocity.x", 0.25);
  set(ItemKind::Joint, elbow, "stiffness", 123.0);
  set(ItemKind::Joint, elbow, "max_force", -1.0);
  set(ItemKind::Joint, elbow, "target", 0.65);
  set(ItemKind::Joint, wrist, "limited", true);
  set(ItemKind::Joint, wrist, "lower", -0.5);
  set(ItemKind::Joint, wrist, "upper", 0.5);
  set(ItemKind::Joint, wrist, "angular_compliance", 1e-4);
  set(ItemKind::Joint, wrist, "drive", std::string("velocity"));

  const fs::path path = dir / "edited.xml";
  auto saved = sim::save_scene_file(spec, path.string());
  INFO((saved ? std::string("saved") : saved.error()));
  REQUIRE(saved.ok());
  const std::string text = read_file(path);
  CHECK(text.find("<body name=\"arm_forearm\"") != std::string::npos);
  CHECK(text.find("<joint name=\"arm_wrist\" limit=\"-0.5 0.5\" angular_compliance=\"1e-04\">") != std::string::npos);
  CHECK(text.find("max_force=\"unlimited\"") != std::string::npos);
  // Unedited parts of the robot are not written.
  CHECK(text.find("name=\"arm_upper_arm\"") == std::string::npos);
  const sim::SceneSpec reread = load(path);
  CHECK(app_test::spec_difference(spec, reread) == "");
  CHECK(reread.bodies[forearm].mass == 0.75);
  CHECK(reread.joints[elbow].stiffness == 123);
  CHECK(reread.joints[elbow].max_force == -1);
  // A second generation is the same file.
  CHECK(sim::write_scene_xml(reread) == text);
}

TEST_CASE("edits the <robot> element cannot hold are refused, naming the body", "[app][writer][robot]") {
  using namespace coulomb::gui;
  const fs::path dir = test::scratch_dir("app_writer_robot_refused");
  const sim::SceneSpec original = load(robot_scene(dir));
  const fs::path path = dir / "target.xml";
  std::ofstream(path) << "previous contents\n";

  // A shape of an imported body (its geometry comes from the robot file).
  sim::SceneSpec shape_edit = original;
  const int palm = index_of_body(shape_edit, "arm_palm");
  REQUIRE(palm >= 0);
  REQUIRE(set_property(shape_edit, PropertyKey{ItemRef{ItemKind::Shape, palm, 0}, "thickness"}, 0.002).empty());
  auto refused = sim::save_scene_file(shape_edit, path.string());
  REQUIRE_FALSE(refused.ok());
  INFO(refused.error());
  CHECK(refused.error().find("shape 0 of body 'arm_palm'") != std::string::npos);
  CHECK(refused.error().find("<robot file=\"gripper_arm/urdf/gripper_arm.urdf\">") != std::string::npos);
  CHECK(refused.error().find("not saved") != std::string::npos);
  CHECK(read_file(path) == "previous contents\n");

  // Mass back to "from the shapes" (-1) cannot be an override either.
  sim::SceneSpec mass_edit = original;
  const int forearm = index_of_body(mass_edit, "arm_forearm");
  mass_edit.bodies[forearm].mass = -1;
  auto refused_mass = sim::save_scene_file(mass_edit, path.string());
  REQUIRE_FALSE(refused_mass.ok());
  CHECK(refused_mass.error().find("the mass of body 'arm_forearm'") != std::string::npos);
  CHECK(read_file(path) == "previous contents\n");
}

TEST_CASE("deleting bodies keeps the robot includes consistent, robot bodies are refused", "[app][writer][robot]") {
  const fs::path dir = test::scratch_dir("app_writer_robot_erase");
  sim::SceneSpec spec = load(robot_scene(dir));
  const sim::RobotIncludeSpec before = spec.robots[0];

  const std::string refused = sim::erase_body(spec, index_of_body(spec, "arm_forearm"));
  CHECK(refused.find("belongs to the robot included from 'gripper_arm/urdf/gripper_arm.urdf'") != std::string::npos);
  CHECK(spec.robots[0].body_count == before.body_count);

  // The table comes before the robot: the robot's bodies move down by one. The cube after it
  // takes its joint along (the joint comes after the robot's).
  REQUIRE(sim::erase_body(spec, index_of_body(spec, "table")).empty());
  CHECK(spec.robots[0].first_body == before.first_body - 1);
  CHECK(spec.robots[0].first_joint == before.first_joint);
  REQUIRE(sim::erase_body(spec, index_of_body(spec, "cube")).empty());
  CHECK(static_cast<int>(spec.joints.size()) == before.joint_count);
  for (const sim::JointSpec& j : spec.joints) CHECK(j.body_b >= spec.robots[0].first_body);
  REQUIRE(sim::compile_model(spec).ok());
  const fs::path path = dir / "erased.xml";
  auto saved = sim::save_scene_file(spec, path.string());
  INFO((saved ? std::string("saved") : saved.error()));
  REQUIRE(saved.ok());
  CHECK(app_test::spec_difference(spec, load(path)) == "");
}
