// NCP functions and the friction compliance W (Appendix A) against finite differences and the
// closed-form cases of notes/nsn-solver.md.
#include <catch2/catch.hpp>

#include <cmath>
#include <random>

#include "solver/ncp.hpp"

using sim::Real;

TEST_CASE("Fischer-Burmeister value and derivatives match finite differences", "[unit][solver][ncp]") {
  std::mt19937 rng(7);
  std::uniform_real_distribution<Real> d(-2, 2), rd(0.01, 3);
  const Real eps = 1e-6;
  for (int i = 0; i < 200; ++i) {
    const Real c = d(rng), l = d(rng), r = rd(rng);
    if (std::hypot(c, r * l) < 1e-2) continue;  // away from the kink
    const sim::NcpValue v = sim::fischer_burmeister(c, l, r);
    CHECK(v.phi == Approx(c + r * l - std::sqrt(c * c + r * r * l * l)).margin(1e-14));
    const Real dc = (sim::fischer_burmeister(c + eps, l, r).phi - sim::fischer_burmeister(c - eps, l, r).phi) / (2 * eps);
    const Real dl = (sim::fischer_burmeister(c, l + eps, r).phi - sim::fischer_burmeister(c, l - eps, r).phi) / (2 * eps);
    CHECK(v.dphi_dc == Approx(dc).margin(1e-6));
    CHECK(v.dphi_dlambda == Approx(dl).margin(1e-6));
  }
  // Roots are exactly the complementary pairs.
  CHECK(sim::fischer_burmeister(0, 3, 1).phi == Approx(0).margin(1e-15));
  CHECK(sim::fischer_burmeister(2, 0, 1).phi == Approx(0).margin(1e-15));
  CHECK(sim::fischer_burmeister(-1, 0, 1).phi < 0);
  CHECK(sim::fischer_burmeister(1, 1, 1).phi > 0);
  // At the kink: α = 0, β = 1 (eqs. 26-27), so S = r.
  const sim::NcpValue kink = sim::fischer_burmeister(0, 0, 0.5);
  CHECK(kink.dphi_dc == 0);
  CHECK(kink.dphi_dlambda == Approx(0.5));
}

TEST_CASE("min-map value and derivatives match finite differences", "[unit][solver][ncp]") {
  std::mt19937 rng(11);
  std::uniform_real_distribution<Real> d(-2, 2), rd(0.01, 3);
  const Real eps = 1e-7;
  for (int i = 0; i < 200; ++i) {
    const Real c = d(rng), l = d(rng), r = rd(rng);
    if (std::abs(c - r * l) < 1e-3) continue;
    const sim::NcpValue v = sim::min_map(c, l, r);
    CHECK(v.phi == Approx(std::min(c, r * l)));
    const Real dc = (sim::min_map(c + eps, l, r).phi - sim::min_map(c - eps, l, r).phi) / (2 * eps);
    const Real dl = (sim::min_map(c, l + eps, r).phi - sim::min_map(c, l - eps, r).phi) / (2 * eps);
    CHECK(v.dphi_dc == Approx(dc).margin(1e-6));
    CHECK(v.dphi_dlambda == Approx(dl).margin(1e-6));
  }
}

// Fig. 9: the constraint c(λ) = λ/4 − 1/8 >= 0 ⊥ λ >= 0 (solution λ = 1/2). With r equal to the
// constraint's slope (the effective-mass choice, eq. 66) Newton on the min-map converges in one
// step from any start; with a badly scaled r it does not.
static int newton_steps_min_map(Real lambda, Real r, Real& solution) {
  for (int k = 1; k <= 50; ++k) {
    const Real c = lambda / 4 - Real(0.125);
    const sim::NcpValue v = sim::min_map(c, lambda, r);
    const Real slope = v.dphi_dc * Real(0.25) + v.dphi_dlambda;
    lambda -= v.phi / slope;
    const Real c1 = lambda / 4 - Real(0.125);
    if (std::abs(sim::min_map(c1, lambda, r).phi) < 1e-14) {
      solution = lambda;
      return k;
    }
  }
  solution = lambda;
  return 99;
}

