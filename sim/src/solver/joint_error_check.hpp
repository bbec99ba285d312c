// Blow-up detector on a step's result (docs/ARCHITECTURE.md, "Blow-up"): joint rows violated
// after the solve beyond SolverOptions::joint_angle_error_limit / joint_position_error_limit.
#pragma once

#include <string>

#include "constraint/rows.hpp"
#include "sim/solver_options.hpp"
#include "sim/trace.hpp"

namespace sim {

struct JointViolation {
  int row = -1;           // worst row over its limit, -1: none
  Real ratio = 0;         // its error / its limit
  Real error = 0;         // |c + eλ| [rad] or [m]
  Real scale = 0;         // bounding radius for a positional row [m], 0 for a rotational one
};

// Every joint row is a hard (or compliant, eq. 8) constraint, so |c + eλ| after the solve is the
// joint coming apart. Rotational rows are angles [rad] (2 v_r, or p·k_b ≈ sin θ for a hinge's
// axis); positional rows are compared with the larger jointed body's bounding radius, the scale at
// which a link visibly leaves its joint. A converged solve leaves these near round-off; one that
// lost a fight against an infeasible contact (a hinge 0.14 rad off its axis, a link flying off)
// leaves them at a sizeable fraction of the scale while every residual stays far below
// divergence_limit. `rows` must be evaluated (row_error) at the result. Records the maxima in the
// trace, appends the rows over their limit to report.offending_rows (first 16) and returns the
// worst of them. No allocation unless a row is over its limit.
JointViolation check_joint_error(const Model& model, const SolverOptions& options, const RowSet& rows,
                                 SolverTrace& trace, StepReport& report);

// "joint 'hinge' (link) came apart (blow-up): rotational row 0.14 rad > joint_angle_error_limit 0.05".
std::string describe_joint_violation(const Model& model, const SolverOptions& options, const RowSet& rows,
                                     const JointViolation& violation);

}  // namespace sim
