#include "solver/solve_outcome.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "solver/joint_error_check.hpp"
#include "solver/newton_residuals.hpp"

namespace sim::detail {

IterateVerdict judge_iterate(const SolverOptions& o, const RowSet& rows, bool finite, const IterationTrace& it,
                             int iteration, int cap, const char* solver_name, const std::atomic<bool>* cancel,
                             bool& converged, StepReport& report) {
  if (!finite || std::max({it.normal_max, it.friction_max, it.bilateral_max}) > o.divergence_limit) {
    report.flags |= finite ? kStepResidualExploded : kStepNonFinite;
    report.message = finite ? std::string(solver_name) + " residual exploded above divergence_limit"
                            : std::string("non-finite values in the ") + solver_name + " iteration";
    for (int i = 0; i < rows.count && report.offending_rows.size() < 16; ++i) {
      const Real e = rows.row_error[i];
      if (!std::isfinite(e) || e > o.divergence_limit || !std::isfinite(rows.row_lambda[i]))
        report.offending_rows.push_back(i);
    }
    return IterateVerdict::Failed;
  }
  if (cancel && cancel->load(std::memory_order_relaxed)) {  // Workspace::cancel, between iterations
    report.flags |= kStepCancelled;
    report.message = std::string("cancelled after ") + solver_name + " iteration " + std::to_string(iteration);
    return IterateVerdict::Failed;
  }
  converged = o.newton_tolerance > 0 && newton_converged(it, o.newton_tolerance, o.newton_velocity_tolerance);
  return converged || iteration >= cap ? IterateVerdict::Done : IterateVerdict::Continue;
}

void count_solve(const SolverOptions& o, int iterations, bool converged, SolverTrace& trace, StepReport& report) {
  report.newton_iterations += iterations;
  trace.newton_iterations += iterations;
  if (!converged && report.flags == kStepOk && o.newton_tolerance > 0) {
    report.warnings |= kStepNotConverged;
    ++report.unconverged_solves;
  }
}

bool accept_result(const Model& m, const SolverOptions& o, const RowSet& rows, const IterationTrace& it,
                   SolverTrace& trace, StepReport& report) {
  trace.final_normal_max = std::max(trace.final_normal_max, it.normal_max);
  trace.final_friction_max = std::max(trace.final_friction_max, it.friction_max);
  trace.final_bilateral_max = std::max(trace.final_bilateral_max, it.bilateral_max);
  trace.final_complementarity_max = std::max(trace.final_complementarity_max, it.complementarity_max);
  trace.final_momentum_max = std::max(trace.final_momentum_max, it.momentum_max);
  const JointViolation v = check_joint_error(m, o, rows, trace, report);
  if (v.row < 0) return true;
  report.flags |= kStepJointViolated;
  report.message = describe_joint_violation(m, o, rows, v);
  return false;
}

}  // namespace sim::detail
