// Opening a robot description as a scene (sim/scene_io.hpp: description_kind, robot_scene,
// load_description): the root element decides the kind; the robot stands on a ground plane with
// its lowest geometry 1 mm above it (checked against the renderer's independent bounds) and holds
// its pose under the default drives; the scene is unsaved and its <robot> keeps the absolute path.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>

#include "render/orbit_camera.hpp"
#include "sim/compile.hpp"
#include "sim/inverse_kinematics.hpp"
#include "sim/scene_io.hpp"
#include "sim/step.hpp"
#include "support/scene_builders.hpp"
#include "support/shared_robots.hpp"

namespace fs = std::filesystem;

namespace {

fs::path arm_dir() { return fs::path(COULOMB_SOURCE_DIR) / "assets" / "robots" / "gripper_arm"; }

fs::path write_temp(const std::string& name, const std::string& text) {
  const fs::path dir = fs::temp_directory_path() / "coulomb_test_robot_scene";
  fs::create_directories(dir);
  const fs::path p = dir / name;
  std::ofstream(p) << text;
  return p;
}

// Opens `path` as a scene, checks where it stands and that it holds still for 1 s.
void check_standing_robot(const fs::path& path, sim::Real joint_tolerance) {
  auto spec = sim::load_description(path.string());
  INFO((spec ? std::string() : spec.error()));
  REQUIRE(spec.ok());
  CHECK(spec->source_file.empty());  // unsaved
  REQUIRE(spec->robots.size() == 1);
  CHECK(fs::path(spec->robots[0].file).is_absolute());
  CHECK(spec->name == path.stem().string());
  REQUIRE(spec->world_shapes.size() >= 1);
  CHECK(spec->world_shapes[0].type == sim::ShapeType::Plane);

  const sim::Model model = test::compile(*spec);
  sim::State state = sim::make_initial_state(model);
  // The lowest collision geometry sits 1 mm above the ground (the plane adds nothing to bounds),
  // unless the file brought its own floor.
  const bool own_floor = spec->robots[0].world_shape_count > 0;
  const render::Bounds b = render::scene_bounds(model, state.q);
  if (!own_floor) CHECK(b.lo.z == Approx(0.001).margin(1e-5));
  // Every limited joint starts inside its limits.
  for (int j = 0; j < model.joint_count; ++j)
    if (spec->joints[std::size_t(j)].limited) {
      const sim::Real q = sim::chain_positions(model, state, sim::joint_chain(model, model.joint_body_b[std::size_t(j)])).back();
      CHECK(q >= spec->joints[std::size_t(j)].lower - 1e-9);
      CHECK(q <= spec->joints[std::size_t(j)].upper + 1e-9);
    }

  // Each driven joint's coordinate: the last of the chain that ends at its child body.
  auto coordinate = [&](const sim::State& s, int j) {
    return sim::chain_positions(model, s, sim::joint_chain(model, model.joint_body_b[std::size_t(j)])).back();
  };
  const sim::State initial = state;
  const sim::Control control = sim::make_initial_control(model);
  sim::Workspace ws;
  test::run_steps(model, state, control, ws, int(1.0 / model.dt));
  sim::Real worst = 0;
  for (int j = 0; j < model.joint_count; ++j)
    if (model.joint_drive[std::size_t(j)] == sim::DriveMode::Position)
      worst = std::max(worst, std::abs(coordinate(state, j) - coordinate(initial, j)));
  INFO("largest drift of a driven joint " << worst);
  CHECK(worst < joint_tolerance);
}

}  // namespace

TEST_CASE("a description's kind comes from its root element, other files are errors", "[io][robot]") {
  CHECK(sim::description_kind((arm_dir() / "urdf" / "gripper_arm.urdf").string()).value() == sim::DescriptionKind::Urdf);
  CHECK(sim::description_kind((arm_dir() / "mjcf" / "gripper_arm.xml").string()).value() == sim::DescriptionKind::Mjcf);
  const fs::path scene = fs::path(COULOMB_SOURCE_DIR) / "assets" / "scenes" / "incline.xml";
  CHECK(sim::description_kind(scene.string()).value() == sim::DescriptionKind::Scene);

  const fs::path other = write_temp("other.xml", "<?xml version=\"1.0\"?>\n<sdf version=\"1.6\"/>\n");
  auto bad = sim::description_kind(other.string());
  REQUIRE_FALSE(bad.ok());
  CHECK(bad.error() == other.string() + ":2: <sdf>: expected a <scene>, a URDF <robot> or an MJCF <mujoco> root element");
  auto missing = sim::description_kind("/nonexistent/robot.urdf");
  REQUIRE_FALSE(missing.ok());
  CHECK(missing.error().find("/nonexistent/robot.urdf") != std::string::npos);
  const fs::path broken = write_temp("broken.urdf", "<robot name=\"r\">\n  <link name=\"a\">\n</robot>\n");
  auto malformed = sim::load_description(broken.string());
  REQUIRE_FALSE(malformed.ok());
  CHECK(malformed.error().find(broken.string()) != std::string::npos);
  // A scene is not a robot.
  CHECK_FALSE(sim::robot_scene(scene.string(), sim::DescriptionKind::Scene).ok());
}

TEST_CASE("the project's arm opens from URDF and MJCF standing on the ground, holding its pose", "[io][robot]") {
  check_standing_robot(arm_dir() / "urdf" / "gripper_arm.urdf", 0.02);
  check_standing_robot(arm_dir() / "mjcf" / "gripper_arm.xml", 0.02);
  // A scene file still loads as itself.
  auto scene = sim::load_description((fs::path(COULOMB_SOURCE_DIR) / "assets" / "scenes" / "incline.xml").string());
  REQUIRE(scene.ok());
  CHECK(scene->name == "incline");
}

TEST_CASE("the shared Allegro hand and Fetch open as scenes and hold still", "[io][robot]") {
  if (!test::shared_robots_available()) {
    WARN("skipped: " << test::shared_robots_dir().string() << " is absent (the shared robot descriptions)");
    return;
  }
  check_standing_robot(test::shared_robots_dir() / "allegro_hand_description" / "allegro_hand_description_right.urdf",
                       0.05);
  check_standing_robot(test::shared_robots_dir() / "fetch_description" / "robots" / "fetch.urdf", 0.05);
}
