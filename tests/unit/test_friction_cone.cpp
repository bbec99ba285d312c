// The matchstick cone (thesis ch. 3, eqs. 32-35) and its elliptic NSN rows, against the closed
// forms of the digest (../shared/papers/notes/friction-and-sdf-collision.md §2-4).
#include <catch2/catch.hpp>

#include <cmath>
#include <numbers>
#include <random>

#include "constraint/friction_cone.hpp"
#include "solver/ncp.hpp"

using sim::Real;
using sim::Vec2;
using sim::Vec3;

namespace {

Vec3 in_plane(Real degrees) {
  const Real a = degrees * std::numbers::pi / 180;
  return Vec3(std::cos(a), std::sin(a), 0);
}

}  // namespace

TEST_CASE("grain alignment d is 1, 0.5, 1/3, 0 at 0, 45, 60, 90 degrees and 1 for antiparallel grains",
          "[unit][friction][anisotropic]") {
  CHECK(sim::grain_alignment(in_plane(10), in_plane(10)) == Approx(1).margin(1e-15));
  CHECK(sim::grain_alignment(in_plane(10), in_plane(55)) == Approx(0.5).margin(1e-12));
  CHECK(sim::grain_alignment(in_plane(10), in_plane(70)) == Approx(1.0 / 3).margin(1e-12));
  CHECK(sim::grain_alignment(in_plane(10), in_plane(100)) == Approx(0).margin(1e-12));
  CHECK(sim::grain_alignment(in_plane(10), in_plane(190)) == Approx(1).margin(1e-15));
  CHECK(sim::grain_alignment(in_plane(10), in_plane(-35)) == Approx(0.5).margin(1e-12));  // 45° the other way
  // The cone for antiparallel grains: the fully aligned ellipse along the shared axis.
  const sim::FrictionCoefficients k{0.5, 0.9, 0.2};
  const sim::FrictionCone cone = sim::matchstick_cone(Vec3::UnitZ(), in_plane(30), in_plane(210), k);
  REQUIRE(cone.elliptic);
  CHECK(cone.alignment == Approx(1).margin(1e-15));
  CHECK(std::abs(cone.tangent.dot(in_plane(30))) == Approx(1).margin(1e-12));
  CHECK(cone.mu_t == Approx(0.9).margin(1e-7));
  CHECK(cone.mu_b == Approx(0.2).margin(1e-7));
}

TEST_CASE("the matchstick cone is finite and orthonormal for any pair of grains, zero and normal ones included",
          "[unit][friction][anisotropic]") {
  std::mt19937 rng(7);
  std::normal_distribution<Real> g(0, 1);
  const sim::FrictionCoefficients k{0.5, 0.8, 0.3};
  auto random_vec = [&] { return Vec3(g(rng), g(rng), g(rng)); };
  for (int i = 0; i < 2000; ++i) {
    const Vec3 n = random_vec().normalized();
    Vec3 candidates[6] = {random_vec(), Vec3::Zero(), n, -2 * n, random_vec(), Vec3::Zero()};
    candidates[4] = candidates[0] * -3 + n * g(rng);  // antiparallel in the plane, off-plane part
    for (const Vec3& sa : candidates)
      for (const Vec3& sb : candidates) {
        const sim::FrictionCone c = sim::matchstick_cone(n, sa, sb, k);
        INFO("s_a " << sa.transpose() << " s_b " << sb.transpose() << " n " << n.transpose());
        REQUIRE(std::isfinite(c.mu_t));
        REQUIRE(std::isfinite(c.mu_b));
        REQUIRE(std::isfinite(c.alignment));
        REQUIRE(c.alignment >= -1e-12);
        REQUIRE(c.alignment <= 1 + 1e-12);
        if (!c.elliptic) {
          CHECK(c.mu_t == k.mu);
          CHECK(c.mu_b == k.mu);
          continue;
        }
        CHECK(c.tangent.allFinite());
        CHECK(c.tangent.norm() == Approx(1).margin(1e-9));
        CHECK(std::abs(c.tangent.dot(n)) < 1e-9);
        CHECK((c.tangent.cross(c.bitangent) - n).norm() < 1e-9);  // right-handed (t, b, n)
        CHECK(c.mu_t >= std::min(k.mu, k.mu_minor) - 1e-12);
        CHECK(c.mu_t <= k.mu_major + 1e-12);
      }
  }
}

