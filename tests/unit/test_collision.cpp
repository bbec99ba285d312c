// generate_contacts(): contact geometry per shape pair (closed-form gaps, normals, points and
// manifold sizes), margins, filtering, broadphase against brute force, key stability, determinism
// across thread counts, and the time of one call on a ~200-box pyramid.
#include <catch2/catch.hpp>

#include <tbb/task_arena.h>

#ifdef __GLIBC__
#include <malloc.h>
#endif

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <random>
#include <set>

#include "collision/broadphase.hpp"
#include "collision/collide.hpp"
#include "collision/convex_hull.hpp"
#include "collision/gjk.hpp"

using namespace sim;

namespace {

constexpr Real kPi = Real(3.14159265358979323846);
// Tolerances for "exact" and "close" results, for double and for the float build.
constexpr Real kExact = sizeof(Real) == 8 ? Real(1e-12) : Real(2e-5);
constexpr Real kClose = sizeof(Real) == 8 ? Real(1e-9) : Real(2e-4);
const Real kSqrt2 = std::sqrt(Real(2));

Quat about(const Vec3& axis, Real angle) { return Quat(Eigen::AngleAxis<Real>(angle, axis.normalized())); }

// A Model filled by hand (no compile step), with its state.
struct Scene {
  Model m;
  std::vector<Pose> pose;
  std::vector<Vec3> v, w, particle_pos, particle_vel;
  detail::CollisionScratch scratch;
  ContactBuffer out;

  int material(Real mu) {
    m.material_name.push_back("material");
    m.material_friction.push_back(mu);
    return m.material_count++;
  }
  int body(const Vec3& pos, const Quat& rot = Quat::Identity(), Real inv_mass = 1) {
    m.body_name.push_back("body");
    m.body_inv_mass.push_back(inv_mass);
    m.body_inertia.push_back(Vec3::Ones());
    m.body_inv_inertia.push_back(inv_mass > 0 ? Vec3::Ones() : Vec3::Zero());
    m.body_initial_pose.push_back(Pose{pos, rot});
    m.body_frame_in_com.push_back(Pose{});
    m.body_initial_velocity.push_back(Vec3::Zero());
    m.body_initial_angular_velocity.push_back(Vec3::Zero());
    m.body_bound_radius.push_back(0);
    pose.push_back(Pose{pos, rot});
    v.push_back(Vec3::Zero());
    w.push_back(Vec3::Zero());
    return m.body_count++;
  }
  int shape(ShapeType type, int b, const Pose& local, Real bound) {
    m.shape_type.push_back(type);
    m.shape_body.push_back(b);
    m.shape_local.push_back(local);
    m.shape_radius.push_back(0);
    m.shape_half_length.push_back(0);
    m.shape_half_extents.push_back(Vec3::Zero());
    m.shape_hull.push_back(-1);
    m.shape_material.push_back(-1);
    m.shape_thickness.push_back(0);
    m.shape_bound_radius.push_back(bound);
    if (b >= 0) m.body_bound_radius[b] = std::max(m.body_bound_radius[b], local.pos.norm() + bound);
    return m.shape_count++;
  }
  int box(int b, const Vec3& half, const Pose& local = Pose{}) {
    const int s = shape(ShapeType::Box, b, local, half.norm());
    m.shape_half_extents[s] = half;
    return s;
  }
  int sphere(int b, Real r, const Pose& local = Pose{}) {
    const int s = shape(ShapeType::Sphere, b, local, r);
    m.shape_radius[s] = r;
    return s;
  }
  int capsule(int b, Real r, Real half_length, const Pose& local = Pose{}) {
    const int s = shape(ShapeType::Capsule, b, local, r + half_length);
    m.shape_radius[s] = r;
    m.shape_half_length[s] = half_length;
    return s;
  }
  int convex(int b, const Model::Hull& hull, const Pose& local = Pose{}) {
    Real bound = 0;
    for (const Vec3& p : hull.vertices) bound = std::max(bound, p.norm());
    const int s = shape(ShapeType::ConvexMesh, b, local, bound);
    m.hulls.push_back(hull);
    m.shape_hull[s] = static_cast<int>(m.hulls.size()) - 1;
    return s;
  }
  int plane(const Pose& p = Pose{}) { return shape(ShapeType::Plane, -1, p, 0); }
  int particle(const Vec3& pos, Real radius, Real inv_mass = 1, const Vec3& vel = Vec3::Zero()) {
    m.particle_inv_mass.push_back(inv_mass);
    m.particle_radius.push_back(radius);
    m.particle_material.push_back(-1);
    m.particle_initial_position.push_back(pos);
    m.particle_initial_velocity.push_back(vel);
    particle_pos.push_back(pos);
    particle_vel.push_back(vel);
    return m.particle_count++;
  }
  void joint(int a, int b) {
    m.joint_name.push_back("j");
    m.joint_type.push_back(JointType::Ball);
    m.joint_body_a.push_back(a);
    m.joint_body_b.push_back(b);
    m.joint_frame_a.push_back(Pose{});
    m.joint_frame_b.push_back(Pose{});
    m.joint_axis.push_back(Vec3::UnitZ());
    ++m.joint_count;
  }
  State state() const {
    State s;
    for (int b = 0; b < m.body_count; ++b) {
      const Quat& q = pose[b].rot;
      s.q.insert(s.q.end(), {pose[b].pos.x(), pose[b].pos.y(), pose[b].pos.z(), q.w(), q.x(), q.y(), q.z()});
      s.u.insert(s.u.end(), {v[b].x(), v[b].y(), v[b].z(), w[b].x(), w[b].y(), w[b].z()});
    }
    for (int p = 0; p < m.particle_count; ++p) {
      s.q.insert(s.q.end(), {particle_pos[p].x(), particle_pos[p].y(), particle_pos[p].z()});
      s.u.insert(s.u.end(), {particle_vel[p].x(), particle_vel[p].y(), particle_vel[p].z()});
    }
    return s;
  }
  Vec3 world_point(const ContactSide& side) const {
    if (side.kind == ContactSide::Body) return pose[side.index].apply(side.local_point);
    if (side.kind == ContactSide::Particle) return particle_pos[side.index];
    return side.local_point;
  }
  // Runs collision and checks what every contact must satisfy.
  const std::vector<Contact>& collide(Real margin = Real(0.01), Real dt = Real(0.01)) {
    generate_contacts(m, state(), dt, margin, scratch, out);
    for (const Contact& c : out.contacts) {
      const Vec3 pa = world_point(c.a), pb = world_point(c.b);
      CHECK(c.normal.norm() == Approx(1).epsilon(kClose));
      CHECK(c.normal.dot(pa - pb) - c.thickness == Approx(c.initial_gap).margin(kClose));
      CHECK(std::abs(c.tangent1.dot(c.normal)) < kClose);
      CHECK(std::abs(c.tangent2.dot(c.normal)) < kClose);
      CHECK((c.tangent1.cross(c.tangent2) - c.normal).norm() < kClose);
    }
    return out.contacts;
  }
};

bool inside_box(const Pose& box_pose, const Vec3& half, const Vec3& world, Real tol = kClose) {
  const Vec3 local = box_pose.apply_inverse(world);
  return (local.cwiseAbs() - half).maxCoeff() <= tol;
}

}  // namespace

