// Scene XML parser (sim/src/io/scene_xml.cpp, docs/scene-format.md): every element into
// SceneSpec with exact values, and every kind of bad input gives "file:line: <element>: ..."
// with the right line, without crashing.
#include <catch2/catch.hpp>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <string>
#include <vector>

#include "sim/scene_io.hpp"
#include "support/parse_checks.hpp"
#include "support/scratch_files.hpp"
#include "support/shared_robots.hpp"

namespace {

using sim::Quat;
using sim::Real;
using sim::Vec3;

constexpr double kPi = 3.14159265358979323846;

// Joins lines with '\n' so that element i of the list is on line i + 1.
using test::xml_lines;

sim::SceneSpec parse_ok(const std::string& xml, const std::string& file = "test.xml") {
  return test::parse_scene_ok(xml, file);
}

// Parsing `xml` as test.xml must fail at "test.xml:<line>: <element>: " with `fragment`.
void check_error(const std::string& xml, int line, const std::string& element, const std::string& fragment) {
  test::check_error(sim::parse_scene_xml(xml, "test.xml"), "test.xml", line, element, fragment);
}

bool same_rotation(const Quat& a, const Quat& b, Real tol = Real(1e-12)) {
  return std::abs(std::abs(a.dot(b)) - 1) < tol;
}

bool near(const Vec3& a, const Vec3& b, Real tol = Real(1e-12)) { return (a - b).norm() < tol; }

// A scratch directory for file-based tests.
}  // namespace

TEST_CASE("scene xml: scene attributes and defaults", "[unit][io]") {
  auto spec = parse_ok("<scene/>", "dir/my_scene.xml");
  CHECK(spec.name == "my_scene");
  CHECK(spec.source_file == "dir/my_scene.xml");
  CHECK(spec.gravity == Vec3(0, 0, Real(-9.81)));
  CHECK(spec.dt == Real(1.0 / 120.0));
  CHECK(spec.bodies.empty());

  spec = parse_ok(R"(<?xml version="1.0"?>
<!-- comment -->
<scene name="demo" dt="0.0083" gravity="0.5, -1, -3e0"/>)");
  CHECK(spec.name == "demo");
  CHECK(spec.dt == Real(0.0083));
  CHECK(spec.gravity == Vec3(Real(0.5), -1, -3));
}

TEST_CASE("scene xml: every solver option key", "[unit][io]") {
  auto spec = parse_ok(R"(<scene>
  <solver ncp="min_map" preconditioner="h2" linear_solver="gauss_seidel" newton_iterations="9"
          linear_iterations="33" newton_tolerance="1e-7" linear_tolerance="1e-5" damping="0.5"
          regularization="1e-8" warm_start="false" geometric_stiffness="false" jacobi_weight="0.25"
          project_friction="no"
          substeps="2" contact_margin="0.02" divergence_limit="1e6" joint_angle_error_limit="0.2"
          joint_position_error_limit="inf" kind="pgs" pgs_iterations="40" pgs_relaxation="1.5"
          elastic_factorization="simplicial"/>
</scene>)");
  const sim::SolverOptions& o = spec.solver;
  CHECK(o.kind == sim::SolverKind::ProjectedGaussSeidel);
  CHECK(o.pgs_iterations == 40);
  CHECK(o.pgs_relaxation == Real(1.5));
  CHECK(o.ncp == sim::NcpFunction::MinMap);
  CHECK(o.preconditioner == sim::Preconditioner::TimeStepSquared);
  CHECK(o.linear_solver == sim::LinearSolver::GaussSeidel);
  CHECK(o.newton_iterations == 9);
  CHECK(o.linear_iterations == 33);
  CHECK(o.newton_tolerance == Real(1e-7));
  CHECK(o.linear_tolerance == Real(1e-5));
  CHECK(o.damping == Real(0.5));
  CHECK(o.regularization == Real(1e-8));
  CHECK_FALSE(o.warm_start);
  CHECK_FALSE(o.geometric_stiffness);
  CHECK_FALSE(o.project_friction);
  CHECK(o.jacobi_weight == Real(0.25));
  CHECK(o.substeps == 2);
  CHECK(o.contact_margin == Real(0.02));
  CHECK(o.divergence_limit == Real(1e6));
  CHECK(o.joint_angle_error_limit == Real(0.2));
  CHECK(std::isinf(o.joint_position_error_limit));
  CHECK(o.elastic_factorization == sim::ElasticFactorization::Simplicial);

  // The format must accept exactly the keys the CLI's --set solver.key=value accepts.
  for (const std::string& key : sim::solver_option_keys()) {
    std::string value = "1";
    if (key == "kind") value = "pgs";
    if (key == "ncp") value = "fischer_burmeister";
    if (key == "preconditioner") value = "identity";
    if (key == "linear_solver") value = "direct";
    if (key == "elastic_factorization") value = "supernodal";
    if (key == "linear_forcing_max") value = "0.1";
    if (key == "warm_start" || key == "geometric_stiffness" || key == "element_geometric_stiffness" ||
        key == "rope_geometric_stiffness" || key == "project_friction")
      value = "true";
    INFO(key);
    parse_ok("<scene><solver " + key + "=\"" + value + "\"/></scene>");
  }
}

