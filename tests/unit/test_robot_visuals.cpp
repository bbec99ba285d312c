// Visual shapes of imported robots (URDF <visual>, MJCF geoms shown by default): carried through the
// import into the scene (BodySpec::visuals, SceneSpec::world_visuals) and the Model (visual_*),
// in the files' colours, and without any effect on the simulation.
#include <catch2/catch.hpp>
#include <tinyxml2.h>

#include <filesystem>
#include <string>

#include "sim/compile.hpp"
#include "sim/robot_import.hpp"
#include "sim/scene_io.hpp"
#include "sim/state.hpp"
#include "sim/step.hpp"
#include "support/scratch_files.hpp"
#include "support/shared_robots.hpp"
#include "support/shipped_scenes.hpp"

namespace fs = std::filesystem;

namespace {

// <visual> elements of a URDF, and how many of them name a mesh file that exists (package://NAME/
// resolved to the folder NAME under ../shared/robots) or a primitive.
struct VisualCount {
  int elements = 0, drawable = 0;
};
VisualCount count_urdf_visuals(const fs::path& urdf) {
  tinyxml2::XMLDocument doc;
  REQUIRE(doc.LoadFile(urdf.string().c_str()) == tinyxml2::XML_SUCCESS);
  VisualCount c;
  for (auto* link = doc.RootElement()->FirstChildElement("link"); link; link = link->NextSiblingElement("link"))
    for (auto* v = link->FirstChildElement("visual"); v; v = v->NextSiblingElement("visual")) {
      ++c.elements;
      const auto* geometry = v->FirstChildElement("geometry");
      REQUIRE(geometry);
      const auto* mesh = geometry->FirstChildElement("mesh");
      if (!mesh) {
        ++c.drawable;
        continue;
      }
      std::string file = mesh->Attribute("filename");
      const std::string package = "package://";
      REQUIRE(file.rfind(package, 0) == 0);
      if (fs::is_regular_file(test::shared_robots_dir() / file.substr(package.size()))) ++c.drawable;
    }
  return c;
}

sim::SceneSpec load(const std::string& path) {
  auto spec = sim::load_description(path);
  INFO((spec.ok() ? std::string() : spec.error()));
  REQUIRE(spec.ok());
  return std::move(spec.value());
}

sim::Model compile(const sim::SceneSpec& spec) {
  auto model = sim::compile_model(spec);
  INFO((model.ok() ? std::string() : model.error()));
  REQUIRE(model.ok());
  return std::move(model.value());
}

int body_index(const sim::Model& m, const std::string& name) {
  for (int b = 0; b < m.body_count; ++b)
    if (m.body_name[std::size_t(b)] == name) return b;
  FAIL("no body " << name);
  return -1;
}

// The first visual of body `b`.
int visual_of(const sim::Model& m, int b) {
  for (int v = 0; v < m.visual_count; ++v)
    if (m.visual_body[std::size_t(v)] == b) return v;
  FAIL("body " << m.body_name[std::size_t(b)] << " has no visual");
  return -1;
}

sim::SceneSpec without_visuals(sim::SceneSpec spec) {
  spec.world_visuals.clear();
  for (sim::BodySpec& b : spec.bodies) b.visuals.clear();
  return spec;
}

// Steps both models from their initial states and compares the state hashes at every step.
void check_same_run(const sim::Model& a, const sim::Model& b, int steps) {
  sim::State sa = sim::make_initial_state(a), sb = sim::make_initial_state(b);
  const sim::Control ca = sim::make_initial_control(a), cb = sim::make_initial_control(b);
  sim::Workspace wa, wb;
  REQUIRE(sim::state_hash(sa) == sim::state_hash(sb));
  int contacts = 0;
  for (int i = 0; i < steps; ++i) {
    sim::step(a, sa, ca, wa);
    sim::step(b, sb, cb, wb);
    contacts += static_cast<int>(wa.contacts.size());
    INFO("step " << i);
    REQUIRE(sim::state_hash(sa) == sim::state_hash(sb));
  }
  CHECK(contacts > 0);  // the run touched something: contacts were generated, and equal
}

// A two-link arm of our own: a base box (collision sphere under a red visual box of a named
// material) and a forearm on a hinge with a mesh-free cylinder visual in an inline colour, and a
// link with a visual but no collision geometry (its inertial gives the mass).
constexpr const char* kArmUrdf = R"(<robot name="signal_arm">
  <material name="signal_red"><color rgba="0.9 0.1 0.15 1"/></material>
  <link name="base">
    <inertial><mass value="2"/><inertia ixx="0.01" iyy="0.01" izz="0.01"/></inertial>
    <visual><origin xyz="0 0 0.02"/><geometry><box size="0.3 0.2 0.1"/></geometry><material name="signal_red"/></visual>
    <collision><geometry><sphere radius="0.05"/></geometry></collision>
  </link>
  <link name="forearm">
    <visual><origin xyz="0 0 0.1" rpy="0.3 0 0"/><geometry><cylinder radius="0.02" length="0.2"/></geometry>
      <material name="teal"><color rgba="0.1 0.6 0.6 1"/></material></visual>
    <collision><origin xyz="0 0 0.1"/><geometry><capsule radius="0.02" length="0.2"/></geometry></collision>
  </link>
  <link name="tag">
    <inertial><mass value="0.05"/><inertia ixx="1e-5" iyy="1e-5" izz="1e-5"/></inertial>
    <visual><geometry><sphere radius="0.01"/></geometry><material name="teal"/></visual>
  </link>
  <joint name="elbow" type="revolute"><parent link="base"/><child link="forearm"/>
    <origin xyz="0 0 0.06"/><axis xyz="1 0 0"/><limit lower="-2" upper="2" effort="10" velocity="1"/></joint>
  <joint name="tag_joint" type="revolute"><parent link="forearm"/><child link="tag"/>
    <origin xyz="0 0.03 0.2"/><axis xyz="0 1 0"/><limit lower="-1" upper="1" effort="1" velocity="1"/></joint>
</robot>)";

}  // namespace