TEST_CASE("sphere above a plane: one contact with the exact gap", "[unit][collision]") {
  Scene s;
  const int ground = s.plane();
  const int b = s.body(Vec3(0.3, -0.2, 0.503));
  const int ball = s.sphere(b, Real(0.5));
  auto contacts = s.collide();
  REQUIRE(contacts.size() == 1);
  const Contact& c = contacts[0];
  CHECK(c.initial_gap == Approx(0.003).margin(kExact));
  CHECK((c.normal - Vec3::UnitZ()).norm() < kExact);
  CHECK(c.a.kind == ContactSide::Body);
  CHECK(c.a.index == b);
  CHECK((c.a.local_point - Vec3(0, 0, -0.5)).norm() < kExact);
  CHECK(c.b.kind == ContactSide::World);
  CHECK((c.b.local_point - Vec3(0.3, -0.2, 0)).norm() < kExact);
  CHECK(c.shape_a == ball);
  CHECK(c.shape_b == ground);
  CHECK(c.friction == Approx(0.5));  // default material without materials

  // Thicknesses add up and are part of the gap; friction is the geometric mean.
  s.m.shape_thickness[ball] = Real(0.001);
  s.m.shape_thickness[ground] = Real(0.0005);
  const int ice = s.material(Real(0.04)), rubber = s.material(Real(1.0));
  s.m.shape_material[ball] = ice;
  s.m.shape_material[ground] = rubber;
  contacts = s.collide();
  REQUIRE(contacts.size() == 1);
  CHECK(contacts[0].thickness == Approx(0.0015));
  CHECK(contacts[0].initial_gap == Approx(0.0015).margin(kExact));
  CHECK(contacts[0].friction == Approx(0.2));
  s.m.shape_material[ground] = -1;  // default: the first material
  CHECK(s.collide()[0].friction == Approx(0.04));
}

TEST_CASE("separated shapes: contacts within the margin with a positive gap, none beyond", "[unit][collision]") {
  Scene s;
  s.plane();
  const int b = s.body(Vec3(0, 0, Real(0.5 + 0.006)));
  s.box(b, Vec3(0.5, 0.5, 0.5));
  auto contacts = s.collide(Real(0.01));
  REQUIRE(contacts.size() == 4);
  for (const Contact& c : contacts) CHECK(c.initial_gap == Approx(0.006).margin(kExact));
  CHECK(s.collide(Real(0.005)).empty());  // beyond the margin
  // The motion bound over the step widens the margin: |v| dt = 0.02.
  s.v[b] = Vec3(0, 0, -2);
  CHECK(s.collide(Real(0.005), Real(0.01)).size() == 4);
  s.v[b] = Vec3::Zero();
  s.w[b] = Vec3(3, 0, 0);  // |ω| r dt with r = |h| = 0.866
  CHECK(s.collide(Real(0.005), Real(0.01)).size() == 4);
  s.w[b] = Vec3::Zero();
  s.pose[b].pos.z() = Real(0.5 + 0.2);
  CHECK(s.collide(Real(0.01)).empty());
}

TEST_CASE("box resting on a plane: its 4 bottom corners", "[unit][collision]") {
  Scene s;
  s.plane();
  const Quat r = about(Vec3::UnitZ(), Real(0.4));
  const int b = s.body(Vec3(1, 2, 0.25), r);
  s.box(b, Vec3(0.5, 0.3, 0.25));
  auto contacts = s.collide();
  REQUIRE(contacts.size() == 4);
  std::set<std::pair<int, int>> corners;
  for (const Contact& c : contacts) {
    CHECK(c.initial_gap == Approx(0).margin(kExact));
    CHECK((c.normal - Vec3::UnitZ()).norm() < kExact);
    CHECK(c.a.kind == ContactSide::Body);
    CHECK(std::abs(std::abs(c.a.local_point.x()) - 0.5) < kExact);
    CHECK(std::abs(std::abs(c.a.local_point.y()) - 0.3) < kExact);
    CHECK(c.a.local_point.z() == Approx(-0.25));
    corners.insert({c.a.local_point.x() > 0, c.a.local_point.y() > 0});
  }
  CHECK(corners.size() == 4);
}

TEST_CASE("tilted plane and a penetrating box", "[unit][collision]") {
  Scene s;
  const Quat tilt = about(Vec3::UnitX(), Real(0.3));
  s.plane(Pose{Vec3(0, 0, 1), tilt});
  const Vec3 n = tilt * Vec3::UnitZ();
  const int b = s.body(Vec3(0, 0, 1) + n * Real(0.49), tilt);
  s.box(b, Vec3(0.5, 0.5, 0.5));
  auto contacts = s.collide();
  REQUIRE(contacts.size() == 4);
  for (const Contact& c : contacts) {
    CHECK(c.initial_gap == Approx(-0.01).margin(kExact));
    CHECK((c.normal - n).norm() < kExact);
  }
}

TEST_CASE("box on a bigger box face to face: the 4 corners of the top box", "[unit][collision]") {
  Scene s;
  const int lower = s.body(Vec3(0, 0, 0), Quat::Identity(), 0);  // fixed body
  s.box(lower, Vec3(1, 1, 0.5));
  const Quat r = about(Vec3::UnitZ(), kPi / 6);
  const int upper = s.body(Vec3(0.1, 0.2, 1.0), r);
  s.box(upper, Vec3(0.5, 0.5, 0.5));
  auto contacts = s.collide();
  REQUIRE(contacts.size() == 4);
  for (const Contact& c : contacts) {
    CHECK(c.initial_gap == Approx(0).margin(kExact));
    CHECK(c.a.index == upper);  // the moving box is side a
    CHECK(c.b.index == lower);
    CHECK((c.normal - Vec3::UnitZ()).norm() < kExact);
    CHECK(std::abs(std::abs(c.a.local_point.x()) - 0.5) < kClose);
    CHECK(std::abs(std::abs(c.a.local_point.y()) - 0.5) < kClose);
  }
}