TEST_CASE("scene xml: materials and world shapes", "[unit][io]") {
  auto spec = parse_ok(R"(<scene>
  <material name="ice" friction="0.05"/>
  <material name="rubber"/>
  <world material="ice" thickness="0.001">
    <plane/>
    <plane pos="0 0 1" normal="0 0 -2" material="rubber"/>
    <box pos="1 2 3" euler="0 0 90" size="2 4 6" thickness="0"/>
    <box half_extents="0.1 0.2 0.3"/>
    <sphere pos="0 0 0.7" radius="0.5"/>
    <capsule radius="0.1" length="0.8" axisangle="1 0 0 90"/>
    <capsule radius="0.1" half_length="0"/>
    <convex vertices="0 0 0  1 0 0  0 1 0  0 0 1" scale="2"/>
    <cylinder radius="0.3" half_length="0.2" segments="6"/>
  </world>
</scene>)");
  REQUIRE(spec.materials.size() == 2);
  CHECK(spec.materials[0].name == "ice");
  CHECK(spec.materials[0].friction == Real(0.05));
  CHECK(spec.materials[0].source.line == 2);
  CHECK(spec.materials[1].name == "rubber");
  CHECK(spec.materials[1].friction == Real(0.5));

  const auto& w = spec.world_shapes;
  REQUIRE(w.size() == 9);
  for (const auto& s : w) CHECK(s.source.file == "test.xml");
  CHECK(w[0].type == sim::ShapeType::Plane);
  CHECK(w[0].material == 0);
  CHECK(w[0].thickness == Real(0.001));
  CHECK(w[0].source.line == 5);
  CHECK(near(w[0].local.pos, Vec3::Zero()));
  CHECK(same_rotation(w[0].local.rot, Quat::Identity()));

  CHECK(w[1].type == sim::ShapeType::Plane);
  CHECK(w[1].material == 1);
  CHECK(near(w[1].local.pos, Vec3(0, 0, 1)));
  CHECK(near(w[1].local.rot * Vec3::UnitZ(), Vec3(0, 0, -1)));

  CHECK(w[2].type == sim::ShapeType::Box);
  CHECK(w[2].half_extents == Vec3(1, 2, 3));
  CHECK(w[2].thickness == 0);
  CHECK(w[2].local.pos == Vec3(1, 2, 3));
  CHECK(near(w[2].local.rot * Vec3::UnitX(), Vec3::UnitY()));
  CHECK(w[3].half_extents == Vec3(Real(0.1), Real(0.2), Real(0.3)));

  CHECK(w[4].type == sim::ShapeType::Sphere);
  CHECK(w[4].radius == Real(0.5));
  CHECK(w[4].local.pos == Vec3(0, 0, Real(0.7)));

  CHECK(w[5].type == sim::ShapeType::Capsule);
  CHECK(w[5].radius == Real(0.1));
  CHECK(w[5].half_length == Real(0.4));
  CHECK(near(w[5].local.rot * Vec3::UnitZ(), -Vec3::UnitY()));
  CHECK(w[6].half_length == 0);

  CHECK(w[7].type == sim::ShapeType::ConvexMesh);
  REQUIRE(w[7].vertices.size() == 4);
  CHECK(w[7].vertices[1] == Vec3(2, 0, 0));
  CHECK(w[7].vertices[3] == Vec3(0, 0, 2));

  CHECK(w[8].type == sim::ShapeType::ConvexMesh);
  REQUIRE(w[8].vertices.size() == 12);
  for (const Vec3& v : w[8].vertices) {
    CHECK(std::abs(v.head<2>().norm() - Real(0.3)) < Real(1e-12));
    CHECK(std::abs(std::abs(v.z()) - Real(0.2)) < Real(1e-12));
  }
}

TEST_CASE("scene xml: bodies", "[unit][io]") {
  auto spec = parse_ok(R"(<scene>
  <material name="steel" friction="0.3"/>
  <material name="wood" friction="0.6"/>
  <body name="a" pos="1 2 3" quat="0 0 0 2" velocity="0.1 0.2 0.3" angular_velocity="-1 -2 -3"
        mass="2.5" inertia="0.1 0.2 0.3" com="0.01 0.02 0.03" material="steel" density="500" thickness="0.002">
    <box size="1 1 1"/>
    <sphere pos="0 0 1" radius="0.25" material="wood" density="7800" thickness="0"/>
  </body>
  <body name="floor" fixed="true">
    <box half_extents="5 5 0.1"/>
  </body>
  <body pos="0 0 5" mass="1"/>
  <body>
    <capsule radius="0.1" half_length="0.3"/>
  </body>
</scene>)");
  REQUIRE(spec.bodies.size() == 4);
  const sim::BodySpec& a = spec.bodies[0];
  CHECK(a.name == "a");
  CHECK(a.source.line == 4);
  CHECK(a.pose.pos == Vec3(1, 2, 3));
  CHECK(a.pose.rot.coeffs() == Quat(0, 0, 0, 1).coeffs());
  CHECK(a.linear_velocity == Vec3(Real(0.1), Real(0.2), Real(0.3)));
  CHECK(a.angular_velocity == Vec3(-1, -2, -3));
  CHECK_FALSE(a.fixed);
  CHECK(a.mass == Real(2.5));
  CHECK(a.inertia == Vec3(Real(0.1), Real(0.2), Real(0.3)));
  CHECK(a.com == Vec3(Real(0.01), Real(0.02), Real(0.03)));
  REQUIRE(a.shapes.size() == 2);
  CHECK(a.shapes[0].type == sim::ShapeType::Box);
  CHECK(a.shapes[0].half_extents == Vec3(Real(0.5), Real(0.5), Real(0.5)));
  CHECK(a.shapes[0].material == 0);
  CHECK(a.shapes[0].density == Real(500));
  CHECK(a.shapes[0].thickness == Real(0.002));
  CHECK(a.shapes[0].source.line == 6);
  CHECK(a.shapes[1].local.pos == Vec3(0, 0, 1));
  CHECK(a.shapes[1].material == 1);
  CHECK(a.shapes[1].density == Real(7800));
  CHECK(a.shapes[1].thickness == 0);
  CHECK(a.shapes[1].source.line == 7);

  const sim::BodySpec& floor = spec.bodies[1];
  CHECK(floor.fixed);
  CHECK(floor.mass < 0);
  CHECK(floor.inertia.x() < 0);
  CHECK(floor.shapes[0].material == -1);
  CHECK(floor.shapes[0].density == Real(1000));

  // Unnamed bodies get unique names.
  CHECK(spec.bodies[2].name == "body2");
  CHECK(spec.bodies[2].shapes.empty());
  CHECK(spec.bodies[2].mass == 1);
  CHECK(spec.bodies[3].name == "body3");
}

