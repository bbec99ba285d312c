#include "solver/schur_system.hpp"

#include "core/parallel.hpp"
#include "kernels/inverse_mass_kernel.hpp"
#include "solver/elastic_condensation.hpp"

namespace sim {

void InverseMass::apply_node(const Model& m, int node, const Real* in, Real* out) const {
  apply_inverse_mass(view(m), node, in, out);
}

InverseMassView InverseMass::view(const Model& m) const {
  return InverseMassView{body_inv_mass.data(), body_inv_inertia.data(), particle_inv_mass.data(), m.body_count};
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
  // The rows' entry capacity (constraint/row_assembly.cpp): entries that come and go below it
  // allocate nothing here either.
  if (node_entries_.capacity() < rows_.entry_row.capacity()) {
    node_entries_.reserve(rows_.entry_row.capacity());
    node_entry_rows_.reserve(rows_.entry_row.capacity());
  }
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

template <class F>
void SchurSystem::for_each_node(int nodes, F&& body) const {
  parallel_for_work(nodes, rows_.entry_count, gather_parallel_entries(), body);
}

bool SchurSystem::condensed_row(int i) const { return ElasticCondensation::condensable(rows_, i); }

void SchurSystem::jt(const Real* x, VecX& out) const { gather(rows_.entry_jac, x, out); }

void SchurSystem::gradient_t(const Real* x, VecX& out) const { gather(rows_.entry_grad, x, out); }

void SchurSystem::gather(const std::vector<Vec6>& blocks, const Real* x, VecX& out) const {
  const int nodes = model_.body_count + model_.particle_count;
  const NodeEntriesView view{node_entry_first_.data(), node_entries_.data(), node_entry_rows_.data()};
  for_each_node(nodes, [&](int n) {
    const Vec6 acc = node_transpose_times(view, blocks.data(), n, x);
    const int dof = node_dof(model_, n);
    const int width = node_width(model_, n);
    for (int k = 0; k < width; ++k) out[dof + k] = acc[k];
  });
}

void SchurSystem::inv_h(const VecX& in, VecX& out) const {
  const int nodes = condensation_ ? model_.body_count : model_.body_count + model_.particle_count;
  const InverseMassView inv_mass = inv_mass_.view(model_);
  if (condensation_) condensation_->solve_particles(model_, in, out);
  for_each_node(nodes, [&](int n) {
    const int dof = node_dof(model_, n);
    apply_inverse_mass(inv_mass, n, in.data() + dof, out.data() + dof);
  });
}

void SchurSystem::jt_inv_h(const Real* x, VecX& jt_out, VecX& out) const {
  const int nodes = model_.body_count + model_.particle_count;
  // With a condensation the particles' H̃⁻¹ couples them: gathered here, solved after the pass.
  const int own_inverse = condensation_ ? model_.body_count : nodes;
  const NodeEntriesView view{node_entry_first_.data(), node_entries_.data(), node_entry_rows_.data()};
  const InverseMassView inv_mass = inv_mass_.view(model_);
  const Vec6* blocks = rows_.entry_jac.data();
  for_each_node(nodes, [&](int n) {
    const Vec6 acc = node_transpose_times(view, blocks, n, x);
    const int dof = node_dof(model_, n);
    const int width = node_width(model_, n);
    for (int k = 0; k < width; ++k) jt_out[dof + k] = acc[k];
    if (n < own_inverse) apply_inverse_mass(inv_mass, n, acc.data(), out.data() + dof);  // from registers
  });
  if (condensation_) condensation_->solve_particles(model_, jt_out, out);
}

void SchurSystem::j(const VecX& z, VecX& out) const {
  parallel_for(rows_.count, [&](int i) { out[i] = j_row(i, z); });
}

void SchurSystem::apply(const VecX& x, VecX& out, VecX& s1, VecX& s2) const {
  jt_inv_h(x.data(), s1, s2);
  parallel_for(rows_.count, [&](int i) { out[i] = apply_row(i, s2, x.data()); });
}

Real SchurSystem::diagonal_row(int i) const {
  if (condensation_ && condensed_row(i)) return 1;
  const InverseMassView inv_mass = inv_mass_.view(model_);
  Real d = diag_c(i);
  for (int e = rows_.row_entry_first[i]; e < rows_.row_entry_first[i + 1]; ++e) {
    const int node = rows_.entry_node[e];
    if (condensation_ && node >= model_.body_count) {  // H̃⁻¹ estimated by 1/H̃_kk
      const Vec6& jac = rows_.entry_jac[e];
      const int dof = 3 * (node - model_.body_count);
      for (int k = 0; k < 3; ++k) d += jac[k] * jac[k] * condensation_->particle_inv_diagonal(dof + k);
      continue;
    }
    add_inverse_mass_quadratic(inv_mass, node, rows_.entry_jac[e], d);
  }
  return d;
}

void SchurSystem::diagonal(VecX& out) const {
  parallel_for(rows_.count, [&](int i) { out[i] = diagonal_row(i); });
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