TEST_CASE("equal boxes face to face rotated 30 degrees: an octagon of contacts", "[unit][collision]") {
  Scene s;
  const int lower = s.body(Vec3(0, 0, 0.5));
  s.box(lower, Vec3(0.5, 0.5, 0.5));
  const Quat r = about(Vec3::UnitZ(), kPi / 6);
  const int upper = s.body(Vec3(0, 0, 1.5), r);
  s.box(upper, Vec3(0.5, 0.5, 0.5));
  auto contacts = s.collide();
  REQUIRE(contacts.size() >= 4);
  REQUIRE(contacts.size() <= 8);
  for (const Contact& c : contacts) {
    CHECK(c.initial_gap == Approx(0).margin(kExact));
    CHECK(std::abs(std::abs(c.normal.z()) - 1) < kExact);
    const Vec3 pa = s.world_point(c.a), pb = s.world_point(c.b);
    CHECK(pa.z() == Approx(1.0));
    CHECK(inside_box(s.pose[lower], Vec3(0.5, 0.5, 0.5), pa));
    CHECK(inside_box(s.pose[upper], Vec3(0.5, 0.5, 0.5), pa));
    CHECK(inside_box(s.pose[lower], Vec3(0.5, 0.5, 0.5), pb));
    CHECK(inside_box(s.pose[upper], Vec3(0.5, 0.5, 0.5), pb));
  }
  // Slightly separated and slightly penetrating: the same manifold with the gap shifted.
  for (Real gap : {Real(0.004), Real(-0.003)}) {
    s.pose[upper].pos.z() = Real(1.5) + gap;
    auto shifted = s.collide();
    REQUIRE(shifted.size() == contacts.size());
    for (const Contact& c : shifted) CHECK(c.initial_gap == Approx(gap).margin(kExact));
  }
}

TEST_CASE("crossed boxes touching edge to edge", "[unit][collision]") {
  for (const bool as_hulls : {false, true}) {
    for (Real gap : {Real(0.004), Real(-0.004), Real(0)}) {
      Scene s;
      const int a = s.body(Vec3(0, 0, 0), about(Vec3::UnitX(), kPi / 4));
      const int b = s.body(Vec3(0.05, -0.03, kSqrt2 + gap), about(Vec3::UnitY(), kPi / 4));
      if (as_hulls) {
        s.convex(a, box_hull(Vec3(0.5, 0.5, 0.5)));
        s.convex(b, box_hull(Vec3(0.5, 0.5, 0.5)));
      } else {
        s.box(a, Vec3(0.5, 0.5, 0.5));
        s.box(b, Vec3(0.5, 0.5, 0.5));
      }
      INFO("hulls " << as_hulls << " gap " << gap);
      auto contacts = s.collide();
      REQUIRE(contacts.size() == 1);
      const Contact& c = contacts[0];
      CHECK(c.initial_gap == Approx(gap).margin(kClose));
      CHECK((c.normal - Vec3(0, 0, -1)).norm() < kClose);  // from b (above) towards a
      CHECK((s.world_point(c.a) - Vec3(0.05, 0, 0.5 * kSqrt2)).norm() < kClose);
      CHECK((s.world_point(c.b) - Vec3(0.05, 0, 0.5 * kSqrt2 + gap)).norm() < kClose);
    }
  }
}

TEST_CASE("box corner near a box corner: exact distance from GJK", "[unit][collision]") {
  Scene s;
  const int a = s.body(Vec3(0, 0, 0));
  s.box(a, Vec3(0.5, 0.5, 0.5));
  const Vec3 d(0.003, 0.004, 0.0);  // |d| = 0.005 diagonally from the +x+y edge
  const int b = s.body(Vec3(1, 1, 0.2) + d);
  s.box(b, Vec3(0.5, 0.5, 0.5));
  auto contacts = s.collide();
  REQUIRE(contacts.size() == 1);
  CHECK(contacts[0].initial_gap == Approx(0.005).margin(kClose));
  CHECK((contacts[0].normal + d.normalized()).norm() < (sizeof(Real) == 8 ? 1e-6 : 1e-3));
}

TEST_CASE("box and convex-mesh box agree on random configurations", "[unit][collision]") {
  std::mt19937 rng(3);
  std::uniform_real_distribution<Real> u(-1, 1);
  int compared = 0;
  for (int trial = 0; trial < 300; ++trial) {
    const Vec3 ha(0.5 + 0.3 * u(rng), 0.5 + 0.3 * u(rng), 0.5 + 0.3 * u(rng));
    const Vec3 hb(0.5 + 0.3 * u(rng), 0.5 + 0.3 * u(rng), 0.5 + 0.3 * u(rng));
    const Quat ra = Quat(Eigen::Vector4d(u(rng), u(rng), u(rng), u(rng)).cast<Real>().normalized());
    const Quat rb = Quat(Eigen::Vector4d(u(rng), u(rng), u(rng), u(rng)).cast<Real>().normalized());
    const Vec3 offset = Vec3(u(rng), u(rng), u(rng)).normalized() * Real(0.8 + 0.8 * (u(rng) + 1));
    Real min_gap[2];
    std::size_t count[2];
    for (int k = 0; k < 2; ++k) {
      Scene s;
      const int a = s.body(Vec3::Zero(), ra), b = s.body(offset, rb);
      if (k == 0) s.box(a, ha), s.box(b, hb);
      else s.convex(a, box_hull(ha)), s.convex(b, box_hull(hb));
      auto contacts = s.collide(Real(0.05));
      count[k] = contacts.size();
      min_gap[k] = 1e9;
      for (const Contact& c : contacts) min_gap[k] = std::min(min_gap[k], c.initial_gap);
    }
    INFO("trial " << trial);
    CHECK(count[0] == count[1]);
    if (count[0] > 0 && count[1] > 0) {
      CHECK(min_gap[0] == Approx(min_gap[1]).margin(kClose));
      ++compared;
    }
  }
  CHECK(compared > 50);
}