TEST_CASE("scene xml: rotation conventions", "[unit][io]") {
  auto spec = parse_ok(R"(<scene>
  <body name="e" euler="90 0 0" mass="1"/>
  <body name="xyz" euler="30 45 60" mass="1"/>
  <body name="aa" axisangle="0 0 2 90" mass="1"/>
  <body name="q" quat="0.5 0.5 0.5 0.5" mass="1"/>
</scene>)");
  // euler: degrees, intrinsic X then Y then Z, R = Rx Ry Rz.
  CHECK(near(spec.bodies[0].pose.rot * Vec3::UnitY(), Vec3::UnitZ()));
  const Real d = Real(kPi / 180);
  const Quat expected = Quat(Eigen::AngleAxis<Real>(30 * d, Vec3::UnitX())) *
                        Quat(Eigen::AngleAxis<Real>(45 * d, Vec3::UnitY())) *
                        Quat(Eigen::AngleAxis<Real>(60 * d, Vec3::UnitZ()));
  CHECK(same_rotation(spec.bodies[1].pose.rot, expected));
  // axisangle: axis normalized, angle in degrees.
  CHECK(near(spec.bodies[2].pose.rot * Vec3::UnitX(), Vec3::UnitY()));
  // quat: w x y z.
  CHECK(spec.bodies[3].pose.rot.w() == Real(0.5));
  CHECK(near(spec.bodies[3].pose.rot * Vec3::UnitX(), Vec3::UnitY()));
}

TEST_CASE("scene xml: particles and distances", "[unit][io]") {
  auto spec = parse_ok(R"(<scene>
  <material name="m" friction="0.2"/>
  <particle name="p" pos="0 0 1" velocity="1 0 0" mass="0.5" radius="0.02" material="m"/>
  <particle pos="1 0 1"/>
  <particle name="anchor" pos="2 0 1" mass="0"/>
  <distance a="p" b="1" rest="0.9" compliance="1e-4"/>
  <distance a="1" b="anchor"/>
  <distance a="anchor" b="late"/>
  <particle name="late" pos="3 0 1"/>
</scene>)");
  REQUIRE(spec.particles.size() == 4);
  const sim::ParticleSpec& p = spec.particles[0];
  CHECK(p.position == Vec3(0, 0, 1));
  CHECK(p.velocity == Vec3(1, 0, 0));
  CHECK(p.mass == Real(0.5));
  CHECK(p.radius == Real(0.02));
  CHECK(p.material == 0);
  CHECK(p.source.line == 3);
  CHECK(spec.particles[1].mass == 1);
  CHECK(spec.particles[1].radius == Real(0.01));
  CHECK(spec.particles[1].material == -1);
  CHECK(spec.particles[2].mass == 0);
  REQUIRE(spec.distances.size() == 3);
  CHECK(spec.distances[0].particle_a == 0);
  CHECK(spec.distances[0].particle_b == 1);
  CHECK(spec.distances[0].rest_length == Real(0.9));
  CHECK(spec.distances[0].compliance == Real(1e-4));
  CHECK(spec.distances[0].source.line == 6);
  CHECK(spec.distances[1].particle_a == 1);
  CHECK(spec.distances[1].particle_b == 2);
  CHECK(spec.distances[1].rest_length < 0);
  CHECK(spec.distances[1].compliance == 0);
  CHECK(spec.distances[2].particle_b == 3);
}

TEST_CASE("scene xml: rope generator", "[unit][io]") {
  auto spec = parse_ok(R"(<scene>
  <particle pos="9 9 9"/>
  <rope name="r" start="0 0 2" end="1 0 2" segments="4" total_mass="1" radius="0.05" compliance="1e-6"
        pin="both" velocity="0 1 0"/>
  <rope start="0 0 0" end="0 0 1" segments="2" mass="0.1" pin="end"/>
  <distance a="r[0]" b="0"/>
</scene>)");
  REQUIRE(spec.particles.size() == 1 + 5 + 3);
  for (int i = 0; i < 5; ++i) {
    const sim::ParticleSpec& p = spec.particles[1 + i];
    CHECK(near(p.position, Vec3(Real(0.25) * i, 0, 2)));
    CHECK(p.velocity == Vec3(0, 1, 0));
    CHECK(p.radius == Real(0.05));
    CHECK(p.mass == ((i == 0 || i == 4) ? Real(0) : Real(0.2)));
    CHECK(p.source.line == 3);
  }
  CHECK(spec.particles[6].mass == Real(0.1));
  CHECK(spec.particles[8].mass == 0);
  REQUIRE(spec.distances.size() == 4 + 2 + 1);
  for (int i = 0; i < 4; ++i) {
    CHECK(spec.distances[i].particle_a == 1 + i);
    CHECK(spec.distances[i].particle_b == 2 + i);
    CHECK(spec.distances[i].compliance == Real(1e-6));
    CHECK(spec.distances[i].rest_length < 0);
  }
  CHECK(spec.distances[6].particle_a == 1);
  CHECK(spec.distances[6].particle_b == 0);
}

