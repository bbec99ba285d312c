#include "constraint/rows.hpp"

namespace sim {

void RowSet::resize(int n) {
  count = n;
  row_kind.resize(n);
  row_entry_first.resize(n + 1);
  row_slot_mask.resize(n);
  row_source.resize(n);
  row_sub.resize(n);
  row_compliance.resize(n);
  row_bound.resize(n);
  row_bias.resize(n);
  row_inv_mass.resize(n);
  row_jac_scale.resize(n);
  row_r.resize(n);
  row_value.resize(n);
  row_diag_c.resize(n);
  row_residual.resize(n);
  row_lambda.resize(n);
  row_w.resize(n);
  row_active.resize(n);
  row_error.resize(n);
}

void RowSet::resize_entries(int n) {
  entry_count = n;
  entry_row.resize(n);
  entry_node.resize(n);
  entry_dof.resize(n);
  entry_width.resize(n);
  entry_grad.resize(n);
  entry_jac.resize(n);
}

void RowSet::set_nodes(const Model& model, int r, int first_entry, const RowNodes& nodes) {
  row_entry_first[r] = first_entry;
  row_slot_mask[r] = nodes.mask();
  int e = first_entry;
  for (int k = 0; k < nodes.slots; ++k) {
    const int n = nodes.node[k];
    if (n < 0) continue;
    entry_row[e] = r;
    entry_node[e] = n;
    entry_dof[e] = node_dof(model, n);
    entry_width[e] = static_cast<std::int8_t>(node_width(model, n));
    ++e;  // entry_grad and entry_jac are written by every evaluation (evaluate_rows, the NCP terms)
  }
}

void RowSet::set_structure(const Model& model, const RowNodes* nodes, int n) {
  int entries = 0;
  for (int r = 0; r < n; ++r) entries += nodes[r].entries();
  resize_entries(entries);
  int e = 0;
  for (int r = 0; r < n; ++r) {
    set_nodes(model, r, e, nodes[r]);
    e += nodes[r].entries();
  }
  row_entry_first[n] = e;
}

}  // namespace sim