TEST_CASE("capsule lying on a plane and on a box: two contacts", "[unit][collision]") {
  Scene s;
  s.plane();
  const Quat lying = about(Vec3::UnitY(), kPi / 2);  // segment along world x
  const int c1 = s.body(Vec3(0, 0, 0.1), lying);
  s.capsule(c1, Real(0.1), Real(0.4));
  auto contacts = s.collide();
  REQUIRE(contacts.size() == 2);
  for (const Contact& c : contacts) {
    CHECK(c.initial_gap == Approx(0).margin(kExact));
    CHECK((c.normal - Vec3::UnitZ()).norm() < kExact);
  }
  CHECK(std::abs(s.world_point(contacts[0].a).x() - s.world_point(contacts[1].a).x()) == Approx(0.8));

  for (const bool as_hull : {false, true}) {
    Scene t;
    const int table = t.body(Vec3(0, 0, 0), Quat::Identity(), 0);
    if (as_hull) t.convex(table, box_hull(Vec3(1, 1, 0.5)));
    else t.box(table, Vec3(1, 1, 0.5));
    const int cap = t.body(Vec3(0.2, 0.1, 0.5 + 0.1 + 0.002), about(Vec3::UnitZ(), Real(0.3)) * lying);
    t.capsule(cap, Real(0.1), Real(0.4));
    auto on_box = t.collide();
    INFO("hull " << as_hull);
    REQUIRE(on_box.size() == 2);
    for (const Contact& c : on_box) {
      CHECK(c.initial_gap == Approx(0.002).margin(kClose));
      CHECK((c.normal - Vec3::UnitZ()).norm() < kClose);
      CHECK(c.a.index == cap);
    }
    // Overhanging the edge: the clipped end sits on the box's edge.
    t.pose[cap] = Pose{Vec3(0.9, 0, 0.6), lying};
    auto overhang = t.collide();
    REQUIRE(overhang.size() == 2);
    Real max_x = -1;
    for (const Contact& c : overhang) max_x = std::max(max_x, t.world_point(c.b).x());
    CHECK(max_x == Approx(1.0).margin(kClose));
  }
}

TEST_CASE("upright capsule and sphere against a box, particle on a sphere", "[unit][collision]") {
  Scene s;
  const int table = s.body(Vec3(0, 0, 0), Quat::Identity(), 0);
  s.box(table, Vec3(1, 1, 0.5));
  const int cap = s.body(Vec3(0.3, 0.3, 0.5 + 0.5 + 0.1 - 0.002));
  s.capsule(cap, Real(0.1), Real(0.5));
  auto contacts = s.collide();
  REQUIRE(contacts.size() == 1);
  CHECK(contacts[0].initial_gap == Approx(-0.002).margin(kClose));
  CHECK((contacts[0].normal - Vec3::UnitZ()).norm() < kClose);

  // A sphere beside the box's +x+z edge: the normal points from the edge to the centre.
  Scene t;
  const int box = t.body(Vec3(0, 0, 0), Quat::Identity(), 0);
  t.box(box, Vec3(1, 1, 0.5));
  const Vec3 dir = Vec3(1, 0, 1).normalized();
  const int ball = t.body(Vec3(1, 0.2, 0.5) + dir * Real(0.2 + 0.003));
  t.sphere(ball, Real(0.2));
  auto edge = t.collide();
  REQUIRE(edge.size() == 1);
  CHECK(edge[0].initial_gap == Approx(0.003).margin(kClose));
  CHECK((edge[0].normal - dir).norm() < kClose);
  // Sphere centre inside the box (deep penetration): pushed out through the nearest face.
  t.pose[ball].pos = Vec3(0.2, 0.1, 0.4);
  auto deep = t.collide();
  REQUIRE(deep.size() == 1);
  CHECK((deep[0].normal - Vec3::UnitZ()).norm() < kExact);
  CHECK(deep[0].initial_gap == Approx(-0.1 - 0.2).margin(kExact));

  // Particles against spheres and capsules.
  Scene u;
  const int rock = u.body(Vec3(0, 0, 0));
  u.sphere(rock, Real(1));
  u.particle(Vec3(0, 0.6, 0.8) * Real(1.004), Real(0.01));
  auto pc = u.collide();
  REQUIRE(pc.size() == 1);
  CHECK(pc[0].a.kind == ContactSide::Particle);
  CHECK(pc[0].initial_gap == Approx(0.004 - 0.01).margin(kClose));
  CHECK((pc[0].normal - Vec3(0, 0.6, 0.8)).norm() < kClose);
}

TEST_CASE("capsules: parallel ones get two contacts, crossed ones one", "[unit][collision]") {
  Scene s;
  const Quat along_x = about(Vec3::UnitY(), kPi / 2);
  const int a = s.body(Vec3(0, 0, 0), along_x);
  s.capsule(a, Real(0.1), Real(0.5));
  const int b = s.body(Vec3(0.3, 0, 0.2 + 0.001), along_x);
  s.capsule(b, Real(0.1), Real(0.5));
  auto parallel = s.collide();
  REQUIRE(parallel.size() == 2);
  for (const Contact& c : parallel) {
    CHECK(c.initial_gap == Approx(0.001).margin(kClose));
    CHECK((c.normal - Vec3(0, 0, -1)).norm() < kClose);
  }
  s.pose[b].rot = about(Vec3::UnitX(), kPi / 2);  // along y: crossing
  auto crossed = s.collide();
  REQUIRE(crossed.size() == 1);
  CHECK(crossed[0].initial_gap == Approx(0.001).margin(kClose));
  CHECK((s.world_point(crossed[0].a) - Vec3(0.3, 0, 0.1)).norm() < kClose);
}

TEST_CASE("convex cylinder standing on a plane: a ring of bottom vertices", "[unit][collision]") {
  Scene s;
  s.plane();
  const int b = s.body(Vec3(0, 0, 0.3), about(Vec3::UnitZ(), Real(0.1)));
  s.convex(b, cylinder_hull(Real(0.2), Real(0.3), 12));
  auto contacts = s.collide();
  REQUIRE(contacts.size() == 12);
  for (const Contact& c : contacts) {
    CHECK(c.initial_gap == Approx(0).margin(kExact));
    CHECK(c.a.local_point.z() == Approx(-0.3));
    CHECK(c.a.local_point.head<2>().norm() == Approx(0.2));
  }
  // Standing on a box: the cap polygon clipped against the box's top face, reduced to <= 8.
  Scene t;
  const int table = t.body(Vec3::Zero(), Quat::Identity(), 0);
  t.box(table, Vec3(1, 1, 0.5));
  const int cyl = t.body(Vec3(0, 0, 0.5 + 0.3 - 0.001));
  t.convex(cyl, cylinder_hull(Real(0.2), Real(0.3), 12));
  auto on_box = t.collide();
  REQUIRE(on_box.size() >= 4);
  REQUIRE(on_box.size() <= 8);
  for (const Contact& c : on_box) {
    CHECK(c.initial_gap == Approx(-0.001).margin(kExact));
    CHECK(c.a.local_point.head<2>().norm() == Approx(0.2));
  }
}

