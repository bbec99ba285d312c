// A captured Newton system (sim/solve_capture.hpp: J and H⁻¹ as triplets, C + εI, b, x) rebuilt
// in the solver's own form: the RowSet's (node, block) entries per row, the per-node H⁻¹
// (InverseMass) and a SchurSystem over them, so the production linear solvers (and the device
// solver, sim/cuda/device_pcr.hpp, from the same arrays) run on exactly the captured system.
// Entries are the triplets of one row on one node in capture order (zero components were not
// captured and stay zero); ε is folded into the rows' C (the SchurSystem's own ε is 0).
#pragma once

#include <memory>
#include <vector>

#include "constraint/rows.hpp"
#include "sim/model.hpp"
#include "sim/solve_capture.hpp"
#include "solver/schur_system.hpp"

namespace test {

struct CapturedSchur {
  sim::RowSet rows;
  sim::InverseMass inv_mass;
  std::vector<int> node_entry_first, node_entries, node_entry_rows;
  std::unique_ptr<sim::SchurSystem> system;  // over the members above (so not movable once built)
  std::vector<int> node_dof, node_width;     // per node: its first dof and 6 (body) or 3 (particle)
};

// The node of dof `d`: bodies' 6 dofs first, then particles' 3.
inline int captured_node_of_dof(const sim::Model& m, int d) {
  return d < 6 * m.body_count ? d / 6 : m.body_count + (d - 6 * m.body_count) / 3;
}

inline void build_captured_schur(const sim::Model& m, const sim::CapturedSystem& sys, CapturedSchur& out) {
  sim::RowSet& r = out.rows;
  r.count = sys.rows;
  r.row_entry_first.assign(static_cast<std::size_t>(sys.rows) + 1, 0);
  const int nodes = m.body_count + m.particle_count;
  for (int n = 0; n < nodes; ++n) {
    out.node_dof.push_back(sim::node_dof_offset(m.body_count, n));
    out.node_width.push_back(n < m.body_count ? 6 : 3);
  }
  for (std::size_t k = 0; k < sys.j_value.size(); ++k) {
    const int row = sys.j_row[k], node = captured_node_of_dof(m, sys.j_col[k]);
    const int first = out.node_dof[static_cast<std::size_t>(node)];
    if (r.entry_count == 0 || r.entry_row.back() != row || r.entry_node.back() != node) {
      r.entry_row.push_back(row);
      r.entry_node.push_back(node);
      r.entry_dof.push_back(first);
      r.entry_width.push_back(static_cast<std::int8_t>(out.node_width[static_cast<std::size_t>(node)]));
      r.entry_jac.push_back(sim::Vec6::Zero());
      ++r.entry_count;
      ++r.row_entry_first[static_cast<std::size_t>(row) + 1];
    }
    r.entry_jac.back()[sys.j_col[k] - first] = sys.j_value[k];
  }
  for (int i = 0; i < sys.rows; ++i) r.row_entry_first[static_cast<std::size_t>(i) + 1] += r.row_entry_first[static_cast<std::size_t>(i)];
  r.entry_grad = r.entry_jac;
  r.row_diag_c = sys.c_diagonal;
  // H⁻¹: per body m⁻¹ and the world inverse inertia, per particle dof its entry.
  sim::InverseMass& h = out.inv_mass;
  h.body_inv_mass.assign(static_cast<std::size_t>(m.body_count), 0);
  h.body_inv_inertia.assign(static_cast<std::size_t>(m.body_count), sim::Mat3::Zero());
  h.particle_inv_mass.assign(3 * static_cast<std::size_t>(m.particle_count), 0);
  for (std::size_t k = 0; k < sys.hinv_value.size(); ++k) {
    const int row = sys.hinv_row[k], col = sys.hinv_col[k];
    const int node = captured_node_of_dof(m, row);
    if (node < m.body_count) {
      const int a = row - 6 * node, b = col - 6 * node;
      if (a < 3 && a == b && a == 0) h.body_inv_mass[static_cast<std::size_t>(node)] = sys.hinv_value[k];
      if (a >= 3 && b >= 3) h.body_inv_inertia[static_cast<std::size_t>(node)](a - 3, b - 3) = sys.hinv_value[k];
    } else if (row == col) {
      h.particle_inv_mass[static_cast<std::size_t>(row - 6 * m.body_count)] = sys.hinv_value[k];
    }
  }
  out.system = std::make_unique<sim::SchurSystem>(m, out.rows, out.inv_mass, sim::Real(0), out.node_entry_first,
                                                  out.node_entries, out.node_entry_rows);
  out.system->build_adjacency();
}

}  // namespace test
