#include "constraint/rows.hpp"

namespace sim {

void RowSet::resize(int n) {
  count = n;
  row_kind.resize(n);
  row_node_a.resize(n);
  row_node_b.resize(n);
  row_dof_a.resize(n);
  row_dof_b.resize(n);
  row_width_a.resize(n);
  row_width_b.resize(n);
  row_source.resize(n);
  row_sub.resize(n);
  row_compliance.resize(n);
  row_bound.resize(n);
  row_bias.resize(n);
  row_inv_mass.resize(n);
  row_jac_scale.resize(n);
  row_r.resize(n);
  row_grad_a.resize(n);
  row_grad_b.resize(n);
  row_value.resize(n);
  row_jac_a.resize(n);
  row_jac_b.resize(n);
  row_diag_c.resize(n);
  row_residual.resize(n);
  row_lambda.resize(n);
  row_w.resize(n);
  row_active.resize(n);
  row_error.resize(n);
}

void RowSet::set_dofs(const Model& model) {
  for (int i = 0; i < count; ++i) {
    const int a = row_node_a[i], b = row_node_b[i];
    row_dof_a[i] = a >= 0 ? node_dof(model, a) : -1;
    row_dof_b[i] = b >= 0 ? node_dof(model, b) : -1;
    row_width_a[i] = static_cast<std::int8_t>(a >= 0 ? node_width(model, a) : 0);
    row_width_b[i] = static_cast<std::int8_t>(b >= 0 ? node_width(model, b) : 0);
  }
}

}  // namespace sim