TEST_CASE("convex meshes: tetrahedron tip into a box face", "[unit][collision]") {
  Scene s;
  const int table = s.body(Vec3::Zero(), Quat::Identity(), 0);
  s.box(table, Vec3(1, 1, 0.5));
  auto tet = build_convex_hull({{0, 0, 0}, {0.3, 0, 0.4}, {-0.15, 0.26, 0.4}, {-0.15, -0.26, 0.4}}, "tet");
  REQUIRE(tet.ok());
  const int b = s.body(Vec3(0.1, 0.1, 0.5 - 0.002));  // tip 2 mm into the table
  s.convex(b, tet.value());
  auto contacts = s.collide();
  REQUIRE(contacts.size() == 1);
  CHECK(contacts[0].initial_gap == Approx(-0.002).margin(kExact));
  CHECK((contacts[0].normal - Vec3::UnitZ()).norm() < kExact);
  CHECK((s.world_point(contacts[0].a) - Vec3(0.1, 0.1, 0.498)).norm() < kExact);
}

TEST_CASE("particles against a plane and a box", "[unit][collision]") {
  Scene s;
  s.plane();
  const int table = s.body(Vec3(5, 0, 0.5), Quat::Identity(), 0);
  s.box(table, Vec3(1, 1, 0.5));
  const int p0 = s.particle(Vec3(0, 0, 0.012), Real(0.01));
  const int p1 = s.particle(Vec3(5.2, 0.3, 1.0 + 0.009), Real(0.01));
  s.particle(Vec3(0, 0, 0.5), Real(0.01));            // too far from everything
  const int p3 = s.particle(Vec3(0.005, 0, 0.012), Real(0.01));  // overlaps p0: one loose-particle pair
  s.particle(Vec3(-3, 0, 0.0), Real(0.01), 0);        // fixed particle on the static ground
  auto contacts = s.collide();
  REQUIRE(contacts.size() == 4);  // p0, p1 and p3 against the ground or the box, p0 against p3
  int seen = 0;
  for (const Contact& c : contacts) {
    CHECK(c.a.kind == ContactSide::Particle);
    if (c.b.kind == ContactSide::Particle) {  // the pair: its gap the centres' distance less both radii
      CHECK(c.a.index == p0);
      CHECK(c.b.index == p3);
      CHECK(c.initial_gap == Approx(0.005 - 0.02).margin(kExact));
      CHECK((c.normal + Vec3::UnitX()).norm() < kExact);  // from p3 to p0
      ++seen;
      continue;
    }
    CHECK(c.shape_a == -1);
    CHECK(c.thickness == Approx(0.01));
    CHECK((c.normal - Vec3::UnitZ()).norm() < kExact);
    if (c.a.index == p0) {
      CHECK(c.initial_gap == Approx(0.002).margin(kExact));
      ++seen;
    }
    if (c.a.index == p1) {
      CHECK(c.initial_gap == Approx(-0.001).margin(kExact));
      CHECK(c.b.kind == ContactSide::Body);
      CHECK((c.b.local_point - Vec3(0.2, 0.3, 0.5)).norm() < kExact);
      ++seen;
    }
  }
  CHECK(seen == 3);
}

TEST_CASE("skipped pairs: same body, static pairs, joined bodies", "[unit][collision]") {
  Scene s;
  const int a = s.body(Vec3(0, 0, 0));
  s.box(a, Vec3(0.5, 0.5, 0.5));
  s.sphere(a, Real(0.4), Pose{Vec3(0.3, 0, 0), Quat::Identity()});  // same body, overlapping
  const int b = s.body(Vec3(0.9, 0, 0));
  s.box(b, Vec3(0.5, 0.5, 0.5));
  const int world_box = s.box(-1, Vec3(1, 1, 1), Pose{Vec3(10, 0, 0), Quat::Identity()});
  s.sphere(-1, Real(1), Pose{Vec3(10.5, 0, 0), Quat::Identity()});  // world-world overlap
  const int fixed = s.body(Vec3(10, 0, 1.5), Quat::Identity(), 0);
  s.box(fixed, Vec3(0.5, 0.5, 0.5));  // a fixed body on a world box
  auto contacts = s.collide();
  REQUIRE(!contacts.empty());
  for (const Contact& c : contacts) {
    CHECK(c.a.index != c.b.index);
    CHECK(c.shape_a != world_box);
    CHECK(c.shape_b != world_box);
    CHECK(((c.a.index == a && c.b.index == b) || (c.a.index == b && c.b.index == a)));
  }
  s.joint(b, a);
  CHECK(s.collide().empty());
}

TEST_CASE("sweep and prune finds the same pairs as brute force", "[unit][collision]") {
  std::mt19937 rng(11);
  std::uniform_real_distribution<Real> u(0, 1);
  for (int trial = 0; trial < 4; ++trial) {
    const int count = 100;
    std::vector<detail::Aabb> boxes(count);
    std::vector<std::uint8_t> groups(count, 0);
    for (int i = 0; i < count; ++i) {
      const Vec3 c(10 * u(rng), 10 * u(rng), 3 * u(rng));
      const Vec3 h(0.2 + u(rng), 0.2 + u(rng), 0.2 + u(rng));
      boxes[i] = {c - h, c + h};
      if (i % 7 == 0) groups[i] = detail::kGroupStatic;
      if (i % 11 == 0) groups[i] |= detail::kGroupParticle;
      if (i % 13 == 0) groups[i] = detail::kBroadphaseExcluded;
    }
    std::vector<std::uint64_t> expected;
    for (int i = 0; i < count; ++i)
      for (int j = i + 1; j < count; ++j)
        if (!((groups[i] | groups[j]) & detail::kBroadphaseExcluded) && !(groups[i] & groups[j]) &&
            detail::aabb_overlap(boxes[i], boxes[j]))
          expected.push_back(detail::pack_pair(i, j));
    detail::SweepAndPrune sap;
    std::vector<std::uint64_t> pairs;
    detail::sweep_and_prune(boxes, groups, sap, pairs);
    CHECK(pairs == expected);
    CHECK(expected.size() > 50);
    // Move everything a little (warm, nearly sorted order) and compare again.
    for (auto& b : boxes) {
      const Vec3 d(u(rng) - 0.5, u(rng) - 0.5, u(rng) - 0.5);
      b.lo += d;
      b.hi += d;
    }
    expected.clear();
    for (int i = 0; i < count; ++i)
      for (int j = i + 1; j < count; ++j)
        if (!((groups[i] | groups[j]) & detail::kBroadphaseExcluded) && !(groups[i] & groups[j]) &&
            detail::aabb_overlap(boxes[i], boxes[j]))
          expected.push_back(detail::pack_pair(i, j));
    pairs.clear();
    detail::sweep_and_prune(boxes, groups, sap, pairs);
    CHECK(pairs == expected);
  }
}

