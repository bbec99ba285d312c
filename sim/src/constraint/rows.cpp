#include "constraint/rows.hpp"

#include <algorithm>

namespace sim {

namespace {

// v.resize(n) that grows the capacity geometrically from the capacity (std::vector's own growth
// starts from the size, which after a smaller step is below the capacity: a count that creeps up
// past its high-water mark would reallocate at every new maximum). Never shrinks the capacity.
template <class T>
void grow(std::vector<T>& v, int n) {
  const auto want = static_cast<std::size_t>(n);
  if (v.capacity() < want) v.reserve(std::max(want, 2 * v.capacity()));
  v.resize(want);
}

}  // namespace

void RowSet::resize(int n) {
  count = n;
  grow(row_kind, n);
  grow(row_entry_first, n + 1);
  grow(row_slot_mask, n);
  grow(row_source, n);
  grow(row_sub, n);
  grow(row_compliance, n);
  grow(row_bound, n);
  grow(row_bias, n);
  grow(row_inv_mass, n);
  grow(row_jac_scale, n);
  grow(row_r, n);
  grow(row_value, n);
  grow(row_diag_c, n);
  grow(row_residual, n);
  grow(row_lambda, n);
  grow(row_w, n);
  grow(row_active, n);
  grow(row_error, n);
}

void RowSet::resize_entries(int n) {
  entry_count = n;
  grow(entry_row, n);
  grow(entry_node, n);
  grow(entry_dof, n);
  grow(entry_width, n);
  grow(entry_grad, n);
  grow(entry_jac, n);
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
