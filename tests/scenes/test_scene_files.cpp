// The shipped scenes (assets/scenes/*.xml): each parses and compiles, has the paper's dt and a
// ground plane, and holds what its description promises (body/joint counts, masses, exact initial
// contact). The arch is checked geometrically: adjacent voussoirs share a joint face with no gap
// and no overlap.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "sim/compile.hpp"
#include "sim/scene_io.hpp"
#include "support/shared_robots.hpp"

namespace {

using sim::Real;
using sim::Vec2;
using sim::Vec3;

constexpr double kPi = 3.14159265358979323846;

std::string scene_path(const std::string& name) {
  return std::string(COULOMB_SOURCE_DIR) + "/assets/scenes/" + name;
}

sim::SceneSpec load(const std::string& name) {
  auto r = sim::load_scene_file(scene_path(name));
  INFO((r.ok() ? std::string() : r.error()));
  REQUIRE(r.ok());
  return r.value();
}

sim::Model compile(const sim::SceneSpec& spec) {
  auto m = sim::compile_model(spec);
  INFO((m.ok() ? std::string() : m.error()));
  REQUIRE(m.ok());
  return m.value();
}

Real body_mass(const sim::Model& m, int b) { return Real(1) / m.body_inv_mass[b]; }

// All hull/box corner points of a body's shapes in the world.
std::vector<Vec3> world_points(const sim::BodySpec& b) {
  std::vector<Vec3> out;
  for (const sim::ShapeSpec& s : b.shapes) {
    if (s.type == sim::ShapeType::ConvexMesh) {
      for (const Vec3& v : s.vertices) out.push_back(b.pose.apply(s.local.apply(v)));
    } else if (s.type == sim::ShapeType::Box) {
      for (int k = 0; k < 8; ++k) {
        const Vec3 c((k & 1) ? 1 : -1, (k & 2) ? 1 : -1, (k & 4) ? 1 : -1);
        out.push_back(b.pose.apply(s.local.apply(c.cwiseProduct(s.half_extents))));
      }
    }
  }
  return out;
}

Real cross2(const Vec2& a, const Vec2& b) { return a.x() * b.y() - a.y() * b.x(); }

// Points of a planar convex polygon ordered counter-clockwise around their centroid.
std::vector<Vec2> ccw(std::vector<Vec2> p) {
  Vec2 c = Vec2::Zero();
  for (const Vec2& q : p) c += q;
  c /= static_cast<Real>(p.size());
  std::sort(p.begin(), p.end(), [&](const Vec2& a, const Vec2& b) {
    return std::atan2(a.y() - c.y(), a.x() - c.x()) < std::atan2(b.y() - c.y(), b.x() - c.x());
  });
  return p;
}

Real polygon_area(const std::vector<Vec2>& p) {
  Real a = 0;
  for (std::size_t i = 0; i < p.size(); ++i) a += cross2(p[i], p[(i + 1) % p.size()]);
  return a / 2;
}

// Area of the intersection of two convex CCW polygons (Sutherland-Hodgman clipping).
Real intersection_area(std::vector<Vec2> subject, const std::vector<Vec2>& clip) {
  for (std::size_t e = 0; e < clip.size() && !subject.empty(); ++e) {
    const Vec2 a = clip[e], b = clip[(e + 1) % clip.size()];
    auto inside = [&](const Vec2& x) { return cross2(b - a, x - a) >= 0; };
    std::vector<Vec2> in = std::move(subject);
    subject.clear();
    for (std::size_t i = 0; i < in.size(); ++i) {
      const Vec2 p = in[i], q = in[(i + 1) % in.size()];
      const bool pin = inside(p), qin = inside(q);
      if (pin) subject.push_back(p);
      if (pin != qin) {
        const Real t = cross2(b - a, a - p) / cross2(b - a, q - p);
        subject.push_back(p + t * (q - p));
      }
    }
  }
  return subject.size() >= 3 ? polygon_area(subject) : Real(0);
}

// If a face plane of convex point set A has all of A on one side and all of B on the other, with
// at least 3 points of each on the plane (within tol), returns the area of the common face
// (intersection of the two on-plane polygons); 0 if there is no such plane.
Real common_face_area(const std::vector<Vec3>& a, const std::vector<Vec3>& b, Real tol) {
  Real best = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    for (std::size_t j = i + 1; j < a.size(); ++j) {
      for (std::size_t k = j + 1; k < a.size(); ++k) {
        Vec3 n = (a[j] - a[i]).cross(a[k] - a[i]);
        if (n.norm() < Real(1e-9)) continue;
        n.normalize();
        Real d = n.dot(a[i]);
        Real lo = 1e30, hi = -1e30;
        for (const Vec3& p : a) {
          lo = std::min(lo, n.dot(p) - d);
          hi = std::max(hi, n.dot(p) - d);
        }
        if (hi > tol && lo < -tol) continue;  // not a face plane of A
        if (hi > tol) {  // A lies on the positive side: flip so A is on the negative side
          n = -n;
          d = -d;
        }
        bool separated = true;
        for (const Vec3& p : b) separated = separated && n.dot(p) - d >= -tol;
        if (!separated) continue;
        Vec3 t1, t2;
        sim::orthonormal_basis(n, t1, t2);
        std::vector<Vec2> fa, fb;
        for (const Vec3& p : a)
          if (std::abs(n.dot(p) - d) <= tol) fa.emplace_back(t1.dot(p), t2.dot(p));
        for (const Vec3& p : b)
          if (std::abs(n.dot(p) - d) <= tol) fb.emplace_back(t1.dot(p), t2.dot(p));
        if (fa.size() < 3 || fb.size() < 3) continue;
        best = std::max(best, intersection_area(ccw(fa), ccw(fb)));
      }
    }
  }
  return best;
}

