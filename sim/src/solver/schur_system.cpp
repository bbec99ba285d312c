#include "solver/schur_system.hpp"

#include "core/parallel.hpp"

namespace sim {

void InverseMass::apply_node(const Model& m, int node, const Real* in, Real* out) const {
  if (node < m.body_count) {
    const Real im = body_inv_mass[node];
    out[0] = im * in[0];
    out[1] = im * in[1];
    out[2] = im * in[2];
    const Mat3& ii = body_inv_inertia[node];
    const Vec3 w = ii * Vec3(in[3], in[4], in[5]);
    out[3] = w.x();
    out[4] = w.y();
    out[5] = w.z();
  } else {
    const int p = node - m.body_count;
    for (int k = 0; k < 3; ++k) out[k] = particle_inv_mass[3 * p + k] * in[k];
  }
}

SchurSystem::SchurSystem(const Model& model, const RowSet& rows, const InverseMass& inv_mass,
                         Real epsilon, std::vector<int>& node_entry_first,
                         std::vector<int>& node_entries, std::vector<int>& node_entry_rows)
    : model_(model), rows_(rows), inv_mass_(inv_mass), epsilon_(epsilon),
      node_entry_first_(node_entry_first), node_entries_(node_entries), node_entry_rows_(node_entry_rows) {}

void SchurSystem::build_adjacency() {
  const int nodes = model_.body_count + model_.particle_count;
  const int entries = rows_.entry_count;
  node_entry_first_.assign(nodes + 1, 0);
  for (int e = 0; e < entries; ++e) ++node_entry_first_[rows_.entry_node[e] + 1];
  for (int n = 0; n < nodes; ++n) node_entry_first_[n + 1] += node_entry_first_[n];
  node_entries_.resize(node_entry_first_[nodes]);
  node_entry_rows_.resize(node_entry_first_[nodes]);
  // Counting sort keeps entries (so rows) in increasing order within each node: a fixed
  // summation order.
  std::vector<int>& cursor = node_entry_first_;  // reuse: shift back afterwards
  for (int e = 0; e < entries; ++e) {
    const int k = cursor[rows_.entry_node[e]]++;
    node_entries_[k] = e;
    node_entry_rows_[k] = rows_.entry_row[e];
  }
  for (int n = nodes; n > 0; --n) cursor[n] = cursor[n - 1];
  cursor[0] = 0;
}

void SchurSystem::jt(const Real* x, VecX& out) const { gather(rows_.entry_jac, x, out); }

void SchurSystem::gradient_t(const Real* x, VecX& out) const { gather(rows_.entry_grad, x, out); }

void SchurSystem::gather(const std::vector<Vec6>& blocks, const Real* x, VecX& out) const {
  const int nodes = model_.body_count + model_.particle_count;
  const NodeEntriesView view{node_entry_first_.data(), node_entries_.data(), node_entry_rows_.data()};
  parallel_for(nodes, [&](int n) {
    const Vec6 acc = node_transpose_times(view, blocks.data(), n, x);
    const int dof = node_dof(model_, n);
    const int width = node_width(model_, n);
    for (int k = 0; k < width; ++k) out[dof + k] = acc[k];
  });
}

void SchurSystem::inv_h(const VecX& in, VecX& out) const {
  const int nodes = model_.body_count + model_.particle_count;
  parallel_for(nodes, [&](int n) {
    const int dof = node_dof(model_, n);
    inv_mass_.apply_node(model_, n, in.data() + dof, out.data() + dof);
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
    for (int e = rows_.row_entry_first[i]; e < rows_.row_entry_first[i + 1]; ++e)
      inv_mass_.add_quadratic(model_, rows_.entry_node[e], rows_.entry_jac[e], d);
    out[i] = d;
  });
}

void SchurSystem::add_inv_h_jt_row(int i, Real delta, VecX& z) const {
  Real in[6], tmp[6];
  for (int e = rows_.row_entry_first[i]; e < rows_.row_entry_first[i + 1]; ++e) {
    const Vec6& jac = rows_.entry_jac[e];
    for (int k = 0; k < 6; ++k) in[k] = jac[k] * delta;
    inv_mass_.apply_node(model_, rows_.entry_node[e], in, tmp);
    const int dof = rows_.entry_dof[e];
    for (int k = 0; k < rows_.entry_width[e]; ++k) z[dof + k] += tmp[k];
  }
}

}  // namespace sim
