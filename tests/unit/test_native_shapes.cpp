// Native cylinder and ellipsoid shapes (ShapeType::Cylinder, Ellipsoid): exact mass properties,
// exact contacts against a plane (gap from the closed-form support point; an ellipsoid touches at
// one point, a standing cylinder at four rim points, a lying one at two), resting heights after
// dropping them, MJCF and URDF geoms imported as these shapes, and the scene XML round trip.
#include <catch2/catch.hpp>

#include <cmath>
#include <numbers>
#include <string>

#include "collision/collide.hpp"
#include "sim/compile.hpp"
#include "sim/robot_import.hpp"
#include "sim/scene_io.hpp"
#include "sim/state.hpp"
#include "sim/step.hpp"
#include "support/parse_checks.hpp"

namespace {

using sim::Quat;
using sim::Real;
using sim::Vec3;
constexpr Real kPi = std::numbers::pi_v<Real>;

Quat about(const Vec3& axis, Real angle) { return Quat(Eigen::AngleAxis<Real>(angle, axis.normalized())); }

// A ground plane and one body holding `shape`, at `pose`.
sim::SceneSpec on_ground(const sim::ShapeSpec& shape, const sim::Pose& pose) {
  sim::SceneSpec spec;
  spec.dt = Real(0.005);
  sim::ShapeSpec plane;
  plane.type = sim::ShapeType::Plane;
  spec.world_shapes.push_back(plane);
  sim::BodySpec body;
  body.name = "body";
  body.pose = pose;
  body.shapes.push_back(shape);
  spec.bodies.push_back(body);
  return spec;
}

sim::ShapeSpec cylinder(Real radius, Real half_length) {
  sim::ShapeSpec s;
  s.type = sim::ShapeType::Cylinder;
  s.radius = radius;
  s.half_length = half_length;
  return s;
}

sim::ShapeSpec ellipsoid(const Vec3& radii) {
  sim::ShapeSpec s;
  s.type = sim::ShapeType::Ellipsoid;
  s.half_extents = radii;
  return s;
}

sim::Model compiled(const sim::SceneSpec& spec) {
  auto m = sim::compile_model(spec);
  INFO((m.ok() ? std::string("ok") : m.error()));
  REQUIRE(m.ok());
  return std::move(m.value());
}

// The contacts of `state` (margin 1 cm).
std::vector<sim::Contact> contacts_of(const sim::Model& m, const sim::State& state) {
  sim::detail::CollisionScratch scratch;
  sim::ContactBuffer out;
  sim::generate_contacts(m, state, m.dt, Real(0.01), scratch, out);
  return out.contacts;
}

// Drops the body for `seconds`: its final height and the number of contacts then in touch
// (gap below 1 mm).
std::pair<Real, int> rest(const sim::SceneSpec& spec, Real seconds) {
  const sim::Model m = compiled(spec);
  sim::State state = sim::make_initial_state(m);
  const sim::Control control = sim::make_initial_control(m);
  sim::Workspace ws;
  while (state.time < seconds) REQUIRE(sim::step(m, state, control, ws).ok());
  int touching = 0;
  for (const sim::Contact& c : contacts_of(m, state)) touching += c.initial_gap < Real(1e-3) ? 1 : 0;
  return {state.body_position(0).z(), touching};
}

}  // namespace

TEST_CASE("native cylinder and ellipsoid: exact mass and inertia", "[unit][collision][native]") {
  const Real rho = 1000;
  {
    const Real r = Real(0.1), h = Real(0.2);
    const sim::Model m = compiled(on_ground(cylinder(r, h), sim::Pose{Vec3(0, 0, 1), Quat::Identity()}));
    const Real mass = rho * kPi * r * r * 2 * h;
    CHECK(1 / m.body_inv_mass[0] == Approx(mass).epsilon(1e-12));
    const Vec3 i = m.body_inertia[0];
    const Real ix = mass * (3 * r * r + 4 * h * h) / 12, iz = mass * r * r / 2;
    // Principal moments, in some order.
    CHECK(i.sum() == Approx(2 * ix + iz).epsilon(1e-12));
    CHECK(i.maxCoeff() == Approx(std::max(ix, iz)).epsilon(1e-12));
    CHECK(i.minCoeff() == Approx(std::min(ix, iz)).epsilon(1e-12));
  }
  {
    const Vec3 a(Real(0.1), Real(0.15), Real(0.2));
    const sim::Model m = compiled(on_ground(ellipsoid(a), sim::Pose{Vec3(0, 0, 1), Quat::Identity()}));
    const Real mass = rho * 4 * kPi / 3 * a.x() * a.y() * a.z();
    CHECK(1 / m.body_inv_mass[0] == Approx(mass).epsilon(1e-12));
    const Vec3 i = m.body_inertia[0];
    CHECK(i.sum() == Approx(2 * mass / 5 * a.squaredNorm()).epsilon(1e-12));
    CHECK(i.maxCoeff() == Approx(mass / 5 * (a.y() * a.y() + a.z() * a.z())).epsilon(1e-12));
    CHECK(i.minCoeff() == Approx(mass / 5 * (a.x() * a.x() + a.y() * a.y())).epsilon(1e-12));
  }
}