TEST_CASE("scene xml: cloth generator", "[unit][io]") {
  auto spec = parse_ok(R"(<scene>
  <cloth name="c" pos="0 0 1" euler="90 0 0" size="2 1" segments="4 2" mass="0.01" pin="corners 2:1"
         compliance="1e-5" shear_compliance="1e-4" bend="true" bend_compliance="1e-3"/>
  <distance a="c[0,0]" b="c[4,2]"/>
</scene>)");
  const int nx = 4, ny = 2;
  REQUIRE(spec.particles.size() == (nx + 1) * (ny + 1));
  auto id = [&](int i, int j) { return j * (nx + 1) + i; };
  // Local (x, y) grid centred on pos, rotated by euler (local y -> world z).
  CHECK(near(spec.particles[id(0, 0)].position, Vec3(-1, 0, Real(0.5))));
  CHECK(near(spec.particles[id(4, 2)].position, Vec3(1, 0, Real(1.5))));
  CHECK(near(spec.particles[id(2, 1)].position, Vec3(0, 0, 1)));
  CHECK(spec.particles[id(0, 0)].mass == 0);
  CHECK(spec.particles[id(4, 0)].mass == 0);
  CHECK(spec.particles[id(0, 2)].mass == 0);
  CHECK(spec.particles[id(4, 2)].mass == 0);
  CHECK(spec.particles[id(2, 1)].mass == 0);
  CHECK(spec.particles[id(1, 1)].mass == Real(0.01));
  const int structural = (ny + 1) * nx + ny * (nx + 1);
  const int shear = 2 * nx * ny;
  const int bend = (ny + 1) * (nx - 1) + (ny - 1) * (nx + 1);
  REQUIRE(static_cast<int>(spec.distances.size()) == structural + shear + bend + 1);
  CHECK(spec.distances[0].compliance == Real(1e-5));
  CHECK(spec.distances[structural].compliance == Real(1e-4));
  CHECK(spec.distances[structural + shear].compliance == Real(1e-3));
  // Every generated constraint joins grid neighbours at their initial distance.
  for (int k = 0; k < structural + shear + bend; ++k) {
    const auto& d = spec.distances[k];
    const Real len = (spec.particles[d.particle_a].position - spec.particles[d.particle_b].position).norm();
    CHECK(len < Real(1.2));
    CHECK(len > Real(0.4));
  }
  CHECK(spec.distances.back().particle_a == id(0, 0));
  CHECK(spec.distances.back().particle_b == id(4, 2));

  auto plain = parse_ok(R"(<scene><cloth size="1 1" segments="3 3" shear="false"/></scene>)");
  CHECK(plain.particles.size() == 16);
  CHECK(plain.distances.size() == 24);
}