TEST_CASE("generate_contacts on 100 random boxes matches all-pairs narrowphase", "[unit][collision]") {
  std::mt19937 rng(5);
  std::uniform_real_distribution<Real> u(-1, 1);
  Scene s;
  for (int i = 0; i < 100; ++i) {
    const int b = s.body(Vec3(4 * u(rng), 4 * u(rng), 4 * u(rng)),
                         Quat(Eigen::Vector4d(u(rng), u(rng), u(rng), u(rng)).cast<Real>().normalized()));
    s.box(b, Vec3(0.3 + 0.2 * u(rng), 0.3 + 0.2 * u(rng), 0.3 + 0.2 * u(rng)));
    s.v[b] = Vec3(u(rng), u(rng), u(rng));
  }
  const std::vector<Contact> all = s.collide(Real(0.02), Real(0.02));
  REQUIRE(all.size() > 20);
  // Brute force: every pair as its own two-body scene.
  std::set<std::pair<int, int>> expected, got;
  for (const Contact& c : all) got.insert({std::min(c.shape_a, c.shape_b), std::max(c.shape_a, c.shape_b)});
  for (int i = 0; i < 100; ++i) {
    for (int j = i + 1; j < 100; ++j) {
      Scene p;
      const int bi = p.body(s.pose[i].pos, s.pose[i].rot), bj = p.body(s.pose[j].pos, s.pose[j].rot);
      p.box(bi, s.m.shape_half_extents[i]);
      p.box(bj, s.m.shape_half_extents[j]);
      p.v[bi] = s.v[i];
      p.v[bj] = s.v[j];
      if (!p.collide(Real(0.02), Real(0.02)).empty()) expected.insert({i, j});
    }
  }
  CHECK(got == expected);
  // Sorted by pair.
  for (std::size_t k = 1; k < all.size(); ++k) {
    const auto prev = std::minmax(all[k - 1].shape_a, all[k - 1].shape_b);
    const auto cur = std::minmax(all[k].shape_a, all[k].shape_b);
    CHECK(prev <= cur);
  }
}

namespace {

// A square pyramid of unit boxes resting on a plane: 8x8, 7x7, ..., 1x1 = 204 boxes, `spacing`
// apart in each layer (1: every box touches its neighbours).
void build_pyramid(Scene& s, int base = 8, Real spacing = 1) {
  s.plane();
  for (int layer = 0; layer < base; ++layer) {
    const int n = base - layer;
    for (int i = 0; i < n; ++i) {
      for (int j = 0; j < n; ++j) {
        const int b = s.body(Vec3(spacing * (i - 0.5 * (n - 1)), spacing * (j - 0.5 * (n - 1)), 0.5 + layer));
        s.box(b, Vec3(0.5, 0.5, 0.5));
      }
    }
  }
}

// A 2D pyramid (one box deep) of 20 rows: 210 boxes.
void build_wall_pyramid(Scene& s, int rows = 20) {
  s.plane();
  for (int row = 0; row < rows; ++row) {
    const int n = rows - row;
    for (int i = 0; i < n; ++i) {
      const int b = s.body(Vec3(i - 0.5 * (n - 1), 0, 0.5 + row));
      s.box(b, Vec3(0.5, 0.5, 0.5));
    }
  }
}

}  // namespace

TEST_CASE("contact keys are stable across steps", "[unit][collision]") {
  Scene s;
  build_pyramid(s, 4, Real(1.002));  // 2 mm between neighbours in a layer
  const std::vector<Contact> first = s.collide();
  REQUIRE(first.size() > 30);
  std::set<std::uint64_t> keys;
  for (const Contact& c : first) keys.insert(c.key);
  CHECK(keys.size() == first.size());  // unique
  const std::vector<Contact> again = s.collide();
  REQUIRE(again.size() == first.size());
  for (std::size_t k = 0; k < first.size(); ++k) CHECK(again[k].key == first[k].key);
  // A small motion of every box (as in one step of a settling stack) keeps the features.
  for (int b = 0; b < s.m.body_count; ++b) {
    const Real f = Real(b) / s.m.body_count;
    s.pose[b].pos += Vec3(1e-4 * f, -2e-5, -1e-4 * f);
    s.pose[b].rot = about(Vec3(1, 2, 3), Real(1e-4) * f);
  }
  const std::vector<Contact> moved = s.collide();
  std::set<std::uint64_t> moved_keys;
  for (const Contact& c : moved) moved_keys.insert(c.key);
  CHECK(moved.size() == first.size());
  CHECK(moved_keys == keys);
}

TEST_CASE("coincident faces keep their 4 corners under a tiny rotation", "[unit][collision]") {
  Scene s;
  const int lower = s.body(Vec3(0, 0, 0.5));
  s.box(lower, Vec3(0.5, 0.5, 0.5));
  const int upper = s.body(Vec3(0, 0, 1.5));
  s.box(upper, Vec3(0.5, 0.5, 0.5));
  const std::vector<Contact> aligned = s.collide();
  REQUIRE(aligned.size() == 4);
  for (Real angle : {Real(1e-7), Real(-3e-5), Real(2e-4)}) {
    s.pose[upper].rot = about(Vec3(0.2, 0.1, 1), angle);
    s.pose[upper].pos.x() = angle;
    const std::vector<Contact> turned = s.collide();
    INFO("angle " << angle);
    REQUIRE(turned.size() == 4);
    for (std::size_t k = 0; k < 4; ++k) {
      CHECK(turned[k].key == aligned[k].key);
      CHECK((turned[k].a.local_point - aligned[k].a.local_point).norm() < 1e-3);
    }
  }
}

