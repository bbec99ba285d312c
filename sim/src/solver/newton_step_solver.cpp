// The non-smooth Newton solver (solver/newton_solver.hpp) behind the solver seam: the first
// StepSolver, a thin wrapper that owns the Newton scratch.
#include <algorithm>

#include "solver/newton_solver.hpp"
#include "solver/step_solver.hpp"

namespace sim::detail {

namespace {

class NewtonStepSolver final : public StepSolver {
 public:
  SolverKind kind() const override { return SolverKind::NonSmoothNewton; }

  void solve(const Model& model, const SolverOptions& options, Real h, State& state, const Control& control,
             const ContactBuffer& contacts, SolverTrace& trace, StepReport& report) override {
    scratch_.capture = capture;
    scratch_.cancel = cancel;
    scratch_.device_solver = device_solver;
    newton_solve_step(model, options, h, state, control, contacts, scratch_, trace, report);
  }

  const RowSet& rows() const override { return scratch_.rows; }

  // Each Newton iteration's linear solve at its largest budget (the inexact-Newton budget grows
  // up to linear_iterations_max with the line search), redone once by the Gauss–Seidel fallback.
  TraceCapacity trace_capacity(const SolverOptions& o) const override {
    const int budget = o.line_search ? std::max(o.linear_iterations, o.linear_iterations_max) : o.linear_iterations;
    return {o.newton_iterations + 1, 2 * (o.newton_iterations + 1) * budget};
  }

 private:
  SolverScratch scratch_;
};

}  // namespace

std::unique_ptr<StepSolver> make_newton_step_solver() { return std::make_unique<NewtonStepSolver>(); }

}  // namespace sim::detail