TEST_CASE("visual shapes: a URDF's coloured visuals reach the Model on their bodies, mass unchanged",
          "[unit][import][visuals]") {
  const fs::path dir = test::scratch_dir("robot_visuals_arm");
  test::write_file(dir / "arm.urdf", kArmUrdf);
  const sim::SceneSpec spec = load((dir / "arm.urdf").string());
  const sim::Model model = compile(spec);
  REQUIRE(model.visual_count == 3);
  const int base = body_index(model, "base"), forearm = body_index(model, "forearm"), tag = body_index(model, "tag");

  // The named top-level material's colour on the box, the inline colour on the cylinder and,
  // by its name, on the tag's sphere.
  const int box = visual_of(model, base);
  CHECK(model.visual_geometry[std::size_t(box)] == sim::VisualGeometry::Box);
  CHECK(model.visual_rgba[std::size_t(box)] == std::array<float, 4>{0.9f, 0.1f, 0.15f, 1.0f});
  CHECK(model.visual_half_extents[std::size_t(box)].isApprox(sim::Vec3(0.15, 0.1, 0.05)));
  const int cylinder = visual_of(model, forearm);
  CHECK(model.visual_geometry[std::size_t(cylinder)] == sim::VisualGeometry::Cylinder);
  CHECK(model.visual_radius[std::size_t(cylinder)] == Approx(0.02));
  CHECK(model.visual_half_length[std::size_t(cylinder)] == Approx(0.1));
  CHECK(model.visual_rgba[std::size_t(cylinder)] == std::array<float, 4>{0.1f, 0.6f, 0.6f, 1.0f});
  CHECK(model.visual_rgba[std::size_t(visual_of(model, tag))] == std::array<float, 4>{0.1f, 0.6f, 0.6f, 1.0f});
  for (int b : {base, forearm, tag}) CHECK(model.body_has_visuals[std::size_t(b)] == 1);

  // Placed in the com frame: the visual's world pose at the initial state is the body frame's
  // pose times its <origin>.
  const sim::State state = sim::make_initial_state(model);
  const sim::Pose forearm_frame = state.body_pose(forearm) * model.body_frame_in_com[std::size_t(forearm)];
  const sim::Pose expected = forearm_frame * sim::Pose{sim::Vec3(0, 0, 0.1), sim::Quat(Eigen::AngleAxis<sim::Real>(0.3, sim::Vec3::UnitX()))};
  const sim::Pose placed = state.body_pose(forearm) * model.visual_local[std::size_t(cylinder)];
  CHECK((placed.pos - expected.pos).norm() < 1e-12);
  CHECK(placed.rot.angularDistance(expected.rot) < 1e-12);

  // Nothing simulated changes: the same model without visuals has the same masses, inertias,
  // com frames and shapes (the tag, with no collision geometry, has none).
  const sim::Model bare = compile(without_visuals(spec));
  CHECK(bare.visual_count == 0);
  CHECK(bare.shape_count == model.shape_count);
  CHECK(bare.shape_count == 3);  // ground plane, sphere, capsule
  CHECK(bare.body_inv_mass == model.body_inv_mass);
  CHECK(bare.body_inertia == model.body_inertia);
  for (int b = 0; b < model.body_count; ++b) {
    CHECK(bare.body_initial_pose[std::size_t(b)].pos == model.body_initial_pose[std::size_t(b)].pos);
    CHECK(bare.body_bound_radius[std::size_t(b)] == model.body_bound_radius[std::size_t(b)]);
  }
  CHECK(model.body_inv_mass[std::size_t(tag)] == Approx(1 / 0.05));
}