TEST_CASE("pyramid contacts are identical on one thread and on many", "[unit][collision]") {
  Scene s;
  build_pyramid(s);
  const std::vector<Contact> serial = s.collide();  // below the parallel threshold
  s.scratch.parallel_pairs = 1;
  std::vector<Contact> one_thread;
  tbb::task_arena(1).execute([&] { one_thread = s.collide(); });
  const std::vector<Contact> parallel = s.collide();
  REQUIRE(one_thread.size() == parallel.size());
  for (std::size_t k = 0; k < one_thread.size(); ++k) CHECK(one_thread[k].key == parallel[k].key);
  REQUIRE(serial.size() == parallel.size());
  REQUIRE(serial.size() > 256);
  for (std::size_t k = 0; k < serial.size(); ++k) {
    CHECK(serial[k].key == parallel[k].key);
    CHECK(serial[k].initial_gap == parallel[k].initial_gap);
    CHECK(serial[k].a.local_point == parallel[k].a.local_point);
  }
  // Every box rests flat: all gaps zero, normals along the axes.
  for (const Contact& c : serial) {
    CHECK(c.initial_gap == Approx(0).margin(kExact));
    CHECK(c.normal.cwiseAbs().maxCoeff() == Approx(1).epsilon(kExact));
  }
}

TEST_CASE("generate_contacts allocates nothing in steady state", "[unit][collision]") {
  Scene s;
  build_pyramid(s, 5, Real(1.001));
  const int cap = s.body(Vec3(0, 0, 6.2), about(Vec3::UnitY(), kPi / 2));
  s.capsule(cap, Real(0.2), Real(0.5));
  s.convex(s.body(Vec3(3, 3, 0.3)), cylinder_hull(Real(0.3), Real(0.3), 10));
  s.particle(Vec3(3, 3, 0.605), Real(0.01));
  const State state = s.state();
  generate_contacts(s.m, state, Real(0.01), Real(0.01), s.scratch, s.out);
  generate_contacts(s.m, state, Real(0.01), Real(0.01), s.scratch, s.out);
  REQUIRE(s.out.size() > 100);
  const auto capacity = s.out.contacts.capacity();
#ifdef __GLIBC__
  const auto before = mallinfo2();
#endif
  for (int i = 0; i < 20; ++i) generate_contacts(s.m, state, Real(0.01), Real(0.01), s.scratch, s.out);
#ifdef __GLIBC__
  const auto after = mallinfo2();
  CHECK(after.uordblks == before.uordblks);  // bytes in use by malloc: unchanged
  CHECK(after.hblkhd == before.hblkhd);      // bytes in mmap'd blocks: unchanged
#endif
  CHECK(s.out.contacts.capacity() == capacity);
}

// A benchmark, not a test of speed: prints the figures and checks only that steady state does
// not grow the output buffer. Run with `coulomb_tests "[bench]"`.
TEST_CASE("generate_contacts time on ~200-box pyramids", "[unit][collision][bench]") {
  const char* names[] = {"square pyramid, touching", "square pyramid, 2 mm apart", "wall pyramid"};
  for (int kind = 0; kind < 3; ++kind) {
    Scene s;
    if (kind == 0) build_pyramid(s);
    else if (kind == 1) build_pyramid(s, 8, Real(1.002));
    else build_wall_pyramid(s);
    const State state = s.state();
    generate_contacts(s.m, state, Real(1.0 / 120), Real(0.01), s.scratch, s.out);  // warm-up
    const std::size_t capacity = s.out.contacts.capacity();
    double best = 1e9;  // best of several batches: the machine may be busy
    for (int batch = 0; batch < 10; ++batch) {
      const int calls = 20;
      const auto t0 = std::chrono::steady_clock::now();
      for (int i = 0; i < calls; ++i) generate_contacts(s.m, state, Real(1.0 / 120), Real(0.01), s.scratch, s.out);
      best = std::min(best, std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count() / calls);
    }
    std::printf("generate_contacts, %s (%d boxes): %zu pairs, %d contacts, %.3f ms per call\n", names[kind],
                s.m.body_count, s.scratch.pairs.size(), s.out.size(), best);
    CHECK(s.out.contacts.capacity() == capacity);  // no growth in steady state
  }
}

namespace {

// World geometry of one random test shape, for an independent distance oracle: the convex hull
// of `points` swept by `radius`.
struct OracleShape {
  std::vector<Vec3> points;
  Real radius = 0;
};

OracleShape add_random_shape(Scene& s, int kind, const Pose& pose, std::mt19937& rng) {
  std::uniform_real_distribution<Real> u(0.2, 0.6);
  const int b = s.body(pose.pos, pose.rot);
  OracleShape o;
  Model::Hull hull;
  switch (kind) {
    case 0: {
      const Vec3 h(u(rng), u(rng), u(rng));
      s.box(b, h);
      hull = box_hull(h);
      break;
    }
    case 1: {
      hull = cylinder_hull(u(rng), u(rng), 9);
      s.convex(b, hull);
      break;
    }
    case 2: {
      std::normal_distribution<Real> g(0, 0.3);
      std::vector<Vec3> pts;
      for (int i = 0; i < 20; ++i) pts.emplace_back(g(rng), g(rng), g(rng));
      hull = build_convex_hull(pts, "random").value();
      s.convex(b, hull);
      break;
    }
    case 3:
      o.radius = u(rng);
      s.sphere(b, o.radius);
      o.points.push_back(pose.pos);
      return o;
    default: {
      o.radius = Real(0.5) * u(rng);
      const Real half = u(rng);
      s.capsule(b, o.radius, half);
      o.points.push_back(pose.apply(Vec3(0, 0, -half)));
      o.points.push_back(pose.apply(Vec3(0, 0, half)));
      return o;
    }
  }
  for (const Vec3& v : hull.vertices) o.points.push_back(pose.apply(v));
  return o;
}

Real oracle_distance(const OracleShape& a, const OracleShape& b, const Vec3& shift) {
  std::vector<Vec3> moved = b.points;
  for (Vec3& p : moved) p += shift;
  const detail::GjkResult g = detail::gjk_distance({a.points.data(), static_cast<int>(a.points.size())},
                                                   {moved.data(), static_cast<int>(moved.size())});
  return (g.overlap ? Real(0) : g.distance) - a.radius - b.radius;
}

}  // namespace

