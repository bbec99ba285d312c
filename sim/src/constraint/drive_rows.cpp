#include "constraint/drive_rows.hpp"

#include "core/parallel.hpp"

namespace sim {

void evaluate_drive_row(const JointCoordinate& jc, RowSet& rows, int r) {
  rows.row_value[r] = jc.value;
  rows.set_gradient(r, jc.grad_a, jc.grad_b);
}

void setup_drive_rows(const Model& m, const Control& control, Real h, RowSet& rows) {
  parallel_for(rows.first_limit - rows.first_drive, [&](int k) {
    const int i = rows.first_drive + k;
    const int j = rows.row_source[i];
    const bool position = m.joint_drive[j] == DriveMode::Position;
    const Real kp = position ? m.joint_stiffness[j] : Real(0);
    const Real kd = m.joint_damping[j];
    const Real target = j < static_cast<int>(control.joint_target.size()) ? control.joint_target[j] : Real(0);
    const Real target_v = j < static_cast<int>(control.joint_target_velocity.size())
                              ? control.joint_target_velocity[j] : Real(0);
    const Real e = Real(1) / (kp * h + kd);
    rows.row_compliance[i] = e;
    rows.row_bias[i] = (kp * (rows.row_value[i] - target) - kd * target_v) * e;
    rows.row_bound[i] = m.joint_max_force[j];
  });
}

}  // namespace sim
