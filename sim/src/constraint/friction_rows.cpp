#include "constraint/friction_rows.hpp"

namespace sim {

void evaluate_friction_rows(const Contact& k, const ContactPoints& p, RowSet& rows, int f) {
  const Vec3 dirs[2] = {k.tangent1, k.tangent2};
  for (int j = 0; j < 2; ++j) {
    set_contact_gradient(rows, f + j, k, p.friction_arm_a, p.friction_arm_b, dirs[j]);
    rows.row_value[f + j] = 0;
  }
}

}  // namespace sim