TEST_CASE("visual shapes: a simulation runs bit-identically with and without them", "[unit][import][visuals]") {
  const fs::path dir = test::scratch_dir("robot_visuals_hash");
  test::write_file(dir / "arm.urdf", kArmUrdf);
  // Free base: the arm falls onto the ground, touches it, and its elbow swings.
  sim::DescriptionOptions options;
  options.urdf_free_base = true;
  auto spec = sim::load_description((dir / "arm.urdf").string(), options);
  REQUIRE(spec.ok());
  spec->bodies[0].pose.pos.z() += 0.05;  // dropped from 5 cm
  const sim::Model with = compile(spec.value());
  REQUIRE(with.visual_count == 3);
  check_same_run(with, compile(without_visuals(spec.value())), 240);

  if (!test::shared_robots_available()) {
    WARN("skipped: the Fetch part: " << test::shared_robots_dir() << " not found");
    return;
  }
  const sim::SceneSpec fetch = load(test::scene_path("fetch"));
  const sim::Model fetch_with = compile(fetch);
  REQUIRE(fetch_with.visual_count > 0);
  check_same_run(fetch_with, compile(without_visuals(fetch)), 60);
}

TEST_CASE("visual shapes: the Allegro hand and Fetch load with one per drawable <visual>", "[unit][import][visuals]") {
  if (!test::shared_robots_available()) {
    WARN("skipped: " << test::shared_robots_dir() << " not found");
    return;
  }
  struct Case {
    const char* scene;
    fs::path urdf;
    int elements;  // <visual> elements in the file
    int missing;   // of them naming a mesh file absent from this copy (drawn as the link's collision mesh)
  };
  const Case cases[] = {
      {"allegro", test::shared_robots_dir() / "allegro_hand_description" / "allegro_hand_description_right.urdf", 21, 0},
      // fetch_description/meshes/base_link.dae is missing (../shared/robots/README.md).
      {"fetch", test::shared_robots_dir() / "fetch_description" / "robots" / "fetch.urdf", 21, 1},
  };
  for (const Case& c : cases) {
    INFO(c.scene);
    const VisualCount counted = count_urdf_visuals(c.urdf);
    CHECK(counted.elements == c.elements);
    CHECK(counted.drawable == c.elements - c.missing);
    const sim::SceneSpec spec = load(test::scene_path(c.scene));
    const sim::Model model = compile(spec);
    int robot_visuals = 0, mesh_triangles = 0;
    for (int v = 0; v < model.visual_count; ++v) {
      const int b = model.visual_body[std::size_t(v)];
      if (b < 0) continue;
      ++robot_visuals;
      CHECK(model.visual_geometry[std::size_t(v)] == sim::VisualGeometry::Mesh);
      REQUIRE(model.visual_mesh[std::size_t(v)]);
      CHECK(model.visual_mesh[std::size_t(v)]->triangles.size() > 10);
      mesh_triangles += static_cast<int>(model.visual_mesh[std::size_t(v)]->triangles.size());
    }
    CHECK(robot_visuals == counted.drawable + c.missing);
    CHECK(mesh_triangles > 1000);
  }

  // Colours as the files give them: Fetch's wheels in its blue, the Allegro fingers in "black",
  // a material defined inside base_link's <visual> and used by name in the others.
  const sim::Model fetch = compile(load(test::scene_path("fetch")));
  CHECK(fetch.visual_rgba[std::size_t(visual_of(fetch, body_index(fetch, "r_wheel_link")))] ==
        std::array<float, 4>{0.086f, 0.506f, 0.767f, 1.0f});
  // base_link's visual mesh is missing: the link is drawn as its collision mesh, in its colour.
  const int base_visual = visual_of(fetch, body_index(fetch, "base_link"));
  CHECK(fetch.visual_rgba[std::size_t(base_visual)] == std::array<float, 4>{0.356f, 0.361f, 0.376f, 1.0f});
  const sim::Model allegro = compile(load(test::scene_path("allegro")));
  CHECK(allegro.visual_rgba[std::size_t(visual_of(allegro, body_index(allegro, "link_1.0")))] ==
        std::array<float, 4>{0.2f, 0.2f, 0.2f, 1.0f});
}

