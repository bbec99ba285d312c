// Convex hulls (quickhull + coplanar merge), box/cylinder hulls and polyhedral mass properties.
#include <catch2/catch.hpp>

#include <Eigen/Eigenvalues>

#include <algorithm>
#include <cmath>
#include <random>
#include <set>
#include <utility>

#include "collision/convex_hull.hpp"

using namespace sim;

namespace {

constexpr Real kPi = Real(3.14159265358979323846);
// Tolerances for "exact" and "close" results, for double and for the float build.
constexpr Real kExact = sizeof(Real) == 8 ? Real(1e-12) : Real(2e-5);
constexpr Real kClose = sizeof(Real) == 8 ? Real(1e-9) : Real(2e-4);

// Closed-manifold, convexity and orientation checks that every hull must pass.
void check_hull_invariants(const Model::Hull& h, const std::vector<Vec3>& input) {
  const int v = static_cast<int>(h.vertices.size());
  REQUIRE(h.face_first.size() == static_cast<std::size_t>(h.face_count() + 1));
  REQUIRE(h.face_offset.size() == static_cast<std::size_t>(h.face_count()));
  CHECK(v - h.edge_count() + h.face_count() == 2);
  Real scale = 0;
  for (const Vec3& p : input) scale = std::max(scale, p.norm());
  const Real tol = kClose * (1 + scale);
  std::set<std::pair<int, int>> directed;
  for (int f = 0; f < h.face_count(); ++f) {
    const int begin = h.face_first[f], end = h.face_first[f + 1];
    REQUIRE(end - begin >= 3);
    CHECK(h.face_normal[f].norm() == Approx(1).epsilon(kExact));
    Vec3 area = Vec3::Zero();
    for (int k = begin; k < end; ++k) {
      const Vec3& a = h.vertices[h.face_vertices[k]];
      const Vec3& b = h.vertices[h.face_vertices[k + 1 < end ? k + 1 : begin]];
      area += a.cross(b);
      CHECK(std::abs(h.face_normal[f].dot(a) - h.face_offset[f]) <= tol);  // planar
      directed.insert({h.face_vertices[k], h.face_vertices[k + 1 < end ? k + 1 : begin]});
    }
    CHECK(area.dot(h.face_normal[f]) > 0);  // counter-clockwise seen from outside
    Real worst = -1;  // every input point inside
    for (const Vec3& p : input) worst = std::max(worst, h.face_normal[f].dot(p) - h.face_offset[f]);
    CHECK(worst <= tol);
  }
  for (const auto& [a, b] : directed) CHECK(directed.count({b, a}) == 1);
  for (int e = 0; e < h.edge_count(); ++e) {
    CHECK(h.edge_vertices[2 * e] < h.edge_vertices[2 * e + 1]);
    CHECK(directed.count({h.edge_vertices[2 * e], h.edge_vertices[2 * e + 1]}) == 1);
  }
  CHECK(directed.size() == static_cast<std::size_t>(2 * h.edge_count()));
}

// Volume by the divergence theorem, V = 1/3 Σ_f area_f offset_f: independent of the tetrahedra.
Real divergence_volume(const Model::Hull& h) {
  Real volume = 0;
  for (int f = 0; f < h.face_count(); ++f) {
    Vec3 twice_area = Vec3::Zero();
    const int begin = h.face_first[f], end = h.face_first[f + 1];
    for (int k = begin; k < end; ++k)
      twice_area += h.vertices[h.face_vertices[k]].cross(h.vertices[h.face_vertices[k + 1 < end ? k + 1 : begin]]);
    volume += Real(0.5) * twice_area.dot(h.face_normal[f]) * h.face_offset[f] / 3;
  }
  return volume;
}

Mat3 box_inertia(const Vec3& half, Real mass) {
  const Vec3 s = 2 * half;
  return (mass / 12 * Vec3(s.y() * s.y() + s.z() * s.z(), s.x() * s.x() + s.z() * s.z(),
                           s.x() * s.x() + s.y() * s.y())).asDiagonal();
}

}  // namespace

