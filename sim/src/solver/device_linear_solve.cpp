#include "solver/device_linear_solve.hpp"

#include <algorithm>

#include "solver/row_capacity.hpp"

namespace sim::detail {

DeviceSolveOutcome solve_pcr_on_device(DeviceLinearSolver& device, const SchurSystem& A, const VecX& b, VecX& x,
                                       int iterations, Real tolerance, DeviceSolveScratch& s,
                                       std::vector<Real>* history, LinearSolveStats& stats) {
  const int n = A.size();
  if (A.condensation() || n < std::max(1, device.min_rows())) return DeviceSolveOutcome::NotTaken;
  const Model& m = A.model();
  const RowSet& rows = A.rows();
  const InverseMass& h = A.inverse_mass();
  if (s.c_diagonal.size() < static_cast<std::size_t>(n)) s.c_diagonal.resize(std::max<std::size_t>(n, rows.row_lambda.capacity()));
  for (int i = 0; i < n; ++i) s.c_diagonal[static_cast<std::size_t>(i)] = A.diag_c(i);
  grow_rows(x, std::max(n, static_cast<int>(rows.row_lambda.capacity())));
  const NodeEntriesView nodes = A.node_entries();
  SchurSystemArrays a;
  a.rows = n;
  a.entries = rows.entry_count;
  a.body_count = m.body_count;
  a.particle_count = m.particle_count;
  a.row_entry_first = rows.row_entry_first.data();
  a.entry_node = rows.entry_node.data();
  a.entry_dof = rows.entry_dof.data();
  a.entry_width = rows.entry_width.data();
  a.entry_jac = rows.entry_jac.data();
  a.node_entry_first = nodes.node_entry_first;
  a.node_entries = nodes.node_entries;
  a.node_entry_rows = nodes.node_entry_rows;
  a.body_inv_mass = h.body_inv_mass.data();
  a.body_inv_inertia = h.body_inv_inertia.data();
  a.particle_inv_mass = h.particle_inv_mass.data();
  a.c_diagonal = s.c_diagonal.data();
  DeviceLinearStats d;
  if (!device.solve_pcr(a, b.data(), x.data(), iterations, tolerance, d, history, s.error)) return DeviceSolveOutcome::Failed;
  stats.iterations = d.iterations;
  stats.initial_residual = d.initial_residual;
  stats.final_residual = d.final_residual;
  stats.breakdown = static_cast<LinearBreakdown>(d.breakdown);
  return DeviceSolveOutcome::Solved;
}

}  // namespace sim::detail