TEST_CASE("eq. 34 blends the aligned ellipse with the isotropic coefficient by d", "[unit][friction][anisotropic]") {
  const sim::FrictionCoefficients k{0.5, 0.9, 0.2};
  for (Real angle : {0.0, 20.0, 45.0, 60.0, 90.0}) {
    const sim::FrictionCone c = sim::matchstick_cone(Vec3::UnitZ(), in_plane(0), in_plane(angle), k);
    const Real d = 1 - angle / 90;  // acos|cos a| = a on [0, 90°]
    INFO("angle " << angle);
    CHECK(c.alignment == Approx(d).margin(1e-9));
    CHECK(c.mu_t == Approx(d * 0.9 + (1 - d) * 0.5).margin(1e-9));
    CHECK(c.mu_b == Approx(d * 0.2 + (1 - d) * 0.5).margin(1e-9));
    // t bisects the two grains (eq. 33).
    CHECK(c.tangent.dot(in_plane(angle / 2)) == Approx(1).margin(1e-9));
  }
  // One surface without a grain: the other's alone, fully aligned (the single-surface ellipse).
  const sim::FrictionCone single = sim::matchstick_cone(Vec3::UnitZ(), Vec3::Zero(), in_plane(30), k);
  CHECK(single.alignment == Approx(1).margin(1e-7));
  CHECK(single.tangent.dot(in_plane(30)) == Approx(1).margin(1e-12));
  // Combining: geometric means; equal materials keep their values.
  const sim::FrictionCoefficients same = sim::combine_friction(k, k);
  CHECK(same.mu == Approx(k.mu));
  CHECK(same.mu_major == Approx(k.mu_major));
  CHECK(same.mu_minor == Approx(k.mu_minor));
  const sim::FrictionCoefficients mixed = sim::combine_friction(k, {0.4, 0.4, 0.4});
  CHECK(mixed.mu_major == Approx(std::sqrt(0.9 * 0.4)));
  CHECK(mixed.mu_minor == Approx(std::sqrt(0.2 * 0.4)));
}

TEST_CASE("the Euclidean projection onto the ellipse lands on it with the residual along its normal",
          "[unit][friction][anisotropic]") {
  std::mt19937 rng(3);
  std::uniform_real_distribution<Real> u(-5, 5);
  for (int i = 0; i < 500; ++i) {
    const Real a1 = std::abs(u(rng)) + Real(0.01), a2 = std::abs(u(rng)) * 0.1 + Real(0.001);
    const Vec2 z(u(rng), u(rng));
    const Vec2 x = sim::project_onto_ellipse(z, a1, a2);
    const Real level = x.x() * x.x() / (a1 * a1) + x.y() * x.y() / (a2 * a2);
    const Real inside = z.x() * z.x() / (a1 * a1) + z.y() * z.y() / (a2 * a2);
    INFO("z " << z.transpose() << " axes " << a1 << " " << a2);
    if (inside <= 1) {
      CHECK(x == z);
      continue;
    }
    CHECK(level == Approx(1).margin(1e-9));
    const Vec2 grad(x.x() / (a1 * a1), x.y() / (a2 * a2));  // outward normal at x
    const Vec2 r = z - x;
    CHECK(std::abs(r.x() * grad.y() - r.y() * grad.x()) < 1e-8 * r.norm() * grad.norm());
    CHECK(r.dot(grad) > 0);
    // Closer than any other point of the ellipse (sampled).
    for (int k = 0; k < 64; ++k) {
      const Real th = 2 * std::numbers::pi * k / 64;
      CHECK((z - Vec2(a1 * std::cos(th), a2 * std::sin(th))).norm() >= r.norm() - 1e-9);
    }
  }
  // Equal axes: the radial projection of the disc.
  const Vec2 disc = sim::project_onto_ellipse(Vec2(3, 4), 2, 2);
  CHECK(disc.x() == Approx(1.2));
  CHECK(disc.y() == Approx(1.6));
}

