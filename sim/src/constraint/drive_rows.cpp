#include "constraint/drive_rows.hpp"

#include <algorithm>

#include "core/parallel.hpp"

namespace sim {

void setup_drive_rows(const Model& m, const Control& control, Real h, RowSet& rows) {
  parallel_for(rows.first_limit - rows.first_drive, [&](int k) {
    const int i = rows.first_drive + k;
    const int j = rows.row_source[i];
    const bool position = m.joint_drive[j] == DriveMode::Position;
    const Real kp = position ? m.joint_stiffness[j] : Real(0);
    const Real kd = m.joint_damping[j];
    Real target = j < static_cast<int>(control.joint_target.size()) ? control.joint_target[j] : Real(0);
    Real target_v = j < static_cast<int>(control.joint_target_velocity.size())
                        ? control.joint_target_velocity[j] : Real(0);
    if (j < static_cast<int>(m.joint_target_limited.size()) && m.joint_target_limited[j]) {  // the control range
      Real& input = position ? target : target_v;
      input = std::clamp(input, m.joint_target_lower[j], m.joint_target_upper[j]);
    }
    const Real e = Real(1) / (kp * h + kd);
    rows.row_compliance[i] = e;
    rows.row_bias[i] = (kp * (rows.row_value[i] - target) - kd * target_v) * e;
    rows.row_bound[i] = m.joint_max_force[j];
  });
}

}  // namespace sim