TEST_CASE("scene xml: joints", "[unit][io]") {
  auto spec = parse_ok(R"(<scene>
  <body name="base" pos="0 0 1" mass="1"/>
  <body name="arm" pos="1 0 1" euler="0 0 90" mass="1"/>
  <joint name="hinge" type="revolute" parent="base" child="arm" pos="0.5 0 1" axis="0 0 2"
         limit="-1.5 1.5" linear_compliance="1e-6" angular_compliance="1e-3">
    <drive mode="position" stiffness="100" damping="10" max_force="50" target="0.25" target_velocity="0.5"/>
  </joint>
  <joint type="prismatic" child="base" axis="1 0 0" linear_stiffness="1000" angular_stiffness="250">
    <parent_frame pos="0 0 2" quat="1 0 0 0"/>
    <child_frame pos="0 0 1" euler="0 0 90"/>
    <drive mode="velocity" damping="5"/>
  </joint>
  <joint name="weld" type="fixed" parent="world" child="arm">
    <child_frame pos="0.1 0 0"/>
  </joint>
  <joint name="socket" type="ball" parent="arm" child="base"/>
  <joint name="late" type="revolute" parent="base" child="later" pos="0 0 1" euler="90 0 0"/>
  <body name="later" pos="0 0 0" mass="1"/>
</scene>)");
  REQUIRE(spec.joints.size() == 5);
  const sim::JointSpec& h = spec.joints[0];
  CHECK(h.name == "hinge");
  CHECK(h.type == sim::JointType::Revolute);
  CHECK(h.body_a == 0);
  CHECK(h.body_b == 1);
  CHECK(h.source.line == 4);
  CHECK(h.axis == Vec3(0, 0, 1));
  CHECK(h.limited);
  CHECK(h.lower == Real(-1.5));
  CHECK(h.upper == Real(1.5));
  CHECK(h.linear_compliance == Real(1e-6));
  CHECK(h.angular_compliance == Real(1e-3));
  CHECK(h.drive == sim::DriveMode::Position);
  CHECK(h.stiffness == 100);
  CHECK(h.damping == 10);
  CHECK(h.max_force == 50);
  CHECK(h.target == Real(0.25));
  CHECK(h.target_velocity == Real(0.5));
  // World frame given: both body frames map it to the same world pose.
  const sim::Pose base_pose = spec.bodies[0].pose, arm_pose = spec.bodies[1].pose;
  CHECK(near((base_pose * h.frame_a).pos, Vec3(Real(0.5), 0, 1)));
  CHECK(near((arm_pose * h.frame_b).pos, Vec3(Real(0.5), 0, 1)));
  CHECK(same_rotation((base_pose * h.frame_a).rot, Quat::Identity()));
  CHECK(same_rotation((arm_pose * h.frame_b).rot, Quat::Identity()));
  CHECK(near(h.frame_b.pos, Vec3(0, Real(0.5), 0)));

  const sim::JointSpec& p = spec.joints[1];
  CHECK(p.name == "joint1");
  CHECK(p.type == sim::JointType::Prismatic);
  CHECK(p.body_a == -1);
  CHECK(p.body_b == 0);
  CHECK(p.frame_a.pos == Vec3(0, 0, 2));
  CHECK(p.frame_b.pos == Vec3(0, 0, 1));
  CHECK(near(p.frame_b.rot * Vec3::UnitX(), Vec3::UnitY()));
  CHECK_FALSE(p.limited);
  CHECK(p.linear_compliance == Real(1e-3));
  CHECK(p.angular_compliance == Real(1.0 / 250.0));
  CHECK(p.drive == sim::DriveMode::Velocity);
  CHECK(p.damping == 5);
  CHECK(p.max_force < 0);

  // Only the child frame given: the parent (world) frame is derived to coincide at t = 0.
  const sim::JointSpec& w = spec.joints[2];
  CHECK(w.type == sim::JointType::Fixed);
  CHECK(w.body_a == -1);
  CHECK(w.frame_b.pos == Vec3(Real(0.1), 0, 0));
  CHECK(near(w.frame_a.pos, (arm_pose * w.frame_b).pos));
  CHECK(same_rotation(w.frame_a.rot, (arm_pose * w.frame_b).rot));

  // No frame at all: the joint sits at the child's origin.
  const sim::JointSpec& s = spec.joints[3];
  CHECK(s.type == sim::JointType::Ball);
  CHECK(s.body_a == 1);
  CHECK(s.body_b == 0);
  CHECK(near(s.frame_b.pos, Vec3::Zero()));
  CHECK(same_rotation(s.frame_b.rot, Quat::Identity()));
  CHECK(near((arm_pose * s.frame_a).pos, base_pose.pos));

  // A body defined after the joint.
  CHECK(spec.joints[4].body_b == 2);
  CHECK(near((spec.bodies[2].pose * spec.joints[4].frame_b).pos, Vec3(0, 0, 1)));
  CHECK(near(spec.joints[4].frame_b.rot * Vec3::UnitY(), Vec3::UnitZ()));
}

TEST_CASE("scene xml: include and convex file resolve relative to the scene file", "[unit][io]") {
  const auto dir = test::scratch_dir("scene_xml_include");
  std::filesystem::create_directories(dir / "parts" / "meshes");
  test::write_file(dir / "parts" / "meshes" / "tet.obj", "# a tetrahedron\nv 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\nf 1 2 3\n");
  test::write_file(dir / "parts" / "rock.xml", R"(<scene name="ignored" dt="1">
  <material name="granite" friction="0.9"/>
  <body name="rock" material="granite">
    <convex file="meshes/tet.obj" scale="1 2 3"/>
  </body>
</scene>)");
  test::write_file(dir / "main.xml", R"(<scene dt="0.01">
  <include file="parts/rock.xml"/>
  <joint type="ball" child="rock"/>
</scene>)");
  const std::string main_path = (dir / "main.xml").string();
  auto r = sim::load_scene_file(main_path);
  INFO((r.ok() ? std::string() : r.error()));
  REQUIRE(r.ok());
  const sim::SceneSpec& spec = r.value();
  CHECK(spec.name == "main");
  CHECK(spec.dt == Real(0.01));
  CHECK(spec.source_file == main_path);
  REQUIRE(spec.bodies.size() == 1);
  REQUIRE(spec.bodies[0].shapes.size() == 1);
  const sim::ShapeSpec& s = spec.bodies[0].shapes[0];
  CHECK(s.material == 0);
  REQUIRE(s.vertices.size() == 4);
  CHECK(s.vertices[2] == Vec3(0, 2, 0));
  CHECK(s.vertices[3] == Vec3(0, 0, 3));
  CHECK(s.source.line == 4);
  CHECK(s.source.file.find("rock.xml") != std::string::npos);
  CHECK(spec.joints.size() == 1);
  // The mesh file is recorded among the scene's resource files (outputs must not overwrite it).
  REQUIRE(spec.resource_files.size() == 1);
  CHECK(std::filesystem::equivalent(spec.resource_files[0], dir / "parts" / "meshes" / "tet.obj"));

  // Errors inside an included file name that file.
  test::write_file(dir / "parts" / "bad.xml", "<scene>\n  <sphere radius=\"1\"/>\n</scene>\n");
  test::write_file(dir / "main_bad.xml", "<scene>\n  <include file=\"parts/bad.xml\"/>\n</scene>\n");
  auto bad = sim::load_scene_file((dir / "main_bad.xml").string());
  REQUIRE_FALSE(bad.ok());
  CHECK(bad.error().find("bad.xml:2: <sphere>: unknown element") != std::string::npos);

  // A file including itself is an error, not a stack overflow.
  test::write_file(dir / "loop.xml", "<scene>\n  <include file=\"loop.xml\"/>\n</scene>\n");
  auto loop = sim::load_scene_file((dir / "loop.xml").string());
  REQUIRE_FALSE(loop.ok());
  CHECK(loop.error().find("loop.xml:2: <include>:") != std::string::npos);
  CHECK(loop.error().find("includes itself") != std::string::npos);

  auto missing = sim::load_scene_file((dir / "nope.xml").string());
  REQUIRE_FALSE(missing.ok());
  CHECK(missing.error().find("nope.xml") != std::string::npos);
  std::filesystem::remove_all(dir);
}