TEST_CASE("the closed-form sliding force satisfies maximal dissipation on the ellipse", "[unit][friction][anisotropic]") {
  const Real mu_t = 0.9, mu_b = 0.3, ln = 7;
  for (Real angle = 0; angle < 360; angle += 17) {
    const Vec2 v = 0.4 * Vec2(std::cos(angle * std::numbers::pi / 180), std::sin(angle * std::numbers::pi / 180));
    const Vec2 f = sim::elliptic_sliding_force(v, mu_t, mu_b, ln);
    INFO("angle " << angle << " force " << f.transpose());
    // On the ellipse, dissipating λ_n |M_μ v|, more than any other force of the ellipse.
    CHECK(f.x() * f.x() / (mu_t * mu_t) + f.y() * f.y() / (mu_b * mu_b) == Approx(ln * ln));
    const Real power = -f.dot(v);
    CHECK(power == Approx(ln * std::hypot(mu_t * v.x(), mu_b * v.y())));
    for (int k = 0; k < 360; ++k) {
      const Real th = 2 * std::numbers::pi * k / 360;
      const Vec2 other(mu_t * ln * std::cos(th), mu_b * ln * std::sin(th));
      CHECK(-other.dot(v) <= power + 1e-12);
    }
    // The natural-map residual vanishes there for any preconditioner r, and not for the radial force.
    for (Real r : {0.01, 1.0, 30.0}) {
      CHECK(sim::elliptic_friction_error(v.x(), v.y(), f.x(), f.y(), mu_t, mu_b, ln, r) < 1e-12);
      const Vec2 radial = -v.normalized() * (1 / std::sqrt(v.normalized().x() * v.normalized().x() / (mu_t * mu_t) +
                                                           v.normalized().y() * v.normalized().y() / (mu_b * mu_b))) * ln;
      const bool on_axis = std::abs(v.x()) < 1e-12 || std::abs(v.y()) < 1e-12;
      if (!on_axis) CHECK(sim::elliptic_friction_error(v.x(), v.y(), radial.x(), radial.y(), mu_t, mu_b, ln, r) > 1e-6);
    }
  }
}

TEST_CASE("the elliptic W is the isotropic W for equal axes and a fixed point of the sliding force",
          "[unit][friction][anisotropic]") {
  for (bool fb : {true, false}) {
    // Equal axes: W = the isotropic W of ncp.hpp on both rows.
    for (Real v : {0.0, 0.1, 2.0})
      for (Real lf : {0.0, 1.0, 2.5}) {
        const Real mu = 0.6, ln = 5, r = 0.3;
        const Real iso = fb ? sim::friction_w_fischer_burmeister(v, mu * ln, lf, r) : sim::friction_w_min_map(v, mu * ln, lf, r);
        const sim::EllipticFrictionW w = sim::elliptic_friction_w(fb, v, 0, lf, 0, mu, mu, ln, r);
        INFO("fb " << fb << " v " << v << " |lf| " << lf);
        CHECK(w.w_t == Approx(iso).margin(1e-12));
        CHECK(w.w_b == Approx(iso).margin(1e-12));
      }
    // Sliding on the ellipse: Dᵀu + W λ_f = 0 at the closed-form force (the fixed point holds it).
    const Real mu_t = 0.8, mu_b = 0.25, ln = 3, r = 0.05;
    for (Real angle : {10.0, 45.0, 80.0, 135.0}) {
      const Vec2 v = Vec2(std::cos(angle * std::numbers::pi / 180), std::sin(angle * std::numbers::pi / 180));
      const Vec2 f = sim::elliptic_sliding_force(v, mu_t, mu_b, ln);
      const sim::EllipticFrictionW w = sim::elliptic_friction_w(fb, v.x(), v.y(), f.x(), f.y(), mu_t, mu_b, ln, r);
      INFO("fb " << fb << " angle " << angle);
      CHECK(v.x() + w.w_t * f.x() == Approx(0).margin(1e-9));
      CHECK(v.y() + w.w_b * f.y() == Approx(0).margin(1e-9));
      CHECK(w.w_t > 0);
      CHECK(w.w_b > w.w_t);  // W = ŵ C: the minor axis has the larger compliance
    }
  }
}