TEST_CASE("native shapes against a plane: exact gaps from the support point", "[unit][collision][native]") {
  // Ellipsoid turned by theta about x at height z0: its lowest point is
  // sqrt(b² sin² theta + c² cos² theta) below its centre; one contact.
  const Vec3 a(Real(0.1), Real(0.15), Real(0.2));
  for (Real theta : {Real(0), Real(0.3), Real(1.1), kPi / 2}) {
    INFO("theta " << theta);
    const Real s = std::sin(theta), c = std::cos(theta);
    const Real depth = std::sqrt(a.y() * a.y() * s * s + a.z() * a.z() * c * c);
    const Real z0 = depth + Real(0.004);  // 4 mm above the plane
    const sim::Model m = compiled(on_ground(ellipsoid(a), sim::Pose{Vec3(0, 0, z0), about(Vec3::UnitX(), theta)}));
    const auto contacts = contacts_of(m, sim::make_initial_state(m));
    REQUIRE(contacts.size() == 1);
    const Real expected = z0 - depth;
    CHECK(contacts[0].initial_gap == Approx(expected).margin(1e-12));
    CHECK(contacts[0].normal.z() == Approx(1).margin(1e-12));
  }
  // Cylinder tilted by theta about x: its lowest rim point is h cos theta + r sin theta below the
  // centre.
  const Real r = Real(0.1), h = Real(0.2);
  for (Real theta : {Real(0.2), Real(0.7), Real(1.3)}) {
    INFO("theta " << theta);
    const Real z0 = h * std::cos(theta) + r * std::sin(theta) + Real(0.002);
    const sim::Model m = compiled(on_ground(cylinder(r, h), sim::Pose{Vec3(0, 0, z0), about(Vec3::UnitX(), theta)}));
    const auto contacts = contacts_of(m, sim::make_initial_state(m));
    REQUIRE_FALSE(contacts.empty());
    Real lowest = 1;
    for (const sim::Contact& k : contacts) lowest = std::min(lowest, k.initial_gap);
    CHECK(lowest == Approx(0.002).margin(1e-12));
  }
}

TEST_CASE("native shapes rest on a plane at their closed-form heights with few contacts", "[unit][collision][native]") {
  const Real r = Real(0.1), h = Real(0.2);
  {
    // Standing: on its cap, centre at h, touching at four rim points.
    const auto [z, touching] = rest(on_ground(cylinder(r, h), sim::Pose{Vec3(0, 0, h + Real(0.01)), Quat::Identity()}), 1);
    CHECK(z == Approx(h).margin(1e-3));
    CHECK(touching == 4);
  }
  {
    // Lying: on its side, centre at r, touching at one rim point per cap.
    const auto [z, touching] =
        rest(on_ground(cylinder(r, h), sim::Pose{Vec3(0, 0, r + Real(0.01)), about(Vec3::UnitX(), kPi / 2)}), 1);
    CHECK(z == Approx(r).margin(1e-3));
    CHECK(touching == 2);
  }
  {
    // Ellipsoid on its longest axis' end tips over; on its shortest semi-axis (a = 0.1 along z
    // after a quarter turn about y) it rests at a, touching at one point.
    const Vec3 a(Real(0.1), Real(0.15), Real(0.2));
    const auto [z, touching] =
        rest(on_ground(ellipsoid(a), sim::Pose{Vec3(0, 0, a.x() + Real(0.01)), about(Vec3::UnitY(), kPi / 2)}), 1);
    CHECK(z == Approx(a.x()).margin(1e-3));
    CHECK(touching == 1);
  }
}