TEST_CASE("visual shapes: MJCF geoms in shown groups are visuals, hidden groups and world collision geoms are not",
          "[unit][import][visuals]") {
  const fs::path dir = test::scratch_dir("robot_visuals_mjcf");
  // A 10 cm cube as an OBJ mesh (outward faces).
  test::write_file(dir / "cube.obj", "v -0.05 -0.05 -0.05\nv 0.05 -0.05 -0.05\nv 0.05 0.05 -0.05\nv -0.05 0.05 -0.05\n"
                                     "v -0.05 -0.05 0.05\nv 0.05 -0.05 0.05\nv 0.05 0.05 0.05\nv -0.05 0.05 0.05\n"
                                     "f 1 3 2\nf 1 4 3\nf 5 6 7\nf 5 7 8\nf 1 2 6\nf 1 6 5\n"
                                     "f 2 3 7\nf 2 7 6\nf 3 4 8\nf 3 8 7\nf 4 1 5\nf 4 5 8\n");
  test::write_file(dir / "model.xml", R"(<mujoco model="groups">
  <asset><material name="gold" rgba="0.9 0.7 0.1 1"/><mesh name="cube" file="cube.obj"/></asset>
  <default>
    <default class="visual"><geom contype="0" conaffinity="0" group="2"/></default>
    <default class="collision"><geom group="3"/></default>
  </default>
  <worldbody>
    <geom type="plane" size="1 1 0.1"/>
    <geom class="visual" type="box" size="0.1 0.1 0.01" pos="1 0 0.01" rgba="0 0 1 1"/>
    <body name="ball" pos="0 0 0.5">
      <freejoint/>
      <geom class="visual" type="sphere" size="0.05" material="gold"/>
      <geom class="visual" type="ellipsoid" size="0.02 0.03 0.04" pos="0 0 0.05"/>
      <geom class="collision" type="sphere" size="0.05"/>
    </body>
    <body name="shell" pos="-0.3 0 0.5">
      <freejoint/>
      <inertial pos="0 0 0" mass="0.7" diaginertia="0.001 0.001 0.001"/>
      <geom class="visual" type="mesh" mesh="cube"/>
      <geom class="collision" type="sphere" size="0.05"/>
    </body>
    <body name="plain" pos="0.3 0 0.5">
      <freejoint/>
      <geom type="box" size="0.05 0.05 0.05"/>
      <geom type="sphere" size="0.01" pos="0 0 0.06" rgba="1 0 0 0"/>
    </body>
  </worldbody>
</mujoco>)");
  const sim::SceneSpec spec = load((dir / "model.xml").string());
  const sim::Model model = compile(spec);
  const int ball = body_index(model, "ball"), plain = body_index(model, "plain");
  int ball_visuals = 0, plain_visuals = 0, world_visuals = 0;
  for (int v = 0; v < model.visual_count; ++v) {
    const int b = model.visual_body[std::size_t(v)];
    ball_visuals += b == ball;
    plain_visuals += b == plain;
    world_visuals += b < 0;
  }
  CHECK(ball_visuals == 2);   // the group-2 sphere and ellipsoid; not the group-3 collision sphere
  CHECK(plain_visuals == 1);  // the group-0 box (drawn as MuJoCo does); the alpha-0 sphere is not drawn
  CHECK(world_visuals == 1);  // the visual-only box; the plane is drawn as the collision plane it is
  CHECK(model.visual_rgba[std::size_t(visual_of(model, ball))] == std::array<float, 4>{0.9f, 0.7f, 0.1f, 1.0f});
  CHECK(model.visual_rgba[std::size_t(visual_of(model, plain))] == std::array<float, 4>{0.5f, 0.5f, 0.5f, 1.0f});
  // The visual-only mesh of a body with an <inertial>: drawn as its 12 triangles, no hull made,
  // the mass the inertial's.
  const int shell = body_index(model, "shell");
  const int cube = visual_of(model, shell);
  CHECK(model.visual_geometry[std::size_t(cube)] == sim::VisualGeometry::Mesh);
  REQUIRE(model.visual_mesh[std::size_t(cube)]);
  CHECK(model.visual_mesh[std::size_t(cube)]->triangles.size() == 12);
  CHECK(1 / model.body_inv_mass[std::size_t(shell)] == Approx(0.7));
  // The collision shapes are what they were: the ball's and the shell's spheres, the plain
  // body's box and sphere, the plane.
  CHECK(model.shape_count == 5);
  for (int s = 0; s < model.shape_count; ++s) CHECK(model.shape_type[std::size_t(s)] != sim::ShapeType::ConvexMesh);
}
