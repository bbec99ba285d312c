#include "solver/elastic_condensation.hpp"

#include <Eigen/OrderingMethods>
#include <algorithm>
#include <cmath>

#include "solver/schur_system.hpp"

namespace sim {

namespace {

int particle_of_node(const Model& m, int node) { return node - m.body_count; }

bool is_free_particle(const InverseMass& im, int p) { return im.particle_inv_mass[3 * p] > 0; }

// Value index of row `row` in column `col` of a compressed column-major matrix (the entry exists).
int value_index(const Eigen::SparseMatrix<Real, Eigen::ColMajor, int>& a, int row, int col) {
  const int* inner = a.innerIndexPtr();
  const int* first = inner + a.outerIndexPtr()[col];
  const int* last = inner + a.outerIndexPtr()[col + 1];
  return static_cast<int>(std::lower_bound(first, last, row) - inner);
}

}  // namespace

void ElasticCondensation::meet_condensed_rows(RowSet& rows) {
  auto meet = [&](int first, int last) {
    for (int i = first; i < last; ++i)
      if (rows.row_compliance[i] > 0) rows.row_lambda[i] = -rows.row_value[i] / rows.row_compliance[i];
  };
  meet(rows.first_tet, rows.first_attachment);
  meet(rows.first_membrane, rows.first_drive);
}

bool ElasticCondensation::supernodal_wanted(ElasticFactorization which, int dofs) {
  if (!SupernodalFactor::available()) return false;
  return which == ElasticFactorization::Supernodal || (which == ElasticFactorization::Auto && dofs >= kSupernodalDofs);
}

bool ElasticCondensation::same_structure(const Model& m, const RowSet& rows, const InverseMass& im,
                                         ElasticFactorization which) const {
  if (which != analysed_for_) return false;
  std::size_t k = 0;
  auto next = [&](int v) { return k < signature_.size() && signature_[k++] == v; };
  for (int i = 0; i < rows.count; ++i) {
    if (!condensable(rows, i)) continue;
    if (!next(-1 - i)) return false;
    for (int e = rows.row_entry_first[i]; e < rows.row_entry_first[i + 1]; ++e)
      if (!next(rows.entry_node[e])) return false;
  }
  for (int p = 0; p < m.particle_count; ++p)
    if (!next(is_free_particle(im, p) ? 1 : 0)) return false;
  return k == signature_.size() && analysed_;
}

void ElasticCondensation::build_structure(const Model& m, const RowSet& rows, const InverseMass& im,
                                          ElasticFactorization which) {
  analysed_for_ = which;
  signature_.clear();
  condensed_rows_.clear();
  for (int i = 0; i < rows.count; ++i) {
    if (!condensable(rows, i)) continue;
    condensed_rows_.push_back(i);
    signature_.push_back(-1 - i);
    for (int e = rows.row_entry_first[i]; e < rows.row_entry_first[i + 1]; ++e) signature_.push_back(rows.entry_node[e]);
  }
  for (int p = 0; p < m.particle_count; ++p) signature_.push_back(is_free_particle(im, p) ? 1 : 0);

  // The free particles the condensed rows touch, and their coupling graph.
  std::vector<int> local(m.particle_count, -1);
  std::vector<int> particles;
  auto free_particle_of_entry = [&](int e) {
    const int node = rows.entry_node[e];
    if (node < m.body_count) return -1;
    const int p = particle_of_node(m, node);
    return is_free_particle(im, p) ? p : -1;
  };
  for (int i : condensed_rows_)
    for (int e = rows.row_entry_first[i]; e < rows.row_entry_first[i + 1]; ++e)
      if (const int p = free_particle_of_entry(e); p >= 0 && local[p] < 0) {
        local[p] = static_cast<int>(particles.size());
        particles.push_back(p);
      }
  const int n = static_cast<int>(particles.size());
  std::vector<Eigen::Triplet<int>> graph;
  for (int a = 0; a < n; ++a) graph.emplace_back(a, a, 1);
  for (int i : condensed_rows_)
    for (int e = rows.row_entry_first[i]; e < rows.row_entry_first[i + 1]; ++e)
      for (int f = e + 1; f < rows.row_entry_first[i + 1]; ++f) {
        const int pe = free_particle_of_entry(e), pf = free_particle_of_entry(f);
        if (pe < 0 || pf < 0) continue;
        graph.emplace_back(local[pe], local[pf], 1);
        graph.emplace_back(local[pf], local[pe], 1);
      }
  Eigen::SparseMatrix<int, Eigen::ColMajor, int> pattern(n, n);
  pattern.setFromTriplets(graph.begin(), graph.end());
  // Fill-reducing order of the particles (blocks of 3 dofs stay together): perm[new] = old.
  Eigen::PermutationMatrix<Eigen::Dynamic, Eigen::Dynamic, int> perm;
  Eigen::AMDOrdering<int>()(pattern, perm);
  new_of_particle_.assign(m.particle_count, -1);
  particle_of_new_.resize(n);
  for (int a = 0; a < n; ++a) {
    const int p = particles[perm.indices()[a]];
    particle_of_new_[a] = p;
    new_of_particle_[p] = a;
  }

  // H̃'s upper triangle in that order: a 3×3 block per coupled pair, the diagonal blocks' upper halves.
  std::vector<Eigen::Triplet<Real>> blocks;
  auto add_block = [&](int a, int b) {  // a <= b
    for (int k = 0; k < 3; ++k)
      for (int r = 0; r < 3; ++r)
        if (a < b || r <= k) blocks.emplace_back(3 * a + r, 3 * b + k, Real(0));
  };
  for (int a = 0; a < n; ++a) add_block(a, a);
  pair_first_.clear();
  pair_cols_.clear();
  pair_kind_.clear();
  struct Pair {
    int a, b;
  };
  std::vector<Pair> pairs;
  for (int i : condensed_rows_) {
    pair_first_.push_back(static_cast<int>(pairs.size()));
    for (int e = rows.row_entry_first[i]; e < rows.row_entry_first[i + 1]; ++e)
      for (int f = e; f < rows.row_entry_first[i + 1]; ++f) {
        const int pe = free_particle_of_entry(e), pf = free_particle_of_entry(f);
        const int a = pe < 0 || pf < 0 ? -1 : std::min(new_of_particle_[pe], new_of_particle_[pf]);
        const int b = pe < 0 || pf < 0 ? -1 : std::max(new_of_particle_[pe], new_of_particle_[pf]);
        pairs.push_back({a, b});
        if (a >= 0 && a != b) add_block(a, b);
      }
  }
  pair_first_.push_back(static_cast<int>(pairs.size()));
  h_.resize(3 * n, 3 * n);
  h_.setFromTriplets(blocks.begin(), blocks.end());
  h_.makeCompressed();
  diag_pos_.resize(3 * n);
  for (int d = 0; d < 3 * n; ++d) diag_pos_[d] = value_index(h_, d, d);
  pair_cols_.resize(3 * pairs.size());
  pair_kind_.resize(pairs.size());
  for (std::size_t q = 0; q < pairs.size(); ++q) {
    const auto [a, b] = pairs[q];
    pair_kind_[q] = a < 0 ? std::int8_t(-1) : a == b ? std::int8_t(1) : std::int8_t(0);
    for (int k = 0; k < 3; ++k) pair_cols_[3 * q + k] = a < 0 ? -1 : value_index(h_, 3 * a, 3 * b + k);
  }
  supernodal_ = supernodal_wanted(which, 3 * n) && supernodal_factor_.analyse(h_);
  if (!supernodal_) ldlt_.analyzePattern(h_);
  analysed_ = true;
  work_.resize(3 * n);
  inv_diagonal_.assign(3 * m.particle_count, Real(0));
}

bool ElasticCondensation::factor(const Model& m, const RowSet& rows, const InverseMass& im, Real epsilon,
                                 ElasticFactorization which) {
  for (int i = 0; i < rows.count; ++i)
    if (condensable(rows, i) && !(rows.row_diag_c[i] + epsilon > 0)) return false;
  for (int i = 0; i < rows.count; ++i) {
    if (!condensable(rows, i)) continue;
    for (int e = rows.row_entry_first[i]; e < rows.row_entry_first[i + 1]; ++e)
      if (rows.entry_node[e] < m.body_count) return false;  // a body in an elastic row: not condensed
  }
  if (!same_structure(m, rows, im, which)) build_structure(m, rows, im, which);
  inv_mass_ = &im;
  Real* value = h_.valuePtr();
  std::fill(value, value + h_.nonZeros(), Real(0));
  const int n = static_cast<int>(particle_of_new_.size());
  for (int a = 0; a < n; ++a)
    for (int k = 0; k < 3; ++k) value[diag_pos_[3 * a + k]] = Real(1) / im.particle_inv_mass[3 * particle_of_new_[a] + k];
  // + J_Eᵀ C_E⁻¹ J_E, row by row in a fixed order (deterministic).
  for (std::size_t c = 0; c < condensed_rows_.size(); ++c) {
    const int i = condensed_rows_[c];
    const Real w = Real(1) / (rows.row_diag_c[i] + epsilon);
    int q = pair_first_[c];
    for (int e = rows.row_entry_first[i]; e < rows.row_entry_first[i + 1]; ++e)
      for (int f = e; f < rows.row_entry_first[i + 1]; ++f, ++q) {
        if (pair_kind_[q] < 0) continue;
        const Vec6& ge = rows.entry_jac[e];
        const Vec6& gf = rows.entry_jac[f];
        if (pair_kind_[q] == 1) {  // same particle: the block's upper half, symmetrised
          for (int k = 0; k < 3; ++k)
            for (int r = 0; r <= k; ++r)
              value[pair_cols_[3 * q + k] + r] += w * (e == f ? ge[r] * ge[k] : ge[r] * gf[k] + gf[r] * ge[k]);
          continue;
        }
        // Off-diagonal block (a < b): rows of the lower-ordered particle, columns of the other.
        const bool e_first = new_of_particle_[particle_of_node(m, rows.entry_node[e])] <
                             new_of_particle_[particle_of_node(m, rows.entry_node[f])];
        const Vec6& ga = e_first ? ge : gf;
        const Vec6& gb = e_first ? gf : ge;
        for (int k = 0; k < 3; ++k)
          for (int r = 0; r < 3; ++r) value[pair_cols_[3 * q + k] + r] += w * ga[r] * gb[k];
      }
  }
  std::copy(im.particle_inv_mass.begin(), im.particle_inv_mass.end(), inv_diagonal_.begin());
  for (int a = 0; a < n; ++a)
    for (int k = 0; k < 3; ++k) inv_diagonal_[3 * particle_of_new_[a] + k] = Real(1) / value[diag_pos_[3 * a + k]];
  if (supernodal_) return supernodal_factor_.factorise(h_);  // checks finiteness and every pivot
  ldlt_.factorize_natural(h_);
  if (ldlt_.info() != Eigen::Success) return false;
  const VecX& d = ldlt_.diagonal();
  for (int k = 0; k < d.size(); ++k)
    if (!(d[k] > 0) || !std::isfinite(d[k])) return false;
  return true;
}

void ElasticCondensation::solve_particles(const Model& m, const VecX& in, VecX& out) const {
  const int first = 6 * m.body_count;
  for (int p = 0; p < m.particle_count; ++p)
    if (new_of_particle_[p] < 0)
      for (int k = 0; k < 3; ++k) out[first + 3 * p + k] = inv_mass_->particle_inv_mass[3 * p + k] * in[first + 3 * p + k];
  const int n = static_cast<int>(particle_of_new_.size());
  for (int a = 0; a < n; ++a)
    for (int k = 0; k < 3; ++k) work_[3 * a + k] = in[first + 3 * particle_of_new_[a] + k];
  if (supernodal_) {
    supernodal_factor_.solve_in_place(work_);
  } else {
    ldlt_.matrixL().solveInPlace(work_);
    work_.array() /= ldlt_.diagonal().array();
    ldlt_.matrixU().solveInPlace(work_);
  }
  for (int a = 0; a < n; ++a)
    for (int k = 0; k < 3; ++k) out[first + 3 * particle_of_new_[a] + k] = work_[3 * a + k];
}

}  // namespace sim