TEST_CASE("scene xml: malformed input names file, line and element", "[unit][io]") {
  SECTION("XML syntax error") {
    check_error(xml_lines({"<scene>",                 // 1
                           "  <body name=\"a\">",     // 2
                           "    <box size=\"1 1 1\"/>",  // 3
                           "</scene>"}),              // 4
                2, "body", "XML syntax error: not closed");
    check_error(xml_lines({"<scene>", "  <material name=\"a\" friction=0.5/>", "</scene>"}), 2, "material",
                "XML syntax error: malformed attribute");
    auto empty = sim::parse_scene_xml("", "test.xml");
    REQUIRE_FALSE(empty.ok());
    CHECK(empty.error().rfind("test.xml:", 0) == 0);
  }
  SECTION("root element") {
    check_error(xml_lines({"<!-- x -->", "<world/>"}), 2, "world", "root element must be <scene>");
  }
  SECTION("unknown element") {
    check_error(xml_lines({"<scene>", "  <material name=\"a\"/>", "  <bodyy/>", "</scene>"}), 3, "bodyy",
                "unknown element");
    check_error(xml_lines({"<scene>", "  <body>", "    <sphre radius=\"1\"/>", "  </body>", "</scene>"}), 3,
                "sphre", "unknown element in <body>");
    check_error(xml_lines({"<scene>", "  <material name=\"a\">", "    <x/>", "  </material>", "</scene>"}), 3,
                "x", "unexpected element inside <material>");
    check_error(xml_lines({"<scene>", "  <joint type=\"ball\" child=\"b\">", "    <limit/>", "  </joint>",
                           "</scene>"}),
                3, "limit", "unknown element in <joint>");
  }
  SECTION("unknown attribute, on the attribute's own line") {
    check_error(xml_lines({"<scene>",                  // 1
                           "  <body name=\"b\">",      // 2
                           "    <sphere pos=\"0 0 0\"",  // 3
                           "            radiuss=\"1\"/>",  // 4
                           "  </body>", "</scene>"}),
                4, "sphere", "unknown attribute 'radiuss'");
    check_error(xml_lines({"<scene colour=\"red\"/>"}), 1, "scene", "unknown attribute 'colour'");
  }
  SECTION("malformed numbers") {
    check_error(xml_lines({"<scene>", "  <body>", "    <sphere radius=\"abc\"/>", "  </body>", "</scene>"}), 3,
                "sphere", "malformed number 'abc'");
    check_error(xml_lines({"<scene dt=\"0.01s\"/>"}), 1, "scene", "malformed number '0.01s'");
    check_error(xml_lines({"<scene>", "  <material name=\"m\" friction=\"nan\"/>", "</scene>"}), 2, "material",
                "malformed number");
    check_error(xml_lines({"<scene>", "  <world>", "    <sphere radius=\"1e999\"/>", "  </world>", "</scene>"}),
                3, "sphere", "malformed number");
    check_error(xml_lines({"<scene>", "  <rope start=\"0 0 0\" end=\"1 0 0\" segments=\"2.5\"/>", "</scene>"}), 2,
                "rope", "expected an integer");
    check_error(xml_lines({"<scene>", "  <body fixed=\"maybe\"/>", "</scene>"}), 2, "body",
                "expected true or false");
  }
  SECTION("wrong vector arity") {
    check_error(xml_lines({"<scene>", "  <body pos=\"1 2\" mass=\"1\"/>", "</scene>"}), 2, "body",
                "expected 3 numbers, got 2");
    check_error(xml_lines({"<scene gravity=\"0 0 -9.81 0\"/>"}), 1, "scene", "expected 3 numbers, got 4");
    check_error(xml_lines({"<scene>", "  <body quat=\"1 0 0\" mass=\"1\"/>", "</scene>"}), 2, "body",
                "expected 4 numbers");
    check_error(xml_lines({"<scene>", "  <world>", "    <convex vertices=\"0 0 0 1 0 0 0 1 0 0 0\"/>",
                           "  </world>", "</scene>"}),
                3, "convex", "x y z triples");
    check_error(xml_lines({"<scene>", "  <world>", "    <convex vertices=\"0 0 0 1 0 0 0 1 0\"/>",
                           "  </world>", "</scene>"}),
                3, "convex", "at least 4 vertices");
  }
  SECTION("values out of range") {
    check_error(xml_lines({"<scene>", "  <body>", "    <sphere radius=\"-0.5\"/>", "  </body>", "</scene>"}), 3,
                "sphere", "must be > 0");
    check_error(xml_lines({"<scene>", "  <world>", "    <box size=\"1 0 1\"/>", "  </world>", "</scene>"}), 3,
                "box", "must be > 0");
    check_error(xml_lines({"<scene dt=\"0\"/>"}), 1, "scene", "must be > 0");
    check_error(xml_lines({"<scene>", "  <material name=\"m\" friction=\"-1\"/>", "</scene>"}), 2, "material",
                "must be >= 0");
    check_error(xml_lines({"<scene>", "  <body mass=\"-2\"/>", "</scene>"}), 2, "body", "must be > 0");
    check_error(xml_lines({"<scene>", "  <particle pos=\"0 0 0\" radius=\"0\"/>", "</scene>"}), 2, "particle",
                "must be > 0");
    check_error(xml_lines({"<scene>", "  <world>", "    <cylinder radius=\"1\" length=\"1\" segments=\"2\"/>",
                           "  </world>", "</scene>"}),
                3, "cylinder", "integer >= 3");
    check_error(xml_lines({"<scene>", "  <body quat=\"0 0 0 0\" mass=\"1\"/>", "</scene>"}), 2, "body",
                "must not be zero");
    check_error(xml_lines({"<scene>", "  <world>", "    <plane normal=\"0 0 0\"/>", "  </world>", "</scene>"}), 3,
                "plane", "must not be zero");
  }
  SECTION("missing required attribute") {
    check_error(xml_lines({"<scene>", "  <world>", "    <sphere/>", "  </world>", "</scene>"}), 3, "sphere",
                "missing required attribute 'radius'");
    check_error(xml_lines({"<scene>", "  <material friction=\"1\"/>", "</scene>"}), 2, "material",
                "missing required attribute 'name'");
    check_error(xml_lines({"<scene>", "  <body name=\"b\" mass=\"1\"/>", "  <joint child=\"b\"/>", "</scene>"}),
                3, "joint", "missing required attribute 'type'");
    check_error(xml_lines({"<scene>", "  <world>", "    <box/>", "  </world>", "</scene>"}), 3, "box",
                "'half_extents' or 'size'");
    check_error(xml_lines({"<scene>", "  <particle mass=\"1\"/>", "</scene>"}), 2, "particle",
                "missing required attribute 'pos'");
    check_error(xml_lines({"<scene>", "  <body name=\"b\"/>", "</scene>"}), 2, "body", "needs shapes or a mass");
  }
  SECTION("conflicting attributes") {
    check_error(xml_lines({"<scene>", "  <body quat=\"1 0 0 0\"", "        euler=\"0 0 0\" mass=\"1\"/>",
                           "</scene>"}),
                3, "body", "cannot be combined with 'quat'");
    check_error(xml_lines({"<scene>", "  <world>", "    <box size=\"1 1 1\" half_extents=\"1 1 1\"/>",
                           "  </world>", "</scene>"}),
                3, "box", "cannot be combined");
  }
  SECTION("unknown names") {
    check_error(xml_lines({"<scene>", "  <body>", "    <sphere radius=\"1\" material=\"gold\"/>", "  </body>",
                           "</scene>"}),
                3, "sphere", "unknown material 'gold'");
    check_error(xml_lines({"<scene>", "  <material name=\"m\"/>", "  <body material=\"nope\">",
                           "    <sphere radius=\"1\"/>", "  </body>", "</scene>"}),
                3, "body", "unknown material 'nope' (defined: m)");
    check_error(xml_lines({"<scene>", "  <body name=\"a\" mass=\"1\"/>",
                           "  <joint type=\"ball\" parent=\"a\" child=\"b\"/>", "</scene>"}),
                3, "joint", "unknown body 'b'");
    check_error(xml_lines({"<scene>", "  <particle pos=\"0 0 0\"/>", "  <distance a=\"0\" b=\"q\"/>", "</scene>"}),
                3, "distance", "unknown particle 'q'");
    check_error(xml_lines({"<scene>", "  <particle pos=\"0 0 0\"/>", "  <distance a=\"0\" b=\"1\"/>", "</scene>"}),
                3, "distance", "out of range");
  }
  SECTION("self references and duplicates") {
    check_error(xml_lines({"<scene>", "  <body name=\"a\" mass=\"1\"/>", "  <joint type=\"fixed\" parent=\"a\"",
                           "         child=\"a\"/>", "</scene>"}),
                4, "joint", "to itself");
    check_error(xml_lines({"<scene>", "  <body name=\"a\" mass=\"1\"/>",
                           "  <joint type=\"fixed\" parent=\"a\" child=\"world\"/>", "</scene>"}),
                3, "joint", "child must be a body");
    check_error(xml_lines({"<scene>", "  <particle name=\"p\" pos=\"0 0 0\"/>", "  <particle pos=\"1 0 0\"/>",
                           "  <distance a=\"p\" b=\"0\"/>", "</scene>"}),
                4, "distance", "two different particles");
    check_error(xml_lines({"<scene>", "  <body name=\"a\" mass=\"1\"/>", "  <body name=\"a\" mass=\"1\"/>",
                           "</scene>"}),
                3, "body", "duplicate body name 'a'");
    check_error(xml_lines({"<scene>", "  <material name=\"m\"/>", "  <material name=\"m\"/>", "</scene>"}), 3,
                "material", "duplicate material name");
    check_error(xml_lines({"<scene>", "  <body name=\"world\" mass=\"1\"/>", "</scene>"}), 2, "body",
                "reserved");
  }
  SECTION("joint details") {
    check_error(xml_lines({"<scene>", "  <body name=\"a\" mass=\"1\"/>",
                           "  <joint type=\"ball\" child=\"a\" axis=\"0 0 1\"/>", "</scene>"}),
                3, "joint", "only revolute and prismatic");
    check_error(xml_lines({"<scene>", "  <body name=\"a\" mass=\"1\"/>",
                           "  <joint type=\"revolute\" child=\"a\" limit=\"1 -1\"/>", "</scene>"}),
                3, "joint", "lower limit above upper limit");
    check_error(xml_lines({"<scene>", "  <body name=\"a\" mass=\"1\"/>", "  <joint type=\"hinge\" child=\"a\"/>",
                           "</scene>"}),
                3, "joint", "expected fixed, revolute, prismatic or ball");
    check_error(xml_lines({"<scene>", "  <body name=\"a\" mass=\"1\"/>", "  <joint type=\"revolute\" child=\"a\">",
                           "    <drive mode=\"position\" damping=\"1\"/>", "  </joint>", "</scene>"}),
                4, "drive", "needs stiffness > 0");
    check_error(xml_lines({"<scene>", "  <body name=\"a\" mass=\"1\"/>",
                           "  <joint type=\"revolute\" child=\"a\" pos=\"0 0 0\">", "    <child_frame/>",
                           "  </joint>", "</scene>"}),
                4, "child_frame", "cannot be combined with pose attributes");
  }
  SECTION("planes belong to the world") {
    check_error(xml_lines({"<scene>", "  <body>", "    <plane/>", "  </body>", "</scene>"}), 3, "plane",
                "world geometry only");
  }
  SECTION("solver options") {
    check_error(xml_lines({"<scene>", "  <solver newton_iterations=\"4\"", "          linear_solver=\"magic\"/>",
                           "</scene>"}),
                3, "solver", "bad value 'magic'");
    check_error(xml_lines({"<scene>", "  <solver speed=\"fast\"/>", "</scene>"}), 2, "solver",
                "unknown attribute 'speed'");
  }
  SECTION("generators") {
    check_error(xml_lines({"<scene>", "  <cloth size=\"1 1\" segments=\"2 2\" pin=\"9:9\"/>", "</scene>"}), 2,
                "cloth", "outside");
    check_error(xml_lines({"<scene>", "  <cloth size=\"1 1\" segments=\"2\"/>", "</scene>"}), 2, "cloth",
                "two integers");
    check_error(xml_lines({"<scene>", "  <rope start=\"0 0 0\" end=\"1 0 0\" segments=\"2\" pin=\"middle\"/>",
                           "</scene>"}),
                2, "rope", "expected none, start, end or both");
    check_error(xml_lines({"<scene>", "  <rope start=\"0 0 0\" end=\"0 0 0\" segments=\"2\"/>", "</scene>"}), 2,
                "rope", "must differ");
  }
  SECTION("stray text") {
    check_error(xml_lines({"<scene>", "  <body mass=\"1\">oops</body>", "</scene>"}), 2, "body",
                "unexpected text");
  }
  SECTION("include") {
    check_error(xml_lines({"<scene>", "  <include file=\"nonexistent/dir/x.xml\"/>", "</scene>"}), 2, "include",
                "cannot read");
  }
}

