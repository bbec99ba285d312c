// The descent solvers (solver.kind=dual, solver/dual_ascent_solver.cpp; solver.kind=primal,
// solver/primal_descent_solver.cpp) against closed forms and against the non-smooth Newton solver
// on the Primal/Dual Descent paper's two pendulum experiments (Macklin et al. 2020 Figs. 4-5;
// digest ../shared/papers/notes/primal-dual-descent.md §9.1-9.2): a double pendulum of stiff
// springs hanging from a fixed point, each spring's static stretch m g / k the oracle.
// - Mass ratio (Fig. 5): with the 10⁴ mass at the bottom, 20 dual iterations leave the springs far
//   from their stretch; primal descent and Newton hold them; equal masses, or the heavy mass on
//   top, are fine for the dual too (the control of §9.1).
// - Stiffness ratio (Fig. 4): with the lower spring 10⁴ times stiffer, 20 primal iterations leave
//   the upper spring far from its stretch; the dual and Newton hold it.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdio>
#include <string>

#include "sim/scene_io.hpp"
#include "sim/step.hpp"
#include "support/scene_builders.hpp"

using sim::Real;
using sim::Vec3;

namespace {

constexpr Real kG = 9.81, kStiffness = 1e8, kLength = 1;

struct Chain {
  Real m_top = 1, m_bottom = 1;                    // [kg]
  Real k_top = kStiffness, k_bottom = kStiffness;  // [N/m]
};

// Anchor (fixed) at (0, 0, 3), m_top 1 m below it, m_bottom 1 m below that, each link a spring
// (compliance 1/k) at rest length: the chain starts unstretched and at rest.
std::string pendulum_xml(const Chain& c, const std::string& solver) {
  char buf[1024];
  std::snprintf(buf, sizeof buf,
                "<scene name=\"mass_ratio\" dt=\"%.17g\" gravity=\"0 0 -%.17g\">\n"
                "  %s\n"
                "  <particle name=\"anchor\" pos=\"0 0 3\" mass=\"0\"/>\n"
                "  <particle name=\"top\" pos=\"0 0 %.17g\" mass=\"%.17g\"/>\n"
                "  <particle name=\"bottom\" pos=\"0 0 %.17g\" mass=\"%.17g\"/>\n"
                "  <distance a=\"anchor\" b=\"top\" rest=\"%.17g\" compliance=\"%.17g\"/>\n"
                "  <distance a=\"top\" b=\"bottom\" rest=\"%.17g\" compliance=\"%.17g\"/>\n"
                "</scene>\n",
                1.0 / 60, kG, solver.c_str(), 3 - kLength, c.m_top, 3 - 2 * kLength, c.m_bottom, kLength, 1 / c.k_top,
                kLength, 1 / c.k_bottom);
  return buf;
}

struct StretchRun {
  Real mean_error = 0;  // time-averaged |length − static length| over both springs, last second [m]
  int failed = 0, unconverged = 0;
  sim::SolverKind traced = sim::SolverKind::NonSmoothNewton;
  int last_iterations = 0;
};

// Two seconds; the error against the closed-form static stretch: the top spring carries
// (m_top + m_bottom) g, the bottom one m_bottom g.
StretchRun run_pendulum(const Chain& c, const std::string& solver) {
  auto spec = sim::parse_scene_xml(pendulum_xml(c, solver), "chain.xml");
  INFO((spec.ok() ? std::string() : spec.error()));
  REQUIRE(spec.ok());
  const sim::Model model = test::compile(spec.value());
  sim::State state = sim::make_initial_state(model);
  sim::Control control;
  sim::Workspace ws;
  const Real top_static = kLength + (c.m_top + c.m_bottom) * kG / c.k_top;
  const Real bottom_static = kLength + c.m_bottom * kG / c.k_bottom;
  StretchRun run;
  const int steps = 120;
  int averaged = 0;
  for (int i = 0; i < steps; ++i) {
    const sim::StepReport r = sim::step(model, state, control, ws);
    if (!r.ok()) ++run.failed;
    if (r.warnings & sim::kStepNotConverged) ++run.unconverged;
    if (i >= steps / 2) {
      auto at = [&](int p) { return Vec3(state.q[model.particle_coord(p)], state.q[model.particle_coord(p) + 1],
                                         state.q[model.particle_coord(p) + 2]); };
      const Vec3 a = at(0), t = at(1), b = at(2);
      run.mean_error += std::abs((t - a).norm() - top_static) + std::abs((b - t).norm() - bottom_static);
      ++averaged;
    }
    run.traced = ws.trace.kind;
    run.last_iterations = ws.trace.newton_iterations;
  }
  run.mean_error /= averaged;
  return run;
}

}  // namespace

const std::string kDual20 = "<solver kind=\"dual\" dual_iterations=\"20\"/>";
const std::string kPrimal20 = "<solver kind=\"primal\" primal_iterations=\"20\"/>";
const std::string kNewton = "<solver kind=\"nsn\"/>";