bool has_ground_plane(const sim::SceneSpec& spec) {
  for (const sim::ShapeSpec& s : spec.world_shapes)
    if (s.type == sim::ShapeType::Plane) return true;
  return false;
}

}  // namespace

TEST_CASE("scene files: every shipped scene parses and compiles", "[scene][io]") {
  const std::filesystem::path dir = std::string(COULOMB_SOURCE_DIR) + "/assets/scenes";
  std::vector<std::string> files;
  for (const auto& entry : std::filesystem::directory_iterator(dir))
    if (entry.path().extension() == ".xml") files.push_back(entry.path().filename().string());
  std::sort(files.begin(), files.end());
  CHECK(files.size() >= 9);

  for (const std::string& file : files) {
    INFO(file);
    if (test::scene_needs_shared_robots(scene_path(file)) && !test::shared_robots_available()) {
      WARN("skipped " << file << ": " << test::shared_robots_dir() << " not found");
      continue;
    }
    const sim::SceneSpec spec = load(file);
    CHECK(spec.name == std::filesystem::path(file).stem().string());
    CHECK(spec.dt == Real(0.0083));
    CHECK(spec.gravity == Vec3(0, 0, Real(-9.81)));
    CHECK(has_ground_plane(spec));
    for (std::size_t i = 0; i < spec.bodies.size(); ++i) {
      const sim::BodySpec& b = spec.bodies[i];
      CHECK(b.source.line > 0);
      // Bodies of a <robot> name the robot file they came from.
      const int robot = sim::robot_of_body(spec, static_cast<int>(i));
      CHECK(b.source.file == (robot >= 0 ? spec.robots[static_cast<std::size_t>(robot)].path : scene_path(file)));
      for (const sim::ShapeSpec& s : b.shapes) CHECK(s.source.line > 0);
    }
    for (const sim::JointSpec& j : spec.joints) CHECK(j.source.line > 0);
    const sim::Model model = compile(spec);
    CHECK(model.body_count == static_cast<int>(spec.bodies.size()));
    CHECK(model.joint_count == static_cast<int>(spec.joints.size()));
    CHECK(model.particle_count == static_cast<int>(spec.particles.size()));
    CHECK(model.distance_count == static_cast<int>(spec.distances.size()));
    CHECK(model.dt == Real(0.0083));
  }
}

