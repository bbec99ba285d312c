// The dual ascent solver (solver.kind=dual, solver/dual_ascent_solver.cpp) against closed forms and
// against the non-smooth Newton solver on the Primal/Dual Descent paper's mass-ratio experiment
// (Macklin et al. 2020 Fig. 5; digest ../shared/papers/notes/primal-dual-descent.md §9.1): a double
// pendulum of stiff springs hanging from a fixed point. With equal masses the dual converges to
// the static stretch m g / k of each spring; with the heavy mass at the bottom (10⁴ : 1) the same
// iteration count leaves the springs stretched far beyond it, while Newton holds them. With the
// heavy mass on top the dual is fine again (the control of §9.1).
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

// Anchor (fixed) at the origin, m_top 1 m below it, m_bottom 1 m below that, each link a spring
// of stiffness kStiffness (compliance 1/k) at rest length: the chain starts unstretched and at rest.
std::string pendulum_xml(Real m_top, Real m_bottom, const std::string& solver) {
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
                1.0 / 60, kG, solver.c_str(), 3 - kLength, m_top, 3 - 2 * kLength, m_bottom, kLength, 1 / kStiffness,
                kLength, 1 / kStiffness);
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
StretchRun run_pendulum(Real m_top, Real m_bottom, const std::string& solver) {
  auto spec = sim::parse_scene_xml(pendulum_xml(m_top, m_bottom, solver), "mass_ratio.xml");
  INFO((spec.ok() ? std::string() : spec.error()));
  REQUIRE(spec.ok());
  const sim::Model model = test::compile(spec.value());
  sim::State state = sim::make_initial_state(model);
  sim::Control control;
  sim::Workspace ws;
  const Real top_static = kLength + (m_top + m_bottom) * kG / kStiffness;
  const Real bottom_static = kLength + m_bottom * kG / kStiffness;
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

TEST_CASE("dual ascent: a double pendulum of stiff springs settles at m g / k with equal masses, "
          "not with a 10^4 mass ratio (Fig. 5), which Newton holds",
          "[scene][solver][dual]") {
  const std::string dual = "<solver kind=\"dual\" dual_iterations=\"20\"/>";
  const StretchRun equal = run_pendulum(1, 1, dual);
  const StretchRun heavy_bottom = run_pendulum(1, 1e4, dual);
  const StretchRun heavy_top = run_pendulum(1e4, 1, dual);
  const StretchRun newton = run_pendulum(1, 1e4, "<solver kind=\"nsn\"/>");
  INFO("mean |length - static length|: dual equal " << equal.mean_error << " m, dual 10^4 at the bottom "
                                                    << heavy_bottom.mean_error << " m, dual 10^4 on top "
                                                    << heavy_top.mean_error << " m, Newton 10^4 at the bottom "
                                                    << newton.mean_error << " m");
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
}

TEST_CASE("dual ascent: the iterations stop within the tolerances, fill the trace and report the cap",
          "[scene][solver][dual]") {
  // Equal masses: converged within the cap; each solve traced as its iterations plus the result.
  auto spec = sim::parse_scene_xml(pendulum_xml(1, 1, "<solver kind=\"dual\" dual_iterations=\"200\"/>"), "p.xml");
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
  auto capped = sim::parse_scene_xml(pendulum_xml(1, 1e4, "<solver kind=\"dual\" dual_iterations=\"1\"/>"), "p.xml");
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
