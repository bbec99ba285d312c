// Kernels: the rows of a joint's coordinate θ (joint_row_kernels.hpp joint_coordinate, already
// unwrapped beyond ±π), per driven or limited revolute or prismatic joint:
//  * drive row (constraint/drive_rows.hpp, implicit PD at the velocity level): value θ, J = ∇θ G;
//  * limit rows (constraint/limit_rows.hpp, unilateral, eqs. 93-98 in the solver):
//      C_lower = θ − θ_lower >= 0 with ∇θ G,  C_upper = θ_upper − θ >= 0 with −∇θ G.
// Called from constraint/row_assembly.cpp's per-joint loop; instantiated by sim/cuda/kernels.cu.
#pragma once

#include "kernels/joint_row_kernels.hpp"
#include "kernels/kernel_macros.hpp"
#include "kernels/row_gradient_kernels.hpp"
#include "kernels/views.hpp"

namespace sim {

// θ and ∇θ G into drive row r.
SIM_HD inline void evaluate_drive_row(const JointCoordinate& jc, const RowGradientView& rows, int r) {
  set_row(rows, r, jc.value, jc.grad_a, jc.grad_b);
}

// Rows r (lower) and r + 1 (upper) of joint j.
SIM_HD inline void evaluate_limit_rows(const JointView& joints, int j, const JointCoordinate& jc,
                                       const RowGradientView& rows, int r) {
  set_row(rows, r, jc.value - joints.lower[j], jc.grad_a, jc.grad_b);  // θ − lower >= 0
  set_row(rows, r + 1, joints.upper[j] - jc.value, Vec6(-jc.grad_a), Vec6(-jc.grad_b));  // upper − θ >= 0
}

// Where a step's rows of the joint coordinate lie (RowSet: first_drive + joint_drive_first[j],
// first_limit + joint_limit_first[j]; a joint has a drive or limits where its offsets grow).
struct JointCoordinateRowsView {
  const int* drive_first;  // (joint_count + 1)
  const int* limit_first;  // (joint_count + 1)
  int first_drive;
  int first_limit;
  const Real* reference;   // θ to unwrap the revolute coordinate near (joint_count)
};

// Joint j's drive and limit rows, if it has any: θ unwrapped near the reference, then the rows.
SIM_HD inline void evaluate_joint_coordinate_rows(const JointView& joints, const ConfigurationView& c,
                                                  const RowGradientView& rows, const JointCoordinateRowsView& at,
                                                  int j) {
  const bool drive = at.drive_first[j + 1] > at.drive_first[j];
  const bool limit = at.limit_first[j + 1] > at.limit_first[j];
  if (!drive && !limit) return;
  JointCoordinate jc = joint_coordinate(joints, c, j);
  jc.value = joint_position_near(joints.type[j], jc.value, at.reference[j]);
  if (drive) evaluate_drive_row(jc, rows, at.first_drive + at.drive_first[j]);
  if (limit) evaluate_limit_rows(joints, j, jc, rows, at.first_limit + at.limit_first[j]);
}

}  // namespace sim
