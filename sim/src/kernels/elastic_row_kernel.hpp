// Kernel: writing one elastic row in generalized compliance form (paper §9.1, eqs. 75-80) whose
// energy is quadratic in its own measure, ½ k m², so that c = k m, E = 1/k (eq. 84, constant and
// exact) and the row's value E c is the measure m itself. The shell rows (membrane_row_kernel.hpp,
// hinge_row_kernel.hpp) write through this.
//
// Damping (stiffness-proportional, β [s], as the tet rows'): c + β k ṁ with ṁ = (m − m⁻)/h turns
// the row into m + γ (m − m⁻) + E λ = 0, γ = β/h, written divided by (1 + γ) so that its gradient
// stays ∂m/∂x: value (m + γ(m − m⁻))/(1 + γ), compliance E/(1 + γ). m⁻ is the row's bias, γ its
// row_bound slot (set once per step by constraint/shell_rows.cpp setup_shell_damping).
#pragma once

#include "kernels/kernel_macros.hpp"
#include "kernels/row_gradient_kernels.hpp"
#include "sim/math.hpp"

namespace sim {

// The RowSet's arrays a compliant row reads and writes besides the gradient view.
struct ElasticRowsView {
  Real* compliance;              // row_compliance: E = 1/k of the row at this evaluation
  const Real* reference;         // row_bias: the row's measure at q⁻ (damping)
  const Real* damping_ratio;     // row_bound: γ = β/h of the step, <= 0 before the step set it
};

// Row r: measure m (already wrapped where it is an angle; `delta` is m − m⁻ for damping),
// stiffness k > 0, and the gradient ∂m/∂x of each particle slot (those with an entry written).
SIM_HD inline void write_elastic_row(const RowGradientView& rows, const ElasticRowsView& cr, int r, Real measure,
                                       Real delta, Real stiffness, const Vec3* grad, int slots) {
  const Real gamma = cr.damping_ratio[r] > 0 ? cr.damping_ratio[r] : Real(0);
  rows.value[r] = (measure + gamma * delta) / (1 + gamma);
  cr.compliance[r] = Real(1) / (stiffness * (1 + gamma));
  const unsigned mask = rows.row_slot_mask[r];
  Vec6* out = rows.entry_grad + rows.row_entry_first[r];
  for (int slot = 0; slot < slots; ++slot)
    if (mask & (1u << slot)) {
      Vec6& b = *out++;
      b.head<3>() = grad[slot];
      b.tail<3>().setZero();
    }
}

}  // namespace sim
