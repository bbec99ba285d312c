// Native cylinder and ellipsoid shapes (ShapeType::Cylinder, Ellipsoid): exact mass properties,
// exact contacts against a plane (gap from the closed-form support point; an ellipsoid touches at
// one point, a standing cylinder at four rim points, a lying one at two), resting heights after
// dropping them, MJCF and URDF geoms imported as these shapes, and the scene XML round trip.
// Against convex shapes (narrowphase_native.cpp): a sphere's gap and normal against the closed
// forms of the distance to an ellipsoid and a cylinder (and the old hull's error beside them),
// manifolds of a cylinder on a box, crossed and parallel cylinders, a capsule on a cap, and
// resting heights on a box.
#include <catch2/catch.hpp>

#include <cmath>
#include <numbers>
#include <string>

#include "collision/collide.hpp"
#include "io/generated_geometry.hpp"
#include "sim/compile.hpp"
#include "sim/robot_import.hpp"
#include "sim/scene_io.hpp"
#include "sim/state.hpp"
#include "sim/step.hpp"
#include "support/parse_checks.hpp"

namespace {

using sim::Mat3;
using sim::Quat;
using sim::Real;
using sim::Vec3;
constexpr Real kPi = std::numbers::pi_v<Real>;

Quat about(const Vec3& axis, Real angle) { return Quat(Eigen::AngleAxis<Real>(angle, axis.normalized())); }

// A world shape `support` and one body holding `shape`, at `pose`.
sim::SceneSpec resting_on(const sim::ShapeSpec& support, const sim::ShapeSpec& shape, const sim::Pose& pose) {
  sim::SceneSpec spec;
  spec.dt = Real(0.005);
  spec.world_shapes.push_back(support);
  sim::BodySpec body;
  body.name = "body";
  body.pose = pose;
  body.shapes.push_back(shape);
  spec.bodies.push_back(body);
  return spec;
}

// A ground plane under the body.
sim::SceneSpec on_ground(const sim::ShapeSpec& shape, const sim::Pose& pose) {
  sim::ShapeSpec plane;
  plane.type = sim::ShapeType::Plane;
  return resting_on(plane, shape, pose);
}

// A world box 2 m wide whose top face is z = 0 (world shape `local` is its world pose).
sim::ShapeSpec table_top() {
  sim::ShapeSpec box;
  box.type = sim::ShapeType::Box;
  box.half_extents = Vec3(1, 1, Real(0.1));
  box.local.pos = Vec3(0, 0, Real(-0.1));
  return box;
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

struct Rest {
  Real z = 0;         // final height of the body [m]
  int touching = 0;   // contacts in touch (gap below 1 mm)
  Real drift = 0;     // horizontal travel [m]
  Real speed = 0;     // final |v| + |w| r [m/s], r the body's bounding radius
};

// Drops (or sets down) the body for `seconds`: where it ends and how many contacts touch.
Rest rest(const sim::SceneSpec& spec, Real seconds) {
  const sim::Model m = compiled(spec);
  sim::State state = sim::make_initial_state(m);
  const sim::Control control = sim::make_initial_control(m);
  sim::Workspace ws;
  const Vec3 start = state.body_position(0);
  while (state.time < seconds) REQUIRE(sim::step(m, state, control, ws).ok());
  Rest r;
  for (const sim::Contact& c : contacts_of(m, state)) r.touching += c.initial_gap < Real(1e-3) ? 1 : 0;
  r.z = state.body_position(0).z();
  const Vec3 travel = state.body_position(0) - start;
  r.drift = std::hypot(travel.x(), travel.y());
  r.speed = state.body_velocity(0).norm() + state.body_angular_velocity(0).norm() * m.body_bound_radius[0];
  return r;
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
    const auto [z, touching, drift, speed] = rest(on_ground(cylinder(r, h), sim::Pose{Vec3(0, 0, h + Real(0.01)), Quat::Identity()}), 1);
    CHECK(z == Approx(h).margin(1e-3));
    CHECK(touching == 4);
    CHECK(drift < 1e-3);
    CHECK(speed < 1e-2);
  }
  {
    // Lying: on its side, centre at r, touching at one rim point per cap.
    const auto [z, touching, drift, speed] =
        rest(on_ground(cylinder(r, h), sim::Pose{Vec3(0, 0, r + Real(0.01)), about(Vec3::UnitX(), kPi / 2)}), 1);
    CHECK(z == Approx(r).margin(1e-3));
    CHECK(touching == 2);
    CHECK(drift < 1e-3);
    CHECK(speed < 1e-2);
  }
  {
    // Ellipsoid on its longest axis' end tips over; on its shortest semi-axis (a = 0.1 along z
    // after a quarter turn about y) it rests at a, touching at one point.
    const Vec3 a(Real(0.1), Real(0.15), Real(0.2));
    const auto [z, touching, drift, speed] =
        rest(on_ground(ellipsoid(a), sim::Pose{Vec3(0, 0, a.x() + Real(0.01)), about(Vec3::UnitY(), kPi / 2)}), 1);
    CHECK(z == Approx(a.x()).margin(1e-3));
    CHECK(touching == 1);
    CHECK(drift < 1e-3);
    CHECK(speed < 1e-2);
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

// ---- against convex shapes (collision/narrowphase_native.cpp) ----------------------------------

namespace {

sim::ShapeSpec sphere(Real radius) {
  sim::ShapeSpec s;
  s.type = sim::ShapeType::Sphere;
  s.radius = radius;
  return s;
}

// The contacts of a body holding `shape` at `pose` against the world shape `other` (margin 1 cm);
// their normals point from `other` to the body.
std::vector<sim::Contact> against(const sim::ShapeSpec& other, const sim::ShapeSpec& shape, const sim::Pose& pose) {
  const sim::Model m = compiled(resting_on(other, shape, pose));
  return contacts_of(m, sim::make_initial_state(m));
}

struct Expected {
  Vec3 centre;  // the sphere's centre [m]
  Real gap;     // signed distance between the surfaces [m]
  Vec3 normal;  // unit, from the other shape towards the sphere
};

// Worst gap and normal errors of a sphere of radius r at each expected pose against `other`,
// each pose making exactly one contact.
std::pair<Real, Real> sphere_errors(const sim::ShapeSpec& other, Real r, const std::vector<Expected>& poses) {
  Real gap_error = 0, normal_error = 0;
  for (const Expected& e : poses) {
    const auto contacts = against(other, sphere(r), sim::Pose{e.centre, Quat::Identity()});
    INFO("centre " << e.centre.transpose() << " gap " << e.gap);
    REQUIRE(contacts.size() == 1);
    gap_error = std::max(gap_error, std::abs(contacts[0].initial_gap - e.gap));
    normal_error = std::max(normal_error, (contacts[0].normal - e.normal).norm());
  }
  return {gap_error, normal_error};
}

}  // namespace

TEST_CASE("native narrowphase: a sphere against an ellipsoid has the closed-form gap and normal, the old hull's is off",
          "[unit][collision][native]") {
  // Ellipsoid x = c + R A u, |u| = 1, with outward normal R A⁻² A u / |A⁻² A u|. A sphere centred at
  // x + t n has x as its nearest surface point, for t > 0 and for t < 0 well inside the smallest
  // radius of curvature (0.1² / 0.2 = 0.05 m here), so its gap is t - r along n: outside the core
  // by GJK, a centre inside the ellipsoid by EPA.
  const Vec3 radii(Real(0.1), Real(0.15), Real(0.2));
  const sim::Pose pose{Vec3(Real(0.3), Real(-0.2), Real(0.5)), about(Vec3(1, 2, 3), Real(0.7))};
  const Mat3 rot = pose.rot.toRotationMatrix();
  const Real r = Real(0.05);
  std::vector<Expected> poses;
  for (Real theta : {Real(0.3), Real(1.2), Real(2.5)})
    for (Real phi : {Real(0.4), Real(2.0), Real(4.0)})
      for (Real t : {Real(0.055), Real(0.04), Real(0.01), Real(-0.01)}) {
        const Vec3 u(std::sin(theta) * std::cos(phi), std::sin(theta) * std::sin(phi), std::cos(theta));
        const Vec3 x = radii.cwiseProduct(u);
        const Vec3 n = rot * u.cwiseQuotient(radii).normalized();
        poses.push_back({pose.apply(x) + t * n, t - r, n});
      }
  sim::ShapeSpec native = ellipsoid(radii);
  native.local = pose;
  const auto [gap_error, normal_error] = sphere_errors(native, r, poses);
  INFO("native: gap error " << gap_error << " m, normal error " << normal_error);
  // Gaps to 1e-6 of the semi-axes (measured: 2e-10 m); normals after the Newton refinement
  // (collision/normal_refinement.hpp; GJK's and EPA's own were off by up to 4e-5): measured 1e-15.
  CHECK(gap_error < 1e-7);
  CHECK(normal_error < 1e-8);
  // The hull of the 114 surface points that stood for it before: millimetres off.
  sim::ShapeSpec hull;
  hull.type = sim::ShapeType::ConvexMesh;
  hull.vertices = sim::io::native_shape_points(sim::ShapeType::Ellipsoid, 0, 0, radii);
  hull.local = pose;
  const auto [hull_gap_error, hull_normal_error] = sphere_errors(hull, r, poses);
  INFO("hull: gap error " << hull_gap_error << " m, normal error " << hull_normal_error);
  CHECK(hull_gap_error > 1e-3);
  CHECK(hull_gap_error > 1e4 * gap_error);
  CHECK(hull_normal_error > 100 * normal_error);
}

TEST_CASE("native narrowphase: a sphere against a cylinder has the closed-form gap and normal",
          "[unit][collision][native]") {
  const Real rho = Real(0.1), h = Real(0.2), r = Real(0.05);
  const sim::Pose pose{Vec3(Real(-0.1), Real(0.4), Real(0.3)), about(Vec3(-1, 1, 2), Real(1.1))};
  const Mat3 rot = pose.rot.toRotationMatrix();
  const Vec3 axis = rot.col(2);
  std::vector<Expected> poses;
  for (Real alpha : {Real(0.3), Real(2.2), Real(4.4)}) {
    const Vec3 radial = rot * Vec3(std::cos(alpha), std::sin(alpha), 0);
    for (Real t : {Real(0.055), Real(0.03), Real(-0.012)}) {
      // Over the cap (inside its disc), beside the side wall, and past the rim circle.
      poses.push_back({pose.pos + Real(0.04) * radial + (h + t) * axis, t - r, axis});
      poses.push_back({pose.pos + (rho + t) * radial - Real(0.05) * axis, t - r, radial});
    }
    for (const auto& [s, u] : {std::pair{Real(0.02), Real(0.03)}, std::pair{Real(0.03), Real(0.01)}}) {
      const Real d = std::hypot(s, u);
      poses.push_back({pose.pos + (rho + s) * radial - (h + u) * axis, d - r, (s * radial - u * axis) / d});
    }
  }
  sim::ShapeSpec native = cylinder(rho, h);
  native.local = pose;
  const auto [gap_error, normal_error] = sphere_errors(native, r, poses);
  INFO("gap error " << gap_error << " m, normal error " << normal_error);
  CHECK(gap_error < 1e-7);      // measured 1.5e-10 m
  CHECK(normal_error < 1e-8);   // measured 2e-10 (the side is ruled: refined across its axis only)
}

TEST_CASE("native narrowphase: a cylinder standing and lying on a box gets the plane path's manifold",
          "[unit][collision][native]") {
  const Real rho = Real(0.1), h = Real(0.2), depth = Real(0.001);
  struct Case {
    const char* what;
    sim::Pose pose;
    Real lowest;  // the lowest rim point below the centre
    std::size_t count;
  };
  const Real tilt = Real(0.03);
  for (const Case& c : {Case{"standing", {Vec3(Real(0.2), 0, h - depth), Quat::Identity()}, h, 4},
                        Case{"lying", {Vec3(0, Real(0.3), rho - depth), about(Vec3::UnitX(), kPi / 2)}, rho, 2},
                        Case{"tilted", {Vec3(0, 0, h - depth), about(Vec3::UnitY(), tilt)},
                             h * std::cos(tilt) + rho * std::sin(tilt), 4}}) {
    INFO(c.what);
    const auto contacts = against(table_top(), cylinder(rho, h), c.pose);
    REQUIRE(contacts.size() == c.count);
    Real deepest = 1;
    for (const sim::Contact& k : contacts) {
      deepest = std::min(deepest, k.initial_gap);
      CHECK((k.normal - Vec3::UnitZ()).norm() < 1e-12);  // the box face's normal
    }
    CHECK(deepest == Approx(c.pose.pos.z() - c.lowest).margin(1e-9));
  }
}

TEST_CASE("native shapes rest on a box and a box on a cylinder, at their closed-form heights",
          "[unit][collision][native]") {
  const Real rho = Real(0.1), h = Real(0.2);
  {
    const Rest standing = rest(resting_on(table_top(), cylinder(rho, h), {Vec3(Real(0.1), Real(0.2), h + Real(0.005)), Quat::Identity()}), 1);
    CHECK(standing.z == Approx(h).margin(1e-3));
    CHECK(standing.touching == 4);
    CHECK(standing.drift < 1e-3);
    CHECK(standing.speed < 1e-2);
  }
  {
    const Rest lying = rest(resting_on(table_top(), cylinder(rho, h), {Vec3(0, 0, rho + Real(0.005)), about(Vec3::UnitY(), kPi / 2)}), 1);
    CHECK(lying.z == Approx(rho).margin(1e-3));
    CHECK(lying.touching == 2);
    CHECK(lying.drift < 1e-3);
    CHECK(lying.speed < 1e-2);
  }
  {
    // On its shortest semi-axis: one contact, at that height.
    const Vec3 a(Real(0.1), Real(0.15), Real(0.2));
    const Rest e = rest(resting_on(table_top(), ellipsoid(a), {Vec3(0, 0, a.x() + Real(0.005)), about(Vec3::UnitY(), kPi / 2)}), 1);
    CHECK(e.z == Approx(a.x()).margin(1e-3));
    CHECK(e.touching == 1);
    CHECK(e.drift < 1e-3);
  }
  {
    // A 10 cm box on the cap of a standing world cylinder: four corners inside the cap.
    sim::ShapeSpec post = cylinder(rho, h);
    post.local.pos = Vec3(0, 0, h);
    sim::ShapeSpec box;
    box.type = sim::ShapeType::Box;
    box.half_extents = Vec3(Real(0.05), Real(0.05), Real(0.05));
    const Rest b = rest(resting_on(post, box, {Vec3(0, 0, 2 * h + Real(0.055)), Quat::Identity()}), 1);
    CHECK(b.z == Approx(2 * h + Real(0.05)).margin(1e-3));
    CHECK(b.touching == 4);
    CHECK(b.drift < 1e-3);
    // A thinner cylinder standing on the post's cap: cap on cap, its 4 rim points.
    const Rest c = rest(resting_on(post, cylinder(Real(0.05), Real(0.1)), {Vec3(Real(0.02), 0, 2 * h + Real(0.105)), Quat::Identity()}), 1);
    CHECK(c.z == Approx(2 * h + Real(0.1)).margin(1e-3));
    CHECK(c.touching == 4);
    CHECK(c.drift < 1e-3);
    CHECK(c.speed < 1e-2);
  }
}

TEST_CASE("native narrowphase: crossed cylinders touch at one point, parallel ones along a line",
          "[unit][collision][native]") {
  // A world cylinder along x (radius 0.1) and a body cylinder (radius 0.05) on top of it, 2 mm deep.
  const Real r1 = Real(0.1), r2 = Real(0.05), depth = Real(0.002);
  sim::ShapeSpec bottom = cylinder(r1, Real(0.3));
  bottom.local.rot = about(Vec3::UnitY(), kPi / 2);
  const Vec3 centre(Real(0.05), Real(0.03), r1 + r2 - depth);
  {
    const auto contacts = against(bottom, cylinder(r2, Real(0.2)), {centre, about(Vec3::UnitX(), kPi / 2)});
    REQUIRE(contacts.size() == 1);
    CHECK(contacts[0].initial_gap == Approx(-depth).margin(1e-8));
    CHECK((contacts[0].normal - Vec3::UnitZ()).norm() < 1e-6);
  }
  {
    // Parallel: the body's axis straight above the world one.
    const Vec3 above(centre.x(), 0, centre.z());
    const auto contacts = against(bottom, cylinder(r2, Real(0.2)), {above, about(Vec3::UnitY(), kPi / 2)});
    REQUIRE(contacts.size() == 2);
    for (const sim::Contact& k : contacts) {
      CHECK(k.initial_gap == Approx(-depth).margin(1e-8));
      CHECK((k.normal - Vec3::UnitZ()).norm() < 1e-8);  // EPA's alone: 5e-5 off
    }
    // At the ends of the body's side line (0.4 m long, all of it over the world one's).
    CHECK((contacts[0].a.local_point - contacts[1].a.local_point).norm() == Approx(0.4).margin(1e-6));
  }
  {
    // A capsule lying across the cap of a standing cylinder: one point at each end of its segment.
    sim::ShapeSpec post = cylinder(r1, Real(0.2));
    sim::ShapeSpec capsule;
    capsule.type = sim::ShapeType::Capsule;
    capsule.radius = Real(0.02);
    capsule.half_length = Real(0.05);
    const auto contacts = against(post, capsule, {Vec3(0, 0, Real(0.2) + Real(0.02) - depth), about(Vec3::UnitX(), kPi / 2)});
    REQUIRE(contacts.size() == 2);
    for (const sim::Contact& k : contacts) {
      CHECK(k.initial_gap == Approx(-depth).margin(1e-9));
      CHECK((k.normal - Vec3::UnitZ()).norm() < 1e-12);
    }
  }
}
