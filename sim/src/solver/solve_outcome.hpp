// The end of a solve that every solver behind the seam (solver/step_solver.hpp) shares: counting
// its iterations, reporting a solve that ended above the tolerances (never silently), raising the
// trace's final residuals and refusing a result whose joints came apart.
#pragma once

#include <atomic>

#include "constraint/rows.hpp"
#include "sim/model.hpp"
#include "sim/solver_options.hpp"
#include "sim/step.hpp"
#include "sim/trace.hpp"

namespace sim::detail {

// What a fixed-point solver (dual ascent, primal descent) does after measuring an iterate.
enum class IterateVerdict { Continue, Done, Failed };

// Judges the measured iterate of iteration `iteration` (0-based) of `solver_name`: non-finite
// values or a residual above options.divergence_limit (the offending rows listed) or a raised
// `cancel` fail the solve with the report flagged and a message; within the tolerances
// (`converged` set) or at `cap` iterations the solve is done; otherwise it goes on.
IterateVerdict judge_iterate(const SolverOptions& options, const RowSet& rows, bool finite, const IterationTrace& it,
                             int iteration, int cap, const char* solver_name, const std::atomic<bool>* cancel,
                             bool& converged, StepReport& report);

// Adds the solve's iterations to the trace and the report; a solve that did not fail but ended
// above options.newton_tolerance / newton_velocity_tolerance (tolerance 0: the cap was asked for)
// is reported kStepNotConverged and counted in report.unconverged_solves.
void count_solve(const SolverOptions& options, int iterations, bool converged, SolverTrace& trace, StepReport& report);

// The measured result's residuals into the trace's final maxima, then the blow-up detector on the
// joints' rows at the result (solver/joint_error_check.hpp). Returns false, with the report flagged
// kStepJointViolated and the joint named, when the step must not be taken.
bool accept_result(const Model& model, const SolverOptions& options, const RowSet& rows, const IterationTrace& result,
                   SolverTrace& trace, StepReport& report);

}  // namespace sim::detail
