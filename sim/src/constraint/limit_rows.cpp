#include "constraint/limit_rows.hpp"

namespace sim {

void evaluate_limit_rows(const Model& m, int j, const JointCoordinate& jc, RowSet& rows, int r) {
  rows.row_value[r] = jc.value - m.joint_lower[j];  // θ − lower >= 0
  rows.set_gradient(r, jc.grad_a, jc.grad_b);
  rows.row_value[r + 1] = m.joint_upper[j] - jc.value;  // upper − θ >= 0
  rows.set_gradient(r + 1, Vec6(-jc.grad_a), Vec6(-jc.grad_b));
}

}  // namespace sim
