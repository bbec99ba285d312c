// Penetration depth of overlapping convex sets (collision/epa.hpp) from GJK's simplex, and the
// Newton refinement of the normal (collision/normal_refinement.hpp), against closed forms: two
// balls (as ellipsoids with equal semi-axes: depth r1 + r2 - d along the centres' line, including
// concentric ones, where GJK stops on a lower-dimensional simplex), two boxes (the least overlap
// over the face axes) and a point inside a box (its distance to the nearest face).
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <random>

#include "collision/epa.hpp"
#include "collision/gjk.hpp"
#include "collision/normal_refinement.hpp"
#include "collision/support.hpp"

namespace {

using sim::Real;
using sim::Vec3;
using sim::detail::SupportShape;

SupportShape ball(Real r, const Vec3& c) {
  SupportShape s;
  s.kind = SupportShape::Kind::Ellipsoid;
  s.size = Vec3::Constant(r);
  s.center = c;
  return s;
}

SupportShape box(const Vec3& half, const Vec3& c) {
  SupportShape s;
  s.kind = SupportShape::Kind::Box;
  s.size = half;
  s.center = c;
  return s;
}

sim::detail::EpaResult penetration(const SupportShape& a, const SupportShape& b) {
  const sim::detail::GjkResult g = sim::detail::gjk_distance(a, b);
  REQUIRE(g.overlap);
  const sim::detail::EpaResult e = sim::detail::epa_penetration(a, b, g, Real(1e-10));
  REQUIRE(e.ok);
  // The deepest points are the supports along ±normal, depth·normal apart.
  CHECK((e.point_a - e.point_b - e.depth * e.normal).norm() < 1e-6);
  return e;
}

// φ(n) = n·(s_A(-n) - s_B(n)): the separation along the unit n (from B towards A).
Real separation_along(const SupportShape& a, const SupportShape& b, const Vec3& n) {
  return n.dot(a.support(-n) - b.support(n));
}

}  // namespace

TEST_CASE("EPA: two overlapping balls, depth r1 + r2 - d along the line of centres", "[unit][collision][epa]") {
  std::mt19937 rng(11);
  std::uniform_real_distribution<Real> u(-1, 1), radius(0.05, 0.3), overlap(0.001, 0.9);
  Real worst_depth = 0, worst_epa_normal = 0, worst_refined = 0, worst_along = 0;
  int out_of_room = 0;
  for (int trial = 0; trial < 50; ++trial) {
    const Real r1 = radius(rng), r2 = radius(rng);
    const Vec3 dir = Vec3(u(rng), u(rng), u(rng)).normalized();
    const Real d = (r1 + r2) * (1 - overlap(rng));
    const Vec3 cb(u(rng), u(rng), u(rng));
    const SupportShape a = ball(r1, cb + d * dir), b = ball(r2, cb);
    const Real depth = r1 + r2 - d;
    const auto e = penetration(a, b);
    CHECK(e.depth <= depth + 1e-12);  // a lower bound, exact when EPA converged
    // EPA's normal points out of A - B: from A towards B, against the contact normal. Refined, the
    // separation along it is the depth (what the narrowphase uses), from wherever EPA stopped.
    Vec3 n = -e.normal;
    if (e.depth < depth - 1e-9) {
      ++out_of_room;
    } else {
      worst_depth = std::max(worst_depth, std::abs(e.depth - depth));
      worst_epa_normal = std::max(worst_epa_normal, (n - dir).norm());
    }
    sim::detail::refine_normal(a, b, n, r1 + r2);
    worst_refined = std::max(worst_refined, (n - dir).norm());
    worst_along = std::max(worst_along, std::abs(-separation_along(a, b, n) - depth));
  }
  INFO("depth error " << worst_depth << " m (" << out_of_room << " deep ones out of room), EPA normal error "
                      << worst_epa_normal << ", refined " << worst_refined << ", depth along it " << worst_along);
  CHECK(worst_depth < 1e-9);
  CHECK(out_of_room < 25);          // overlaps up to 90 % of r1 + r2
  CHECK(worst_epa_normal < 1e-3);   // converged ones: ~√(2 tol / R)
  CHECK(worst_refined < 1e-9);
  CHECK(worst_along < 1e-9);
  // Concentric: GJK's simplex holds the origin on an edge; every direction is as deep (r1 + r2),
  // which EPA approaches from below.
  for (const Vec3& c : {Vec3(0, 0, 0), Vec3(Real(0.3), Real(-0.2), Real(1))}) {
    const SupportShape a = ball(Real(0.1), c), b = ball(Real(0.25), c);
    const auto e = penetration(a, b);
    CHECK(e.depth <= 0.35 + 1e-12);
    CHECK(e.depth > 0.3);
    CHECK(-separation_along(a, b, -e.normal) == Approx(0.35).margin(1e-12));
  }
}

TEST_CASE("EPA: boxes and a point in a box, depth the least face overlap", "[unit][collision][epa]") {
  const Vec3 ha(Real(0.2), Real(0.3), Real(0.1)), hb(Real(0.5), Real(0.4), Real(0.25));
  for (const Vec3& offset : {Vec3(Real(0.1), Real(0.05), Real(0.33)), Vec3(Real(0.64), Real(0.1), 0),
                             Vec3(Real(-0.2), Real(-0.66), Real(0.1))}) {
    const auto e = penetration(box(ha, offset), box(hb, Vec3::Zero()));
    const Vec3 overlap = ha + hb - offset.cwiseAbs();
    int axis = 0;
    overlap.minCoeff(&axis);
    Vec3 expected = Vec3::Zero();
    expected[axis] = offset[axis] > 0 ? -1 : 1;  // out of A - B, from A towards B
    CHECK(e.depth == Approx(overlap[axis]).margin(1e-9));
    CHECK((e.normal - expected).norm() < 1e-9);
    // The refinement leaves a face normal alone.
    Vec3 n = -e.normal;
    CHECK(sim::detail::refine_normal(box(ha, offset), box(hb, Vec3::Zero()), n, 1) == 0);
    CHECK((n + expected).norm() < 1e-9);
  }
  SupportShape point;
  point.kind = SupportShape::Kind::Points;
  point.count = 1;
  point.core[0] = Vec3(Real(0.1), Real(0.3), Real(-0.2));
  const auto e = penetration(point, box(hb, Vec3::Zero()));
  // Nearest face z = -0.25 (0.05 away; y = 0.4 is 0.1, x = 0.5 0.4): the point leaves downwards.
  CHECK(e.depth == Approx(0.05).margin(1e-9));
  CHECK((e.normal - Vec3::UnitZ()).norm() < 1e-9);
}
