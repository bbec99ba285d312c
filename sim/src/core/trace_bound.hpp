// The records one step's solver trace reserves (solver/*: trace_capacity), bounded by
// limits::kMaxTraceRecordsPerStep (check_solver_counts), and the retries of a failed step
// (SolverOptions::step_retries, pipeline/step.cpp) that stay within that bound: each retry doubles
// the substeps, and with them the records. Defined in core/solver_options.cpp.
#pragma once

namespace sim {

struct SolverOptions;

// substeps x max(2 (newton_iterations + 1) x max(linear_iterations, linear_iterations_max),
// pgs_iterations + 1, dual_iterations + 1, primal_iterations + 1).
double trace_records_per_step(const SolverOptions& options);

// step_retries, less those whose doubled substeps would reserve more than the bound (a scene
// near it, e.g. 1,000 Newton iterations of 4,000 linear ones, gets fewer retries, or none).
int step_retries_within_trace_bound(const SolverOptions& options);

}  // namespace sim
