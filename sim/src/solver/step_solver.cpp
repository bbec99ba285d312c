#include "solver/step_solver.hpp"

namespace sim::detail {

// No default: a SolverKind without its line here is a compiler warning (-Wswitch, in -Wall).
std::unique_ptr<StepSolver> make_step_solver(SolverKind kind) {
  switch (kind) {
    case SolverKind::NonSmoothNewton: return make_newton_step_solver();
    case SolverKind::ProjectedGaussSeidel: return make_pgs_step_solver();
    case SolverKind::DualAscent: return make_dual_ascent_step_solver();
    case SolverKind::PrimalDescent: return make_primal_descent_step_solver();
  }
  return make_newton_step_solver();  // unreachable for a valid enum value
}

}  // namespace sim::detail
