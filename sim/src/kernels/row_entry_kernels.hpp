// Kernels over the rows' (node, block) entries (constraint/rows.hpp, CSR per row): the products
// every linear solver and the Newton loop are made of. Plain views, fixed-size blocks (width 6 for
// a body, 3 for a particle), no allocation; compiled for the host and, under nvcc, the device
// (sim/cuda/kernels.cu).
#pragma once

#include <Eigen/Core>
#include <cstdint>

#include "kernels/kernel_macros.hpp"
#include "sim/math.hpp"

namespace sim {

// One block per entry (the gradients ∇C G or the system rows J) with the rows' CSR structure.
struct RowBlocksView {
  const int* row_entry_first;     // (rows + 1)
  const int* entry_dof;           // first dof of the entry's node
  const std::int8_t* entry_width; // 6 or 3
  const Vec6* block;              // the entry's block
};

// Row i times a dof vector: Σ_entries block · z[dof .. dof + width).
SIM_HD inline Real row_times(const RowBlocksView& v, int i, const Real* z) {
  Real s = 0;
  for (int e = v.row_entry_first[i]; e < v.row_entry_first[i + 1]; ++e) {
    const int dof = v.entry_dof[e];
    if (v.entry_width[e] == 6)
      s += v.block[e].dot(Eigen::Map<const Vec6>(z + dof));
    else
      s += v.block[e].template head<3>().dot(Eigen::Map<const Vec3>(z + dof));
  }
  return s;
}

// Node n's slice of Bᵀ x: its entries' blocks (node_entries, grouped by node in row order, so the
// sum has a fixed order whatever the thread count) times their rows' x.
struct NodeEntriesView {
  const int* node_entry_first;  // (nodes + 1)
  const int* node_entries;      // entry indices grouped by node
  const int* node_entry_rows;   // their rows, in the same order (read in sequence, not per entry)
};

SIM_HD inline Vec6 node_transpose_times(const NodeEntriesView& n, const Vec6* block, int node, const Real* x) {
  Vec6 acc = Vec6::Zero();
  for (int k = n.node_entry_first[node]; k < n.node_entry_first[node + 1]; ++k)
    acc += block[n.node_entries[k]] * x[n.node_entry_rows[k]];
  return acc;
}

// The system row J of row i from its gradient: as it is (bilateral, drive, friction), scaled by
// α (unilateral rows: J = α ∇C G, eqs. 94, 97), or zero (a clamped drive, inactive friction).
SIM_HD inline void copy_row_blocks(const int* row_entry_first, const Vec6* grad, Vec6* jac, int i) {
  for (int e = row_entry_first[i]; e < row_entry_first[i + 1]; ++e) jac[e] = grad[e];
}
SIM_HD inline void scale_row_blocks(const int* row_entry_first, const Vec6* grad, Vec6* jac, int i, Real alpha) {
  for (int e = row_entry_first[i]; e < row_entry_first[i + 1]; ++e) jac[e] = alpha * grad[e];
}
SIM_HD inline void zero_row_blocks(const int* row_entry_first, Vec6* jac, int i) {
  for (int e = row_entry_first[i]; e < row_entry_first[i + 1]; ++e) jac[e].setZero();
}

}  // namespace sim