TEST_CASE("scene files: counts per scene", "[scene][io]") {
  struct Expect {
    const char* file;
    int bodies, joints, particles, distances;
  };
  const Expect expected[] = {
      {"arch.xml", 19, 0, 0, 0},           {"heavy_stack.xml", 5, 0, 0, 0},
      {"flexible_beam.xml", 16, 16, 0, 0}, {"incline.xml", 1, 0, 0, 0},
      {"pendulum.xml", 1, 1, 0, 0},        {"pyramid.xml", 210, 0, 0, 0},
      {"rope.xml", 1, 0, 51, 50},          {"cloth.xml", 0, 0, 625, 24 * 25 * 2 + 24 * 24 * 2},
  };
  for (const Expect& e : expected) {
    INFO(e.file);
    const sim::SceneSpec spec = load(e.file);
    CHECK(static_cast<int>(spec.bodies.size()) == e.bodies);
    CHECK(static_cast<int>(spec.joints.size()) == e.joints);
    CHECK(static_cast<int>(spec.particles.size()) == e.particles);
    CHECK(static_cast<int>(spec.distances.size()) == e.distances);
  }
}

TEST_CASE("scene files: arch voussoirs", "[scene][io]") {
  const sim::SceneSpec spec = load("arch.xml");
  const sim::Model model = compile(spec);
  REQUIRE(model.body_count == 19);
  REQUIRE(spec.materials.size() == 1);
  CHECK(spec.materials[0].friction == Real(0.6));

  Real lightest = 1e30, heaviest = 0;
  for (int b = 0; b < model.body_count; ++b) {
    REQUIRE(model.body_is_dynamic(b));
    lightest = std::min(lightest, body_mass(model, b));
    heaviest = std::max(heaviest, body_mass(model, b));
  }
  CHECK(lightest == Approx(15).epsilon(0.2));
  CHECK(heaviest == Approx(110).epsilon(0.2));
  CHECK(spec.bodies[9].name == "keystone");
  CHECK(body_mass(model, 9) == Approx(lightest));

  std::vector<std::vector<Vec3>> stones;
  for (const sim::BodySpec& b : spec.bodies) {
    REQUIRE(b.shapes.size() == 1);
    REQUIRE(b.shapes[0].type == sim::ShapeType::ConvexMesh);
    REQUIRE(b.shapes[0].material == 0);
    stones.push_back(world_points(b));
  }
  // Adjacent stones share a joint face: a face plane of one has the other entirely on its far
  // side (no overlap) and both have a face on it within 1e-6 m (no gap), overlapping in area.
  const Real tol = Real(1e-6);
  for (std::size_t k = 0; k + 1 < stones.size(); ++k) {
    INFO("voussoirs " << k << " and " << k + 1);
    CHECK(common_face_area(stones[k], stones[k + 1], tol) > Real(0.03));
  }
  // Non-adjacent stones do not touch at all.
  for (std::size_t k = 0; k + 2 < stones.size(); ++k) {
    INFO("voussoirs " << k << " and " << k + 2);
    CHECK(common_face_area(stones[k], stones[k + 2], tol) == 0);
  }
  // The springers stand on the ground (z = 0); nothing is below it.
  for (std::size_t k = 0; k < stones.size(); ++k) {
    Real low = 1e30;
    for (const Vec3& p : stones[k]) low = std::min(low, p.z());
    CHECK(low >= -tol);
    if (k == 0 || k + 1 == stones.size()) CHECK(std::abs(low) <= tol);
    else CHECK(low > Real(0.05));
  }
}