TEST_CASE("scene xml: damaged files never crash the parser", "[unit][io]") {
  const std::string path = std::string(COULOMB_SOURCE_DIR) + "/assets/scenes/flexible_beam.xml";
  std::ifstream in(path, std::ios::binary);
  REQUIRE(in);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  REQUIRE(sim::parse_scene_xml(text, "beam.xml").ok());
  int failures = 0;
  // Every truncation, and single-character corruptions at many positions.
  for (std::size_t n = 0; n < text.size(); n += 3) {
    auto r = sim::parse_scene_xml(text.substr(0, n), "beam.xml");
    if (!r.ok()) {
      ++failures;
      CHECK(r.error().rfind("beam.xml:", 0) == 0);
    }
  }
  const char junk[] = {'<', '>', '"', '=', 'x', '-', '&', '\0', '9', '/'};
  for (std::size_t i = 0; i < text.size(); i += 5) {
    std::string bad = text;
    bad[i] = junk[i % sizeof(junk)];
    auto r = sim::parse_scene_xml(bad, "beam.xml");
    if (!r.ok()) CHECK(r.error().rfind("beam.xml:", 0) == 0);
  }
  CHECK(failures > 0);
}

TEST_CASE("scene xml: a robot's description and mesh files are recorded as the scene's resource files",
          "[unit][io][robot]") {
  if (!test::shared_robots_available()) {
    WARN("skipped: ../shared/robots is absent");
    return;
  }
  auto r = sim::load_scene_file(std::string(COULOMB_SOURCE_DIR) + "/assets/scenes/fetch.xml");
  INFO((r.ok() ? std::string() : r.error()));
  REQUIRE(r.ok());
  const std::vector<std::string>& files = r->resource_files;
  int urdf = 0, meshes = 0;
  for (const std::string& f : files) {
    INFO(f);
    CHECK(std::filesystem::is_regular_file(f));  // resolved paths of files that were read
    const std::string ext = std::filesystem::path(f).extension().string();
    urdf += ext == ".urdf" ? 1 : 0;
    meshes += ext == ".STL" || ext == ".stl" || ext == ".dae" ? 1 : 0;
  }
  CHECK(urdf == 1);
  CHECK(meshes >= 10);  // fetch.urdf names 42 <mesh> elements, most of them found
}