TEST_CASE("random shape pairs: the deepest contact's gap is the exact distance", "[unit][collision]") {
  std::mt19937 rng(2024);
  std::uniform_real_distribution<Real> u(-1, 1), target_gap(0.001, 0.03);
  const Real margin = Real(0.02);
  int within = 0, beyond = 0, penetrating = 0;
  for (int trial = 0; trial < 600; ++trial) {
    const int kind_a = trial % 5, kind_b = (trial / 5) % 5;
    const Quat ra = Quat(Eigen::Vector4d(u(rng), u(rng), u(rng), u(rng)).cast<Real>().normalized());
    const Quat rb = Quat(Eigen::Vector4d(u(rng), u(rng), u(rng), u(rng)).cast<Real>().normalized());
    const Vec3 dir = Vec3(u(rng), u(rng), u(rng)).normalized();
    // Oracle shapes placed at the origin, then B slid along dir until the distance is the target.
    Scene probe;
    const OracleShape oa = add_random_shape(probe, kind_a, Pose{Vec3::Zero(), ra}, rng);
    const OracleShape ob = add_random_shape(probe, kind_b, Pose{Vec3::Zero(), rb}, rng);
    const bool penetrate = trial % 3 == 0;
    const Real target = penetrate ? Real(0.001) : target_gap(rng);
    Real lo = 0, hi = 4;
    for (int it = 0; it < 60; ++it) {
      const Real mid = Real(0.5) * (lo + hi);
      (oracle_distance(oa, ob, dir * mid) < target ? lo : hi) = mid;
    }
    const Real t = penetrate ? hi - Real(0.01) : hi;
    const Real expected = oracle_distance(oa, ob, dir * t);
    probe.pose[1].pos = dir * t;
    const std::vector<Contact> contacts = probe.collide(margin, Real(0.01));
    INFO("trial " << trial << " kinds " << kind_a << " " << kind_b << " expected gap " << expected);
    if (penetrate) {
      REQUIRE(!contacts.empty());
      Real deepest = 1e9;
      for (const Contact& c : contacts) deepest = std::min(deepest, c.initial_gap);
      CHECK(deepest < 0);
      ++penetrating;
    } else if (expected < margin - Real(1e-4)) {
      REQUIRE(!contacts.empty());
      Real deepest = 1e9;
      for (const Contact& c : contacts) deepest = std::min(deepest, c.initial_gap);
      CHECK(deepest == Approx(expected).margin(Real(1e-3) * expected + (sizeof(Real) == 8 ? Real(2e-6) : Real(3e-4))));
      for (const Contact& c : contacts) CHECK(c.initial_gap < margin);
      ++within;
    } else if (expected > margin + Real(1e-4)) {
      CHECK(contacts.empty());
      ++beyond;
    }
  }
  CHECK(within > 100);
  CHECK(beyond > 50);
  CHECK(penetrating > 100);
}

TEST_CASE("random shapes and particles against a tilted plane: exact gaps", "[unit][collision]") {
  std::mt19937 rng(99);
  std::uniform_real_distribution<Real> u(-1, 1), height(-0.01, 0.03);
  const Real margin = Real(0.02);
  const Quat tilt = about(Vec3(1, -2, 0.5), Real(0.4));
  const Vec3 n = tilt * Vec3::UnitZ();
  const Vec3 origin(0.3, -0.2, 0.7);
  for (int trial = 0; trial < 200; ++trial) {
    Scene s;
    s.plane(Pose{origin, tilt});
    const int kind = trial % 6;
    const Quat r = Quat(Eigen::Vector4d(u(rng), u(rng), u(rng), u(rng)).cast<Real>().normalized());
    const Real target = height(rng);
    Real expected = target;
    if (kind == 5) {  // a particle of radius 0.05 at `target` above the plane
      s.particle(origin + n * (target + Real(0.05)), Real(0.05));
    } else {
      const OracleShape o = add_random_shape(s, kind, Pose{Vec3::Zero(), r}, rng);
      Real lowest = 1e9;
      for (const Vec3& p : o.points) lowest = std::min(lowest, n.dot(p) - o.radius);
      s.pose[0].pos = origin + n * (target - lowest);  // lowest point `target` above the plane
    }
    const std::vector<Contact> contacts = s.collide(margin, Real(0.01));
    INFO("trial " << trial << " kind " << kind << " target " << target);
    if (target >= margin) {
      CHECK(contacts.empty());
      continue;
    }
    REQUIRE(!contacts.empty());
    Real deepest = 1e9;
    for (const Contact& c : contacts) {
      deepest = std::min(deepest, c.initial_gap);
      CHECK((c.normal - n).norm() < kExact);
      CHECK(c.initial_gap < margin);
    }
    CHECK(deepest == Approx(expected).margin(kExact));
  }
}

TEST_CASE("capsule core inside a box is pushed out by the least penetration", "[unit][collision]") {
  Scene s;
  const int table = s.body(Vec3::Zero(), Quat::Identity(), 0);
  s.box(table, Vec3(1, 1, 0.5));
  // Lying along y through the box, 5 cm below its top face, sticking out at both ends.
  const int cap = s.body(Vec3(0.2, 0, 0.45), about(Vec3::UnitX(), kPi / 2));
  s.capsule(cap, Real(0.1), Real(1.5));
  auto contacts = s.collide();
  REQUIRE(contacts.size() == 2);
  for (const Contact& c : contacts) {
    CHECK((c.normal - Vec3::UnitZ()).norm() < kExact);
    CHECK(c.initial_gap == Approx(-0.05 - 0.1).margin(kExact));
    CHECK(std::abs(s.world_point(c.b).y()) == Approx(1.0));  // clipped at the face's sides
  }
  // Skew through the +x+z edge region: one contact pushing outwards, with the right depth.
  s.pose[cap] = Pose{Vec3(0.97, 0, 0.47), about(Vec3(1, 0, -1), kPi / 2)};
  auto skew = s.collide();
  REQUIRE(!skew.empty());
  Real deepest = 1e9;
  for (const Contact& c : skew) {
    CHECK(c.normal.dot(Vec3(1, 0, 1)) > 0);
    deepest = std::min(deepest, c.initial_gap);
  }
  CHECK(deepest < -0.1);
}