TEST_CASE("hull of a box's corners plus interior, face and edge points is the box", "[unit][collision]") {
  const Vec3 half(1, 2, 3), offset(1, -2, 0.5);
  std::vector<Vec3> pts;
  for (int i = 0; i < 8; ++i)
    pts.push_back(offset + Vec3((i & 1) ? 1 : -1, (i & 2) ? 1 : -1, (i & 4) ? 1 : -1).cwiseProduct(half));
  std::mt19937 rng(7);
  std::uniform_real_distribution<Real> u(-1, 1);
  for (int i = 0; i < 50; ++i) pts.push_back(offset + Vec3(u(rng), u(rng), u(rng)).cwiseProduct(half));
  for (int axis = 0; axis < 3; ++axis) {  // face centres and points inside faces
    for (int side = -1; side <= 1; side += 2) {
      Vec3 c = Vec3::Zero();
      c[axis] = side * half[axis];
      pts.push_back(offset + c);
      Vec3 d = c;
      d[(axis + 1) % 3] = Real(0.3) * half[(axis + 1) % 3];
      pts.push_back(offset + d);
    }
  }
  pts.push_back(offset + Vec3(0, half.y(), half.z()));  // edge midpoints
  pts.push_back(offset + Vec3(half.x(), 0, -half.z()));
  auto built = build_convex_hull(pts, "cube.xml:3: <convex>");
  REQUIRE(built.ok());
  const Model::Hull& h = built.value();
  CHECK(h.vertices.size() == 8);
  CHECK(h.face_count() == 6);
  CHECK(h.edge_count() == 12);
  for (int f = 0; f < h.face_count(); ++f) CHECK(h.face_first[f + 1] - h.face_first[f] == 4);
  check_hull_invariants(h, pts);

  const MassProperties mp = hull_mass_properties(h);
  const Real volume = 8 * half.x() * half.y() * half.z();
  CHECK(mp.volume == Approx(volume).epsilon(kExact));
  CHECK((mp.centroid - offset).norm() < kExact);
  CHECK((mp.inertia - box_inertia(half, volume)).norm() < kClose * volume);
  CHECK(divergence_volume(h) == Approx(volume).epsilon(kExact));
}

TEST_CASE("hull of a rotated box has the rotated inertia", "[unit][collision]") {
  const Vec3 half(0.5, 0.25, 1);
  const Quat r(Eigen::AngleAxis<Real>(Real(0.7), Vec3(1, 2, 3).normalized()));
  std::vector<Vec3> pts;
  for (int i = 0; i < 8; ++i)
    pts.push_back(r * Vec3((i & 1) ? 1 : -1, (i & 2) ? 1 : -1, (i & 4) ? 1 : -1).cwiseProduct(half));
  auto built = build_convex_hull(pts, "rotated");
  REQUIRE(built.ok());
  CHECK(built->face_count() == 6);
  check_hull_invariants(built.value(), pts);
  const MassProperties mp = hull_mass_properties(built.value());
  const Real volume = 8 * half.prod();
  const Mat3 rm = r.toRotationMatrix();
  CHECK(mp.volume == Approx(volume).epsilon(kExact));
  CHECK((mp.inertia - rm * box_inertia(half, volume) * rm.transpose()).norm() < kClose);
}

TEST_CASE("hull of a 5x5x5 lattice merges all coplanar points into 6 quads", "[unit][collision]") {
  std::vector<Vec3> pts;
  for (int i = 0; i < 5; ++i)
    for (int j = 0; j < 5; ++j)
      for (int k = 0; k < 5; ++k) pts.emplace_back(Real(0.25) * i, Real(0.25) * j, Real(0.25) * k);
  auto built = build_convex_hull(pts, "lattice");
  REQUIRE(built.ok());
  CHECK(built->vertices.size() == 8);
  CHECK(built->face_count() == 6);
  CHECK(built->edge_count() == 12);
  check_hull_invariants(built.value(), pts);
  CHECK(hull_mass_properties(built.value()).volume == Approx(1).epsilon(kExact));
}

TEST_CASE("box_hull matches the closed forms", "[unit][collision]") {
  const Vec3 half(0.1, 0.2, 0.3);
  const Model::Hull h = box_hull(half);
  CHECK(h.vertices.size() == 8);
  CHECK(h.face_count() == 6);
  CHECK(h.edge_count() == 12);
  std::vector<Vec3> corners(h.vertices.begin(), h.vertices.end());
  check_hull_invariants(h, corners);
  for (int f = 0; f < 6; ++f) CHECK(h.face_offset[f] == Approx(h.face_normal[f].cwiseAbs().dot(half)));
  const MassProperties mp = hull_mass_properties(h);
  CHECK(mp.volume == Approx(8 * half.prod()).epsilon(kExact));
  CHECK(mp.centroid.norm() < kExact);
  CHECK((mp.inertia - box_inertia(half, mp.volume)).norm() < kExact);
}

TEST_CASE("cylinder_hull is a prism with the polygon's volume", "[unit][collision]") {
  const Real r = Real(0.4), hh = Real(0.7);
  for (int n : {3, 8, 16, 31}) {
    const Model::Hull h = cylinder_hull(r, hh, n);
    CHECK(h.vertices.size() == static_cast<std::size_t>(2 * n));
    CHECK(h.face_count() == n + 2);
    CHECK(h.edge_count() == 3 * n);
    std::vector<Vec3> corners(h.vertices.begin(), h.vertices.end());
    check_hull_invariants(h, corners);
    const MassProperties mp = hull_mass_properties(h);
    const Real polygon_area = Real(0.5) * n * r * r * std::sin(2 * kPi / n);
    CHECK(mp.volume == Approx(polygon_area * 2 * hh).epsilon(kExact));
    CHECK(mp.centroid.norm() < kExact);
    // The prism's axial moment: ρ h ∫ (x²+y²) over the polygon = V r²/6 (2 + cos(2π/n)).
    CHECK(mp.inertia(2, 2) == Approx(mp.volume * r * r / 6 * (2 + std::cos(2 * kPi / n))).epsilon(kClose));
    CHECK(mp.inertia(0, 0) == Approx(mp.inertia(1, 1)).epsilon(kClose));
    // Quickhull on the same points finds the same polyhedron.
    auto rebuilt = build_convex_hull(corners, "cylinder");
    REQUIRE(rebuilt.ok());
    CHECK(rebuilt->vertices.size() == h.vertices.size());
    CHECK(rebuilt->face_count() == h.face_count());
    CHECK(rebuilt->edge_count() == h.edge_count());
    CHECK(hull_mass_properties(rebuilt.value()).volume == Approx(mp.volume).epsilon(kExact));
  }
}

