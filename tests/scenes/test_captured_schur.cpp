// The captured Newton system rebuilt in the solver's own form (tests/support/captured_schur.hpp),
// which the device PCR's parity test (tests/gpu/test_cuda_pcr.cpp) uploads: its operator equals
// the assembled A = J H⁻¹ Jᵀ + C + εI, and the production PCR (solve_linear) run on it for the
// captured solve's iterations returns the captured x and residual history, on scenes with
// contacts, joints and particles.
#include <catch2/catch.hpp>

#include <cmath>

#include "solver/linear_solvers.hpp"
#include "support/captured_schur.hpp"
#include "support/captured_system.hpp"

using sim::Real;

TEST_CASE("a captured Newton system rebuilt as row blocks is the solver's system", "[scene][solver][linear][capture]") {
  struct Scene {
    const char* name;
    int steps;
  };
  int compared = 0;
  for (const Scene& sc : {Scene{"heavy_stack", 30}, Scene{"table_pile", 20}, Scene{"cloth", 40}, Scene{"rope", 10}}) {
    INFO(sc.name);
    const sim::Model m = test::load_shipped_model(sc.name);
    const sim::SolveCapture c = test::capture_shipped_system(sc.name, sc.steps, 0, sim::LinearSolver::PCR, 15);
    REQUIRE(c.filled);
    const sim::CapturedSystem& sys = c.system;
    REQUIRE(sys.iteration == 0);
    const sim::IterationTrace& it = c.iterates.at(0).trace;
    REQUIRE(it.linear_iterations > 0);
    test::CapturedSchur schur;
    test::build_captured_schur(m, sys, schur);
    const sim::SchurSystem& A = *schur.system;
    REQUIRE(A.size() == sys.rows);
    // The operator against the assembled matrix, on a vector of every sign and scale.
    const test::SpMat assembled = test::assembled_schur(sys);
    test::VecX v(sys.rows);
    for (int i = 0; i < sys.rows; ++i) v[i] = std::sin(0.7 * i + 0.1) * (1 + i % 5);
    sim::VecX av(sys.rows), s1(m.dof_count()), s2(m.dof_count());
    A.apply(v, av, s1, s2);
    const test::VecX expected = assembled * v;
    CHECK((av - expected).lpNorm<Eigen::Infinity>() <= 1e-12 * expected.lpNorm<Eigen::Infinity>());
    sim::VecX diag(sys.rows);
    A.diagonal(diag);
    CHECK((diag - test::VecX(assembled.diagonal())).lpNorm<Eigen::Infinity>() <= 1e-12 * diag.lpNorm<Eigen::Infinity>());
    // The production PCR on it: the captured solve's x and residuals.
    const sim::VecX b = Eigen::Map<const sim::VecX>(sys.b.data(), sys.rows);
    sim::VecX x;
    sim::LinearScratch scratch;
    std::vector<Real> history;
    const sim::LinearSolveStats st =
        sim::solve_linear(sim::LinearSolver::PCR, A, b, x, it.linear_iterations, 0, 1, scratch, &history);
    CHECK(st.breakdown == sim::LinearBreakdown::None);
    REQUIRE(st.iterations == it.linear_iterations);
    const sim::VecX captured = Eigen::Map<const sim::VecX>(sys.x.data(), sys.rows);
    const Real rel = (x.head(sys.rows) - captured).lpNorm<Eigen::Infinity>() / captured.lpNorm<Eigen::Infinity>();
    INFO("rows " << sys.rows << ", iterations " << st.iterations << ", max |x - x_captured| / max |x_captured| " << rel);
    CHECK(captured.lpNorm<Eigen::Infinity>() > 0);
    CHECK(rel < 1e-12);
    const Real* fused = c.linear_residuals.data() + it.linear_residual_offset;
    for (int k = 0; k < st.iterations; ++k) CHECK(std::abs(history[static_cast<std::size_t>(k)] - fused[k]) <= 1e-12 * fused[0]);
    ++compared;
  }
  CHECK(compared == 4);
}