TEST_CASE("MJCF and URDF cylinders and ellipsoids import as native shapes", "[unit][import][native]") {
  auto mjcf = sim::parse_mjcf(test::xml_lines({
      "<mujoco><worldbody><body name='b'><freejoint/>",
      "  <geom type='cylinder' size='0.05 0.1'/>",
      "  <geom type='ellipsoid' size='0.1 0.2 0.3' pos='0 0 1'/>",
      "  <geom type='cylinder' fromto='0 0 0 0.4 0 0' size='0.02'/>",
      "</body></worldbody></mujoco>",
  }), "m.xml");
  REQUIRE(mjcf.ok());
  CHECK(mjcf.value().warnings.empty());  // nothing approximated
  const auto& shapes = mjcf.value().scene.bodies.at(0).shapes;
  REQUIRE(shapes.size() == 3);
  CHECK(shapes[0].type == sim::ShapeType::Cylinder);
  CHECK(shapes[0].radius == Approx(0.05));
  CHECK(shapes[0].half_length == Approx(0.1));
  CHECK(shapes[1].type == sim::ShapeType::Ellipsoid);
  CHECK(shapes[1].half_extents.isApprox(Vec3(Real(0.1), Real(0.2), Real(0.3))));
  CHECK(shapes[2].type == sim::ShapeType::Cylinder);
  CHECK(shapes[2].half_length == Approx(0.2));
  CHECK((shapes[2].local.rot * Vec3::UnitZ() - Vec3::UnitX()).norm() < 1e-9);
  // The mass of the body: the exact volumes at 1000 kg/m^3.
  const Real volume = kPi * Real(0.05 * 0.05 * 0.2) + 4 * kPi / 3 * Real(0.1 * 0.2 * 0.3) + kPi * Real(0.02 * 0.02 * 0.4);
  CHECK(mjcf.value().scene.bodies[0].mass == Approx(1000 * volume).epsilon(1e-9));

  auto urdf = sim::parse_urdf(test::xml_lines({
      "<robot name='r'><link name='l'>",
      "  <inertial><mass value='1'/><inertia ixx='0.01' iyy='0.01' izz='0.01' ixy='0' ixz='0' iyz='0'/></inertial>",
      "  <collision><geometry><cylinder radius='0.04' length='0.3'/></geometry></collision>",
      "</link></robot>",
  }), "r.urdf");
  REQUIRE(urdf.ok());
  CHECK(urdf.value().warnings.empty());
  REQUIRE(urdf.value().scene.bodies.at(0).shapes.size() == 1);
  CHECK(urdf.value().scene.bodies[0].shapes[0].type == sim::ShapeType::Cylinder);
  CHECK(urdf.value().scene.bodies[0].shapes[0].half_length == Approx(0.15));
}

TEST_CASE("scene XML: native cylinders and ellipsoids round-trip, prisms stay prisms", "[unit][scene][native]") {
  const std::string xml = test::xml_lines({
      "<scene>",
      "  <body name='a'>",
      "    <cylinder radius='0.1' half_length='0.2'/>",
      "    <cylinder radius='0.1' length='0.4' segments='12' pos='1 0 0'/>",
      "    <ellipsoid radii='0.1 0.2 0.3' pos='0 1 0' euler='10 20 30'/>",
      "  </body>",
      "</scene>",
  });
  const sim::SceneSpec spec = test::parse_scene_ok(xml, "native.xml");
  const auto& shapes = spec.bodies.at(0).shapes;
  REQUIRE(shapes.size() == 3);
  CHECK(shapes[0].type == sim::ShapeType::Cylinder);
  CHECK(shapes[1].type == sim::ShapeType::ConvexMesh);  // segments given: the prism as before
  CHECK(shapes[1].vertices.size() == 24);
  CHECK(shapes[2].type == sim::ShapeType::Ellipsoid);
  const std::string written = sim::write_scene_xml(spec);
  CHECK(written.find("<ellipsoid") != std::string::npos);
  const sim::SceneSpec reread = test::parse_scene_ok(written, "native2.xml");
  const auto& again = reread.bodies.at(0).shapes;
  REQUIRE(again.size() == 3);
  for (std::size_t k = 0; k < 3; ++k) {
    CHECK(again[k].type == shapes[k].type);
    CHECK(again[k].radius == shapes[k].radius);
    CHECK(again[k].half_length == shapes[k].half_length);
    CHECK(again[k].half_extents == shapes[k].half_extents);
    CHECK(again[k].vertices == shapes[k].vertices);
    CHECK(again[k].local.pos == shapes[k].local.pos);
    CHECK(again[k].local.rot.coeffs() == shapes[k].local.rot.coeffs());
  }
  CHECK(sim::write_scene_xml(reread) == written);
  test::check_error(sim::parse_scene_xml("<scene>\n  <world><ellipsoid radii='1 0 1'/></world>\n</scene>\n", "bad.xml"),
                    "bad.xml", 2, "ellipsoid", {"radii"});
}