TEST_CASE("hull of random points contains them all and is a convex polyhedron", "[unit][collision]") {
  std::mt19937 rng(42);
  std::normal_distribution<Real> g(0, 1);
  for (int trial = 0; trial < 5; ++trial) {
    std::vector<Vec3> pts;
    for (int i = 0; i < 300; ++i) {
      Vec3 p(g(rng), g(rng), g(rng));
      if (trial % 2 == 0) p = p.normalized() * Real(0.5);  // all on a sphere: every point is a vertex
      pts.push_back(p + Vec3(3, -1, 2));
    }
    auto built = build_convex_hull(pts, "random");
    REQUIRE(built.ok());
    check_hull_invariants(built.value(), pts);
    if (trial % 2 == 0) CHECK(built->vertices.size() == pts.size());
    const MassProperties mp = hull_mass_properties(built.value());
    CHECK(mp.volume == Approx(divergence_volume(built.value())).epsilon(kClose));
    CHECK(mp.volume > 0);
    // Inertia is symmetric positive definite and satisfies the triangle inequality.
    CHECK((mp.inertia - mp.inertia.transpose()).norm() < kExact);
    Eigen::SelfAdjointEigenSolver<Mat3> eig(mp.inertia);
    const Vec3 m = eig.eigenvalues();
    CHECK(m.minCoeff() > 0);
    CHECK(m[0] + m[1] >= m[2] * (1 - 1e-9));
    // Every hull vertex is an input point.
    int missing = 0;
    for (const Vec3& v : built->vertices) {
      bool found = false;
      for (const Vec3& p : pts) found = found || (p - v).norm() == 0;
      missing += found ? 0 : 1;
    }
    CHECK(missing == 0);
  }
}

TEST_CASE("hull of a regular tetrahedron and an octahedron have their closed-form volumes", "[unit][collision]") {
  const std::vector<Vec3> tet{{1, 1, 1}, {1, -1, -1}, {-1, 1, -1}, {-1, -1, 1}};
  auto t = build_convex_hull(tet, "tet");
  REQUIRE(t.ok());
  CHECK(t->face_count() == 4);
  CHECK(t->edge_count() == 6);
  const Real a = std::sqrt(Real(8));
  CHECK(hull_mass_properties(t.value()).volume == Approx(a * a * a / (6 * std::sqrt(Real(2)))).epsilon(kExact));
  const std::vector<Vec3> oct{{1, 0, 0}, {-1, 0, 0}, {0, 1, 0}, {0, -1, 0}, {0, 0, 1}, {0, 0, -1}, {0, 0, 0}};
  auto o = build_convex_hull(oct, "oct");
  REQUIRE(o.ok());
  CHECK(o->vertices.size() == 6);
  CHECK(o->face_count() == 8);
  CHECK(o->edge_count() == 12);
  const MassProperties mp = hull_mass_properties(o.value());
  CHECK(mp.volume == Approx(Real(4) / 3).epsilon(kExact));
  CHECK(mp.inertia(0, 0) == Approx(mp.volume * Real(2) / 10).epsilon(kExact));  // (2/5)·(1/2)·... = V/5
}

TEST_CASE("degenerate point sets are errors naming where they come from", "[unit][collision]") {
  const std::string where = "robot.xml:12: <convex>";
  auto few = build_convex_hull({{0, 0, 0}, {1, 0, 0}, {0, 1, 0}}, where);
  REQUIRE_FALSE(few.ok());
  CHECK(few.error().rfind(where, 0) == 0);
  std::vector<Vec3> flat;
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) flat.emplace_back(i, j, Real(0.5) * i - j);  // a tilted plane
  auto f = build_convex_hull(flat, where);
  REQUIRE_FALSE(f.ok());
  CHECK(f.error().rfind(where, 0) == 0);
  auto line = build_convex_hull({{0, 0, 0}, {1, 1, 1}, {2, 2, 2}, {3, 3, 3}, {-1, -1, -1}}, where);
  REQUIRE_FALSE(line.ok());
  CHECK(line.error().rfind(where, 0) == 0);
  auto same = build_convex_hull({{1, 1, 1}, {1, 1, 1}, {1, 1, 1}, {1, 1, 1}}, where);
  REQUIRE_FALSE(same.ok());
  auto nan = build_convex_hull({{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, std::nan("")}}, where);
  REQUIRE_FALSE(nan.ok());
  CHECK(nan.error().rfind(where, 0) == 0);
}
