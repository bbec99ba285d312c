// The inexact Newton forcing terms (solver/inexact_newton_forcing.hpp): η = clamp(σ/ρ, η_min,
// η_max) with σ = 0.1, exact after a shortened step; and ρ, the residual-over-tolerance ratio the
// Newton loop stops on (solver/newton_residuals.hpp).
#include <catch2/catch.hpp>

#include <limits>

#include "solver/inexact_newton_forcing.hpp"
#include "solver/newton_residuals.hpp"

using sim::InexactNewtonForcing;
using sim::Real;

TEST_CASE("inexact Newton forcing: eta = 0.1 / rho within its bounds, exact after a shortened step",
          "[unit][solver][linear]") {
  InexactNewtonForcing f(Real(0.1), Real(1e-4));
  REQUIRE(f.enabled());
  CHECK(f.tolerance(1e6) == Real(1e-4));                      // far: to η_min
  CHECK(f.tolerance(100) == Approx(1e-3).epsilon(1e-14));     // 0.1 / 100
  CHECK(f.tolerance(4) == Approx(0.025).epsilon(1e-14));      // 0.1 / 4
  CHECK(f.tolerance(Real(0.5)) == Real(0.1));                 // within tolerance already: η_max
  CHECK(f.tolerance(std::numeric_limits<Real>::infinity()) == Real(1e-4));
  CHECK(f.tolerance(std::numeric_limits<Real>::quiet_NaN()) == Real(1e-4));  // non-finite: never loose
  f.step_taken(true);                                         // full steps keep the rule
  CHECK(f.tolerance(4) == Approx(0.025).epsilon(1e-14));
  f.step_taken(false);                                        // a shortened step: exact from now on
  CHECK(f.tolerance(4) == Real(1e-4));
  f.step_taken(true);
  CHECK(f.tolerance(Real(1.5)) == Real(1e-4));
  // With forcing on and no fixed tolerance, a solve still stops at round-off.
  InexactNewtonForcing g(Real(0.1), 0);
  CHECK(g.tolerance(1e13) == InexactNewtonForcing::kRoundOff);  // 0.1 / 1e13 is below it
  CHECK(g.tolerance(2) == Approx(0.05).epsilon(1e-14));
}

TEST_CASE("inexact Newton forcing off (eta_max 0): every solve runs to the fixed tolerance", "[unit][solver][linear]") {
  for (Real eta_min : {Real(0), Real(1e-4)}) {
    InexactNewtonForcing f(0, eta_min);
    CHECK_FALSE(f.enabled());
    CHECK(f.tolerance(2) == eta_min);
    CHECK(f.tolerance(1e9) == eta_min);
  }
  // A fixed tolerance above η_max wins: η_max is raised to it.
  InexactNewtonForcing f(Real(0.1), Real(0.2));
  CHECK(f.tolerance(2) == Real(0.2));
  CHECK(f.tolerance(1e-3) == Real(0.2));
}

TEST_CASE("the Newton tolerance ratio is at most 1 exactly when the iterate passes the stopping test",
          "[unit][solver][newton]") {
  const Real tol = 1e-6, vtol = 1e-5;
  sim::NewtonIterationTrace t;
  CHECK(sim::newton_tolerance_ratio(t, tol, vtol) == 0);
  t.position_error_max = 3e-6;   // 3x
  t.complementarity_max = 5e-7;  // 0.5x
  t.velocity_error_max = 2e-5;   // 2x
  t.momentum_max = 7e-5;         // 7x: the largest
  CHECK(sim::newton_tolerance_ratio(t, tol, vtol) == Approx(7).epsilon(1e-12));
  CHECK_FALSE(sim::newton_converged(t, tol, vtol));
  for (Real scale : {Real(0.1), Real(1) / 7, Real(0.15), Real(1)}) {
    sim::NewtonIterationTrace s = t;
    s.position_error_max *= scale;
    s.complementarity_max *= scale;
    s.velocity_error_max *= scale;
    s.momentum_max *= scale;
    INFO("scale " << scale);
    CHECK((sim::newton_tolerance_ratio(s, tol, vtol) <= 1) == sim::newton_converged(s, tol, vtol));
  }
  t.complementarity_max = std::numeric_limits<Real>::quiet_NaN();
  CHECK(sim::newton_tolerance_ratio(t, tol, vtol) == std::numeric_limits<Real>::infinity());
  CHECK(sim::newton_tolerance_ratio(sim::NewtonIterationTrace{.position_error_max = 1e-9}, 0, vtol) ==
        std::numeric_limits<Real>::infinity());
}