TEST_CASE("scene files: heavy stack", "[scene][io]") {
  const sim::SceneSpec spec = load("heavy_stack.xml");
  const sim::Model model = compile(spec);
  const Real masses[] = {8, 64, 512, 4096, 32768};
  REQUIRE(model.body_count == 5);
  Real top_of_previous = 0;  // the ground
  for (int b = 0; b < 5; ++b) {
    INFO("box " << b);
    CHECK(spec.bodies[b].mass == masses[b]);
    CHECK(body_mass(model, b) == Approx(masses[b]).epsilon(1e-12));
    REQUIRE(spec.bodies[b].shapes.size() == 1);
    CHECK(spec.bodies[b].shapes[0].half_extents == Vec3(Real(0.25), Real(0.25), Real(0.25)));
    CHECK(spec.materials[spec.bodies[b].shapes[0].material].friction == Real(0.5));
    // Exactly touching the box below (or the ground).
    CHECK(spec.bodies[b].pose.pos.z() - Real(0.25) == top_of_previous);
    top_of_previous = spec.bodies[b].pose.pos.z() + Real(0.25);
  }
  CHECK(body_mass(model, 4) / body_mass(model, 1) == Approx(512));
}

TEST_CASE("scene files: table pile", "[scene][io]") {
  const sim::SceneSpec spec = load("table_pile.xml");
  const sim::Model model = compile(spec);
  CHECK(model.body_count >= 24);
  CHECK(model.body_count <= 32);
  for (int b = 0; b < model.body_count; ++b) {
    INFO(spec.bodies[b].name);
    CHECK(body_mass(model, b) == Approx(4.7));
    REQUIRE(spec.bodies[b].shapes.size() == 5);
    for (const sim::ShapeSpec& s : spec.bodies[b].shapes) {
      CHECK(s.type == sim::ShapeType::Box);
      CHECK(spec.materials[s.material].friction == Real(0.7));
    }
    Real low = 1e30;
    for (const Vec3& p : world_points(spec.bodies[b])) low = std::min(low, p.z());
    CHECK(low > 0);
    CHECK(low < Real(2.5));
  }
}

TEST_CASE("scene files: flexible beam", "[scene][io]") {
  const sim::SceneSpec spec = load("flexible_beam.xml");
  const sim::Model model = compile(spec);
  REQUIRE(model.body_count == 16);
  REQUIRE(model.joint_count == 16);
  for (int b = 0; b < 16; ++b) CHECK(body_mass(model, b) == Approx(0.003));
  CHECK(spec.joints[0].body_a == -1);
  CHECK(spec.joints[0].body_b == 0);
  for (int j = 0; j < 16; ++j) {
    const sim::JointSpec& joint = spec.joints[j];
    INFO(joint.name);
    CHECK(joint.type == sim::JointType::Fixed);
    CHECK(joint.angular_compliance == Real(1.0 / 250.0));
    CHECK(joint.linear_compliance == 0);
    if (j > 0) {
      CHECK(joint.body_a == j - 1);
      CHECK(joint.body_b == j);
    }
    const sim::Pose a = joint.body_a >= 0 ? spec.bodies[joint.body_a].pose * joint.frame_a : joint.frame_a;
    const sim::Pose b = spec.bodies[joint.body_b].pose * joint.frame_b;
    CHECK((a.pos - b.pos).norm() < Real(1e-12));
    CHECK(std::abs(std::abs(a.rot.dot(b.rot)) - 1) < Real(1e-12));
    CHECK(a.pos.x() == Approx(0.04 * j));
  }
}

TEST_CASE("scene files: incline", "[scene][io]") {
  const sim::SceneSpec spec = load("incline.xml");
  REQUIRE(spec.world_shapes.size() == 1);
  const sim::Pose plane = spec.world_shapes[0].local;
  const Vec3 n = plane.rot * Vec3::UnitZ();
  CHECK(std::acos(n.z()) == Approx(20 * kPi / 180));
  const Real mu = spec.materials.at(0).friction;
  CHECK(mu == Real(0.5));
  CHECK(std::tan(20 * kPi / 180) < mu);
  REQUIRE(spec.bodies.size() == 1);
  CHECK(spec.bodies[0].shapes[0].half_extents == Vec3(Real(0.1), Real(0.1), Real(0.1)));
  // The box rests exactly on the plane: four corners on it, none below.
  int on_plane = 0;
  for (const Vec3& p : world_points(spec.bodies[0])) {
    const Real dist = n.dot(p - plane.pos);
    CHECK(dist > Real(-1e-9));
    if (std::abs(dist) < Real(1e-9)) ++on_plane;
  }
  CHECK(on_plane == 4);
}

