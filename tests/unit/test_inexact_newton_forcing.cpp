// The Eisenstat–Walker forcing terms (solver/inexact_newton_forcing.hpp) against the formula of
// Eisenstat & Walker (1996), choice 2 with γ = 0.9, α = 2, worked by hand.
#include <catch2/catch.hpp>

#include <limits>

#include "solver/inexact_newton_forcing.hpp"

using sim::InexactNewtonForcing;
using sim::Real;

TEST_CASE("Eisenstat-Walker forcing: eta = 0.9 (F_k/F_k-1)^2 with the safeguard and the bounds", "[unit][solver][linear]") {
  InexactNewtonForcing f(Real(0.5), Real(1e-3));
  REQUIRE(f.enabled());
  CHECK(f.tolerance() == Real(0.5));  // η_0 = η_max
  // Merit 1 → 0.5: ‖F‖ ratio² = 0.5, η = 0.45; the safeguard 0.9·0.5² = 0.225 is below it.
  f.update(1, 0.5, false);
  CHECK(f.tolerance() == Approx(0.45).epsilon(1e-14));
  // Merit ratio 0.01: η = 0.009, but the safeguard 0.9·0.45² = 0.18225 > 0.1 holds it up.
  f.update(1, 0.01, false);
  CHECK(f.tolerance() == Approx(0.18225).epsilon(1e-14));
  // Again 0.01: the safeguard 0.9·0.18225² = 0.0299 is below 0.1 and does not apply.
  f.update(2, 0.02, false);
  CHECK(f.tolerance() == Approx(0.009).epsilon(1e-14));
  // A fast drop is bounded below by η_min.
  f.update(1, 1e-9, false);
  CHECK(f.tolerance() == Real(1e-3));
  // A merit that grew (line search off) is bounded above by η_max.
  f.update(1, 3, false);
  CHECK(f.tolerance() == Real(0.5));
  // A direction no step length accepted: the next solve runs to η_min.
  f.update(1, 0.9, true);
  CHECK(f.tolerance() == Real(1e-3));
  // Non-finite or zero merits are treated as a rejection, never as a loose tolerance.
  f.update(1, 0.5, false);
  f.update(1, std::numeric_limits<Real>::quiet_NaN(), false);
  CHECK(f.tolerance() == Real(1e-3));
  f.update(1, 0.5, false);
  f.update(0, 0, false);
  CHECK(f.tolerance() == Real(1e-3));
}

TEST_CASE("Eisenstat-Walker forcing off (eta_max 0): every solve runs to the fixed tolerance", "[unit][solver][linear]") {
  for (Real eta_min : {Real(0), Real(1e-4)}) {
    InexactNewtonForcing f(0, eta_min);
    CHECK_FALSE(f.enabled());
    CHECK(f.tolerance() == eta_min);
    f.update(1, 0.999, false);
    CHECK(f.tolerance() == eta_min);
    f.update(1, 1e-6, true);
    CHECK(f.tolerance() == eta_min);
  }
  // A fixed tolerance above η_max wins: η_max is raised to it.
  InexactNewtonForcing f(Real(0.1), Real(0.2));
  CHECK(f.tolerance() == Real(0.2));
  f.update(1, 1e-3, false);
  CHECK(f.tolerance() == Real(0.2));
}
