#include "constraint/contact_normal_rows.hpp"

#include <algorithm>

#include "core/parallel.hpp"

namespace sim {

void evaluate_contact_normal_row(const Contact& k, const ContactPoints& p, RowSet& rows, int r) {
  set_contact_gradient(rows, r, k, p.arm_a, p.arm_b, k.normal);
  // C_n (eq. 9, round cores with their radii in d) plus the allowance of a contact penetrating at
  // q⁻ (row_bias, set by relax_initial_penetration after the evaluation at q⁻; 0 before and for
  // other contacts).
  rows.row_value[r] = k.normal.dot(p.point_a - p.point_b) - k.thickness - p.radii + rows.row_bias[r];
}

void relax_initial_penetration(const SolverOptions& o, Real h, RowSet& rows) {
  const Real allowance = o.max_depenetration_velocity * h;
  parallel_for(rows.first_friction - rows.first_normal, [&](int c) {
    const int i = rows.first_normal + c;
    rows.row_bias[i] = std::max(Real(0), -(rows.row_value[i] + allowance));
  });
}

}  // namespace sim