TEST_CASE("scene files: pendulum", "[scene][io]") {
  const sim::SceneSpec spec = load("pendulum.xml");
  REQUIRE(spec.joints.size() == 1);
  const sim::JointSpec& j = spec.joints[0];
  CHECK(j.type == sim::JointType::Revolute);
  CHECK(j.body_a == -1);
  const Vec3 pivot = j.frame_a.pos;
  const Vec3 bob = spec.bodies[0].pose.pos;
  CHECK((bob - pivot).norm() == Approx(1.0).epsilon(1e-9));
  CHECK(std::acos((pivot - bob).z() / (bob - pivot).norm()) == Approx(10 * kPi / 180).epsilon(1e-9));
  const Vec3 axis_world = j.frame_a.rot * j.axis;
  CHECK(std::abs(axis_world.dot(bob - pivot)) < Real(1e-12));
  CHECK(spec.bodies[0].shapes[0].type == sim::ShapeType::Sphere);
  const sim::Model model = compile(spec);
  CHECK(body_mass(model, 0) == Approx(1));
}

TEST_CASE("scene files: rope and cloth", "[scene][io]") {
  const sim::SceneSpec rope = load("rope.xml");
  CHECK(rope.particles[0].mass == 0);
  Real total = 0;
  for (std::size_t i = 1; i < rope.particles.size(); ++i) {
    CHECK(rope.particles[i].mass > 0);
    total += rope.particles[i].mass;
  }
  CHECK(total == Approx(50.0 / 51.0));
  const sim::SceneSpec cloth = load("cloth.xml");
  total = 0;
  for (const sim::ParticleSpec& p : cloth.particles) total += p.mass;
  CHECK(total == Approx(0.5));
  // The cloth starts above the sphere it drapes on.
  Real low = 1e30;
  for (const sim::ParticleSpec& p : cloth.particles) low = std::min(low, p.position.z() - p.radius);
  Real sphere_top = -1e30;
  for (const sim::ShapeSpec& s : cloth.world_shapes)
    if (s.type == sim::ShapeType::Sphere) sphere_top = s.local.pos.z() + s.radius;
  CHECK(low > sphere_top);
}

TEST_CASE("scene files: pyramid", "[scene][io]") {
  const sim::SceneSpec spec = load("pyramid.xml");
  const sim::Model model = compile(spec);
  CHECK(model.body_count == 210);
  std::map<long, int> per_row;
  for (const sim::BodySpec& b : spec.bodies) ++per_row[std::lround(b.pose.pos.z() * 100)];
  REQUIRE(per_row.size() == 20);
  int expected = 20;
  for (const auto& [z, count] : per_row) CHECK(count == expected--);
}

TEST_CASE("scene files: the complete example of docs/scene-format.md", "[scene][io]") {
  std::ifstream in(std::string(COULOMB_SOURCE_DIR) + "/docs/scene-format.md");
  REQUIRE(in);
  const std::string doc((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const std::size_t heading = doc.find("## A complete example");
  REQUIRE(heading != std::string::npos);
  const std::size_t begin = doc.find("```xml\n", heading);
  REQUIRE(begin != std::string::npos);
  const std::size_t end = doc.find("```", begin + 7);
  REQUIRE(end != std::string::npos);
  const std::string xml = doc.substr(begin + 7, end - begin - 7);
  auto spec = sim::parse_scene_xml(xml, "example.xml");
  INFO((spec.ok() ? std::string() : spec.error()));
  REQUIRE(spec.ok());
  CHECK(spec->name == "example");
  CHECK(spec->bodies.size() == 2);
  CHECK(spec->joints.size() == 1);
  CHECK(spec->particles.size() == 12);
  CHECK(spec->distances.size() == 11);
  const sim::Model model = compile(spec.value());
  CHECK(model.body_count == 2);
}
