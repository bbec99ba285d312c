#include "constraint/rows.hpp"

namespace sim {

void RowSet::resize(int n) {
  count = n;
  row_kind.resize(n);
  row_node_a.resize(n);
  row_node_b.resize(n);
  row_source.resize(n);
  row_sub.resize(n);
  row_compliance.resize(n);
  row_bound.resize(n);
  row_bias.resize(n);
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

}  // namespace sim