TEST_CASE("dual ascent: a double pendulum of stiff springs settles at m g / k with equal masses, "
          "not with a 10^4 mass ratio (Fig. 5), which primal descent and Newton hold",
          "[scene][solver][dual][primal]") {
  const Chain heavy_at_bottom{1, 1e4};
  const StretchRun equal = run_pendulum(Chain{}, kDual20);
  const StretchRun heavy_bottom = run_pendulum(heavy_at_bottom, kDual20);
  const StretchRun heavy_top = run_pendulum(Chain{1e4, 1}, kDual20);
  const StretchRun newton = run_pendulum(heavy_at_bottom, kNewton);
  const StretchRun primal = run_pendulum(heavy_at_bottom, kPrimal20);
  INFO("mean |length - static length|: dual equal " << equal.mean_error << " m, dual 10^4 at the bottom "
                                                    << heavy_bottom.mean_error << " m, dual 10^4 on top "
                                                    << heavy_top.mean_error << " m, Newton 10^4 at the bottom "
                                                    << newton.mean_error << " m, primal 10^4 at the bottom "
                                                    << primal.mean_error << " m");
  CHECK(equal.traced == sim::SolverKind::DualAscent);
  CHECK(equal.failed == 0);
  CHECK(heavy_top.failed == 0);
  CHECK(newton.failed == 0);
  // The static stretches are 1e-7 to 1e-3 m; each run within 1e-5 m of them (the solves' tolerance
  // is 1e-6 m a row; what is left is the implicit Euler's decaying oscillation from the rest length).
  CHECK(equal.mean_error < 1e-5);
  CHECK(heavy_top.mean_error < 1e-5);
  CHECK(newton.mean_error < 1e-5);
  // The heavy bottom mass: the same 20 iterations leave the springs far from their stretch, and
  // the solver says so.
  CHECK(heavy_bottom.mean_error > 100 * newton.mean_error);
  CHECK(heavy_bottom.mean_error > 1e-4);
  CHECK(heavy_bottom.unconverged > 0);
  // Primal descent at the same 20 iterations is not troubled by the mass ratio.
  CHECK(primal.traced == sim::SolverKind::PrimalDescent);
  CHECK(primal.failed == 0);
  CHECK(heavy_bottom.mean_error > 100 * primal.mean_error);
}

TEST_CASE("primal descent: a 10^4 stiffness ratio (Fig. 4) leaves the soft upper spring stretched, "
          "which the dual and Newton hold",
          "[scene][solver][dual][primal]") {
  const Chain stiff_below{1, 1, 1e5, 1e9};  // the lower spring 10^4 times stiffer (digest §9.2)
  const StretchRun primal = run_pendulum(stiff_below, kPrimal20);
  const StretchRun dual = run_pendulum(stiff_below, kDual20);
  const StretchRun newton = run_pendulum(stiff_below, kNewton);
  const StretchRun primal_uniform = run_pendulum(Chain{}, kPrimal20);
  INFO("mean |length - static length|: primal " << primal.mean_error << " m, dual " << dual.mean_error
                                                << " m, Newton " << newton.mean_error << " m, primal with equal k "
                                                << primal_uniform.mean_error << " m");
  CHECK(primal.failed == 0);
  CHECK(dual.failed == 0);
  CHECK(newton.failed == 0);
  CHECK(newton.mean_error < 1e-5);
  CHECK(dual.mean_error < 1e-5);
  CHECK(primal.mean_error > 100 * dual.mean_error);
  CHECK(primal.mean_error > 1e-4);
  CHECK(primal.unconverged > 0);
  // The same iterations with equal stiffness: the stiffness ratio is what hurts, not the stiffness.
  CHECK(primal.mean_error > 100 * primal_uniform.mean_error);
}

TEST_CASE("dual ascent: the iterations stop within the tolerances, fill the trace and report the cap",
          "[scene][solver][dual]") {
  // Equal masses: converged within the cap; each solve traced as its iterations plus the result.
  auto spec = sim::parse_scene_xml(pendulum_xml(Chain{}, "<solver kind=\"dual\" dual_iterations=\"200\"/>"), "p.xml");
  REQUIRE(spec.ok());
  CHECK(spec.value().solver.dual_iterations == 200);
  const sim::Model model = test::compile(spec.value());
  sim::State state = sim::make_initial_state(model);
  sim::Control control;
  sim::Workspace ws;
  const sim::StepReport first = sim::step(model, state, control, ws);
  REQUIRE(first.ok());
  CHECK(ws.trace.kind == sim::SolverKind::DualAscent);
  CHECK(ws.trace.newton_iterations > 0);
  CHECK(ws.trace.newton_iterations < 200);
  CHECK(static_cast<int>(ws.trace.iterations.size()) == ws.trace.newton_iterations + 1);
  CHECK((first.warnings & sim::kStepNotConverged) == 0);
  CHECK(ws.trace.iterations.back().bilateral_max <= model.solver.newton_tolerance);
  // The merit falls from the first iterate to the result.
  CHECK(ws.trace.iterations.back().merit < ws.trace.iterations.front().merit);

  // One iteration against 10^4 : 1: the cap is reached and reported, never silent.
  auto capped = sim::parse_scene_xml(pendulum_xml(Chain{1, 1e4}, "<solver kind=\"dual\" dual_iterations=\"1\"/>"), "p.xml");
  REQUIRE(capped.ok());
  const sim::Model capped_model = test::compile(capped.value());
  sim::State s2 = sim::make_initial_state(capped_model);
  sim::Workspace ws2;
  const sim::StepReport r = sim::step(capped_model, s2, control, ws2);
  REQUIRE(r.ok());
  CHECK((r.warnings & sim::kStepNotConverged) != 0);
  CHECK(r.unconverged_solves == 1);
  CHECK(ws2.trace.newton_iterations == 1);
}
