// The error-against-work sweep (sim/solver_sweep.hpp, `coulomb bench --sweep`): one point per
// solver kind and budget in that order, every solve spending its budget, and errors that behave as
// the methods do: Newton's error on the heavy stack falls by orders of magnitude as its budget
// grows and reaches round-off, primal descent's falls too, and more iterations cost more CPU time.
#include <catch2/catch.hpp>

#include "sim/solver_sweep.hpp"
#include "support/shipped_run.hpp"

TEST_CASE("the solver sweep measures every kind at every budget, and Newton's error falls with its budget",
          "[solver][sweep]") {
  const sim::Model m = test::load_shipped_model("heavy_stack");
  const std::vector<sim::SolverKind> kinds(std::begin(sim::kSolverKinds), std::end(sim::kSolverKinds));
  const std::vector<int> budgets = {1, 4, 16, 32};
  const std::vector<sim::SolverSweepPoint> points = sim::sweep_solvers(m, m.solver, 30, kinds, budgets);
  REQUIRE(points.size() == kinds.size() * budgets.size());
  for (std::size_t k = 0; k < kinds.size(); ++k)
    for (std::size_t b = 0; b < budgets.size(); ++b) {
      const sim::SolverSweepPoint& p = points[k * budgets.size() + b];
      INFO(sim::to_string(p.kind) << " at " << p.budget);
      REQUIRE(p.kind == kinds[k]);
      REQUIRE(p.budget == budgets[b]);
      CHECK(p.diverged_steps == 0);
      CHECK(p.cpu_ms_per_step > 0);
      CHECK(std::isfinite(p.constraint_error));
    }
  auto at = [&](sim::SolverKind kind, int budget) {
    for (const sim::SolverSweepPoint& p : points)
      if (p.kind == kind && p.budget == budget) return p;
    FAIL("no point");
    return sim::SolverSweepPoint{};
  };
  const auto newton_1 = at(sim::SolverKind::NonSmoothNewton, 1), newton_16 = at(sim::SolverKind::NonSmoothNewton, 16);
  INFO("Newton: " << newton_1.constraint_error << " m at 1 iteration, " << newton_16.constraint_error << " m at 16");
  CHECK(newton_16.constraint_error < 1e-9);  // converged: round-off
  CHECK(newton_16.constraint_error < 1e-4 * newton_1.constraint_error);
  CHECK(newton_16.momentum_error < 1e-9);
  // Tolerances 0: 16 Newton iterations are many times the work of one.
  CHECK(newton_16.cpu_ms_per_step > 3 * newton_1.cpu_ms_per_step);
  const auto primal_1 = at(sim::SolverKind::PrimalDescent, 1), primal_32 = at(sim::SolverKind::PrimalDescent, 32);
  INFO("primal: " << primal_1.constraint_error << " m at 1 iteration, " << primal_32.constraint_error << " m at 32");
  CHECK(primal_32.constraint_error < primal_1.constraint_error / 4);
}