TEST_CASE("effective-mass r solves c = lambda/4 - 1/8 in one min-map Newton step from any start (Fig. 9)",
          "[unit][solver][ncp]") {
  for (Real start : {-10.0, -1.0, 0.0, 0.3, 0.5, 2.0, 7.5, 100.0}) {
    Real solution = 0;
    CHECK(newton_steps_min_map(start, Real(0.25), solution) == 1);
    CHECK(solution == Approx(0.5));
  }
  // A small r (as h² scaling gives for a light body) takes more steps from large starts.
  Real solution = 0;
  CHECK(newton_steps_min_map(5.0, Real(0.01), solution) > 1);
  CHECK(solution == Approx(0.5));
}

TEST_CASE("friction W (Fischer-Burmeister, corrected) has the stick and slip limits", "[unit][solver][ncp][friction]") {
  const Real r = 0.3, mu_ln = 5;
  // Stick: no slip, force inside the cone -> W = 0 so the row enforces Dᵀu = 0.
  CHECK(sim::friction_w_fischer_burmeister(0, mu_ln, 2, r) == 0);
  // The start of a solve: u = 0 and λ_f = 0 (the 0/0 case) -> 0.
  CHECK(sim::friction_w_fischer_burmeister(0, mu_ln, 0, r) == 0);
  // Slip on the cone: W = v/(μλ_n), so λ_f = −μλ_n Dᵀu/|Dᵀu| (opposes the slip).
  CHECK(sim::friction_w_fischer_burmeister(0.7, mu_ln, mu_ln, r) == Approx(0.7 / mu_ln));
  // Against the fixed point (99)-(103) with |Dᵀu| (not squared): W = |Dᵀu|⁺/|λ_f|⁺.
  std::mt19937 rng(3);
  std::uniform_real_distribution<Real> uv(0, 2), ul(0, 8), ur(0.01, 1);
  for (int i = 0; i < 200; ++i) {
    const Real v = uv(rng), lf = ul(rng), rr = ur(rng);
    const Real a = mu_ln - lf, s = std::sqrt(v * v + rr * rr * a * a);
    const Real v_next = s - rr * a;                    // eq. 100
    const Real lf_next = (v + rr * mu_ln - s) / rr;    // eq. 102 with |Dᵀu|
    const Real w = sim::friction_w_fischer_burmeister(v, mu_ln, lf, rr);
    CHECK(w >= 0);
    if (lf_next > 1e-3 && v_next > 1e-9) CHECK(w == Approx(v_next / lf_next).epsilon(1e-9));
  }
}

TEST_CASE("friction W (min-map) follows eq. 105", "[unit][solver][ncp][friction]") {
  CHECK(sim::friction_w_min_map(0.1, 5, 1, 0.5) == 0);              // v <= r(μλn − |λf|): stick
  CHECK(sim::friction_w_min_map(3.0, 5, 5, 0.5) == Approx(3.0 / 5)); // on the cone
  CHECK(sim::friction_w_min_map(3.0, 5, 1, 0.5) == Approx((3.0 - 0.5 * 4) / 5));
}

TEST_CASE("friction error vanishes exactly at maximal dissipation", "[unit][solver][ncp][friction]") {
  const Real r = 0.2, mu_ln = 3;
  CHECK(sim::friction_error(0, 0, 1, -1, mu_ln, r) == Approx(0).margin(1e-15));        // stick inside the cone
  CHECK(sim::friction_error(0.6, 0.8, -1.8, -2.4, mu_ln, r) == Approx(0).margin(1e-12)); // slip, on the cone, opposed
  CHECK(sim::friction_error(0.6, 0.8, 1.8, 2.4, mu_ln, r) > 0.5);                      // pushing along the slip
  CHECK(sim::friction_error(0.6, 0.8, -0.9, -1.2, mu_ln, r) > 0.1);                    // slipping inside the cone
  CHECK(sim::friction_error(0, 0, 4, 0, mu_ln, r) == Approx(r * 1).epsilon(1e-12));     // outside the cone by 1 N
  CHECK(sim::friction_error(1, 0, 2, 0, 0, r) == Approx(r * 2).epsilon(1e-12));         // inactive: λ_f must vanish
}
