#include "solver/iterate_measure.hpp"

#include <algorithm>

#include "constraint/friction_cone.hpp"
#include "core/kinematics.hpp"
#include "kernels/compliant_row_kernel.hpp"
#include "kernels/unilateral_row_kernel.hpp"
#include "solver/ncp.hpp"
#include "solver/newton_residuals.hpp"

namespace sim::detail {

void evaluate_rows_at_iterate(const Model& m, const ContactBuffer& contacts, Real h, SolverScratch& s) {
  integrate_positions(m, s.q0.data(), s.u.data(), h, s.q.data());  // q = q⁻ + h G(q⁻) u (eq. 63)
  evaluate_rows_at_result(m, contacts, s);
  RowSet& rows = s.rows;
  std::copy(rows.entry_grad.begin(), rows.entry_grad.begin() + rows.entry_count, rows.entry_jac.begin());
}

bool measure_rows_and_momentum(const Model& m, const ContactBuffer& contacts, Real h, const SchurSystem& sys,
                               SolverScratch& s, IterationTrace& t) {
  RowSet& rows = s.rows;
  const UnilateralRowView unilateral = rows.unilateral_view();
  const CompliantRowView compliant = rows.compliant_view();
  for (int i = 0; i < rows.first_friction; ++i) {
    switch (rows.row_kind[i]) {
      case RowKind::Bilateral: evaluate_bilateral_row(compliant, i, h); break;
      case RowKind::Drive: evaluate_drive_row_ncp(compliant, i, rows.gradient_dot(i, s.u.data()), h); break;
      case RowKind::Limit:
      case RowKind::Normal: evaluate_unilateral_row(unilateral, i, /*fischer_burmeister=*/false, h); break;
      case RowKind::Friction: break;
    }
  }
  for (int c = 0; c < contacts.size(); ++c) {
    const Contact& contact = contacts.contacts[c];
    const int f = rows.first_friction + 2 * c;
    const Real ln = rows.row_lambda[rows.first_normal + c], r = rows.row_r[f];
    const Real s1 = rows.gradient_dot(f, s.u.data()), s2 = rows.gradient_dot(f + 1, s.u.data());
    const Real l1 = rows.row_lambda[f], l2 = rows.row_lambda[f + 1];
    const Real error = contact.anisotropic
                           ? elliptic_friction_error(s1, s2, l1, l2, contact.friction, contact.friction_bitangent, ln, r)
                           : friction_error(s1, s2, l1, l2, contact.friction * ln, r);
    for (int k = 0; k < 2; ++k) {
      rows.row_residual[f + k] = error;
      rows.row_error[f + k] = error;
      rows.row_active[f + k] = (s1 != 0 || s2 != 0) && ln > 0 ? 1 : 0;
    }
  }
  sys.jt(rows.row_lambda.data(), s.jt);
  momentum_residual_of(m, h, s, s.jt, s.g);
  return measure_iterate(m, rows, s.inv_mass_at_start, s.g, t) && s.u.allFinite();
}

}  // namespace sim::detail
