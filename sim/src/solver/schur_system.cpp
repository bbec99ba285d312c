#include "solver/schur_system.hpp"

#include "core/parallel.hpp"
#include "kernels/inverse_mass_kernel.hpp"

namespace sim {

void InverseMass::apply_node(const Model& m, int node, const Real* in, Real* out) const {
  apply_inverse_mass(view(m), node, in, out);
}

InverseMassView InverseMass::view(const Model& m) const {
  return InverseMassView{body_inv_mass.data(), body_inv_inertia.data(), particle_inv_mass.data(), m.body_count};
}

SchurSystem::SchurSystem(const Model& model, const RowSet& rows, const InverseMass& inv_mass,
                         Real epsilon, std::vector<int>& node_row_first,
                         std::vector<int>& node_row_entries)
    : model_(model), rows_(rows), inv_mass_(inv_mass), epsilon_(epsilon),
      node_row_first_(node_row_first), node_row_entries_(node_row_entries) {}

void SchurSystem::build_adjacency() {
  const int nodes = model_.body_count + model_.particle_count;
  node_row_first_.assign(nodes + 1, 0);
  for (int i = 0; i < rows_.count; ++i) {
    if (rows_.row_node_a[i] >= 0) ++node_row_first_[rows_.row_node_a[i] + 1];
    if (rows_.row_node_b[i] >= 0) ++node_row_first_[rows_.row_node_b[i] + 1];
  }
  for (int n = 0; n < nodes; ++n) node_row_first_[n + 1] += node_row_first_[n];
  node_row_entries_.resize(node_row_first_[nodes]);
  // Counting sort keeps rows in increasing order within each node: a fixed summation order.
  std::vector<int>& cursor = node_row_first_;  // reuse: shift back afterwards
  for (int i = 0; i < rows_.count; ++i) {
    if (rows_.row_node_a[i] >= 0) node_row_entries_[cursor[rows_.row_node_a[i]]++] = 2 * i;
    if (rows_.row_node_b[i] >= 0) node_row_entries_[cursor[rows_.row_node_b[i]]++] = 2 * i + 1;
  }
  for (int n = nodes; n > 0; --n) cursor[n] = cursor[n - 1];
  cursor[0] = 0;
}

void SchurSystem::jt(const Real* x, VecX& out) const { gather(rows_.row_jac_a, rows_.row_jac_b, x, out); }

void SchurSystem::gradient_t(const Real* x, VecX& out) const { gather(rows_.row_grad_a, rows_.row_grad_b, x, out); }

void SchurSystem::gather(const std::vector<Vec6>& side_a, const std::vector<Vec6>& side_b, const Real* x,
                         VecX& out) const {
  const int nodes = model_.body_count + model_.particle_count;
  parallel_for(nodes, [&](int n) {
    Vec6 acc = Vec6::Zero();
    for (int e = node_row_first_[n]; e < node_row_first_[n + 1]; ++e) {
      const int entry = node_row_entries_[e];
      const int row = entry >> 1;
      acc += (entry & 1 ? side_b[row] : side_a[row]) * x[row];
    }
    const int dof = node_dof(model_, n);
    const int width = node_width(model_, n);
    for (int k = 0; k < width; ++k) out[dof + k] = acc[k];
  });
}

void SchurSystem::inv_h(const VecX& in, VecX& out) const {
  const int nodes = model_.body_count + model_.particle_count;
  const InverseMassView inv_mass = inv_mass_.view(model_);
  parallel_for(nodes, [&](int n) {
    const int dof = node_dof(model_, n);
    apply_inverse_mass(inv_mass, n, in.data() + dof, out.data() + dof);
  });
}

void SchurSystem::j(const VecX& z, VecX& out) const {
  parallel_for(rows_.count, [&](int i) { out[i] = j_row(i, z); });
}

void SchurSystem::apply(const VecX& x, VecX& out, VecX& s1, VecX& s2) const {
  jt(x, s1);
  inv_h(s1, s2);
  parallel_for(rows_.count, [&](int i) { out[i] = j_row(i, s2) + diag_c(i) * x[i]; });
}

void SchurSystem::diagonal(VecX& out) const {
  parallel_for(rows_.count, [&](int i) {
    Real d = diag_c(i);
    Real tmp[6];
    const int nodes[2] = {rows_.row_node_a[i], rows_.row_node_b[i]};
    const Vec6* jac[2] = {&rows_.row_jac_a[i], &rows_.row_jac_b[i]};
    for (int side = 0; side < 2; ++side) {
      if (nodes[side] < 0) continue;
      inv_mass_.apply_node(model_, nodes[side], jac[side]->data(), tmp);
      for (int k = 0; k < node_width(model_, nodes[side]); ++k) d += (*jac[side])[k] * tmp[k];
    }
    out[i] = d;
  });
}

void SchurSystem::add_inv_h_jt_row(int i, Real delta, VecX& z) const {
  Real in[6], tmp[6];
  const int nodes[2] = {rows_.row_node_a[i], rows_.row_node_b[i]};
  const Vec6* jac[2] = {&rows_.row_jac_a[i], &rows_.row_jac_b[i]};
  for (int side = 0; side < 2; ++side) {
    const int n = nodes[side];
    if (n < 0) continue;
    for (int k = 0; k < 6; ++k) in[k] = (*jac[side])[k] * delta;
    inv_mass_.apply_node(model_, n, in, tmp);
    const int dof = node_dof(model_, n);
    for (int k = 0; k < node_width(model_, n); ++k) z[dof + k] += tmp[k];
  }
}

}  // namespace sim
