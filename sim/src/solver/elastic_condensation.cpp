#include "solver/elastic_condensation.hpp"

#include <Eigen/OrderingMethods>
#include <algorithm>
#include <cmath>
#include <limits>

#include <Eigen/Eigenvalues>

#include "constraint/shell_rows.hpp"
#include "constraint/tet_rows.hpp"
#include "core/parallel.hpp"
#include "kernels/element_curvature_kernel.hpp"
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

// The corner count of an element of kind 0 tet, 1 membrane triangle, 2 hinge.
int element_node_count(int kind) { return kind == 1 ? 3 : 4; }

// The corner particles of element `e` (kind 0 tet, 1 membrane triangle, 2 hinge); returns their count.
int element_particles(const Model& m, int kind, int index, int out[4]) {
  const int count = element_node_count(kind);
  const int* first = kind == 0 ? &m.tet_particle[4 * index]
                     : kind == 1 ? &m.membrane_particle[3 * index]
                                 : &m.hinge_particle[4 * index];
  for (int k = 0; k < count; ++k) out[k] = first[k];
  return count;
}

constexpr int kElementBlock = 144;  // the largest element matrix, 12 × 12

// The matrix projected onto the positive semi-definite cone (negative eigenvalues set to 0).
template <int Nodes>
void project_positive(ElementMatrix<Nodes>& a) {
  // Semi-definite already (the usual stretched element; rigid motions are its null space): kept.
  const Eigen::LDLT<ElementMatrix<Nodes>> ldlt(a);
  if (ldlt.info() == Eigen::Success && ldlt.vectorD().minCoeff() >= -Real(1e-12) * a.diagonal().cwiseAbs().maxCoeff())
    return;
  Eigen::SelfAdjointEigenSolver<ElementMatrix<Nodes>> eigen(a);
  if (eigen.info() != Eigen::Success) {
    a.setZero();
    return;
  }
  if (eigen.eigenvalues().minCoeff() >= 0) return;
  a = eigen.eigenvectors() * eigen.eigenvalues().cwiseMax(Real(0)).asDiagonal() * eigen.eigenvectors().transpose();
}

// h² P(−Σ λ ∂²m/∂x²) of one element into `out` (column-major, 3 Nodes square).
template <int Nodes, class View, class Gradient>
void element_block(const View& view, const ConfigurationView& at, const int* particles, int index, const Real* lambda,
                   Gradient gradient, Real h, Real* out) {
  Vec3 x[Nodes];
  for (int k = 0; k < Nodes; ++k) x[k] = at.particle_position[particles[k]];
  ElementMatrix<Nodes> c;
  element_curvature<Nodes>(view, x, index, lambda, gradient, c);
  project_positive<Nodes>(c);
  Eigen::Map<ElementMatrix<Nodes>> result(out);
  result = (h * h) * c;
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

int ElasticCondensation::first_distance_row(const Model& m, const RowSet& rows) {
  if (m.distance_count == 0 || static_cast<int>(rows.joint_bilateral_first.size()) != m.joint_count + 1) return -1;
  const int first = rows.joint_bilateral_first[m.joint_count];
  return rows.first_tet - first == m.distance_count ? first : -1;
}

int ElasticCondensation::find_rope_links(const Model& m, const RowSet& rows) {
  rope_links_.clear();
  if (first_distance_row(m, rows) < 0) return 0;
  link_degree_.assign(static_cast<std::size_t>(m.particle_count), 0);
  for (int i = 0; i < m.distance_count; ++i) {
    ++link_degree_[static_cast<std::size_t>(m.distance_particle_a[i])];
    ++link_degree_[static_cast<std::size_t>(m.distance_particle_b[i])];
  }
  for (int i = 0; i < m.distance_count; ++i)
    if (link_degree_[static_cast<std::size_t>(m.distance_particle_a[i])] <= 2 &&
        link_degree_[static_cast<std::size_t>(m.distance_particle_b[i])] <= 2)
      rope_links_.push_back(i);
  return static_cast<int>(rope_links_.size());
}

bool ElasticCondensation::supernodal_wanted(ElasticFactorization which, int dofs) {
  if (!SupernodalFactor::available()) return false;
  return which == ElasticFactorization::Supernodal || (which == ElasticFactorization::Auto && dofs >= kSupernodalDofs);
}

bool ElasticCondensation::same_structure(const Model& m, const RowSet& rows, const InverseMass& im,
                                         ElasticFactorization which, const Curvature* curvature) const {
  if (which != analysed_for_) return false;
  const bool links = curvature && curvature->ropes && !rope_links_.empty();
  if (links != links_analysed_ || (curvature && curvature->elements) != elements_exact_) return false;
  if (links) {
    if (links_.size() != rope_links_.size()) return false;
    const int first = first_distance_row(m, rows);
    for (std::size_t k = 0; k < links_.size(); ++k)
      if (links_[k].index != rope_links_[k] || links_[k].row != first + rope_links_[k]) return false;
  }
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
                                          ElasticFactorization which, const Curvature* curvature) {
  analysed_for_ = which;
  links_analysed_ = curvature && curvature->ropes && !rope_links_.empty();
  elements_exact_ = curvature && curvature->elements;
  links_.clear();
  if (links_analysed_)
    for (const int i : rope_links_) links_.push_back({i, first_distance_row(m, rows) + i, 0});
  signature_.clear();
  condensed_rows_.clear();
  for (int i = 0; i < rows.count; ++i) {
    if (!condensable(rows, i)) continue;
    condensed_rows_.push_back(i);
    signature_.push_back(-1 - i);
    for (int e = rows.row_entry_first[i]; e < rows.row_entry_first[i + 1]; ++e) signature_.push_back(rows.entry_node[e]);
  }
  for (int p = 0; p < m.particle_count; ++p) signature_.push_back(is_free_particle(im, p) ? 1 : 0);
  // The elements whose rows are all here (a row set laid out otherwise has no curvature term).
  elements_.clear();
  auto add_elements = [&](std::int8_t kind, int count, int rows_each, int first_row, int end_row) {
    if (end_row - first_row != count * rows_each) return;
    for (int i = 0; i < count; ++i) elements_.push_back({kind, i, first_row + rows_each * i, 0, false});
  };
  add_elements(0, m.tet_count, kTetRows, rows.first_tet, rows.first_attachment);
  add_elements(1, m.membrane_count, kMembraneRows, rows.first_membrane, rows.first_bending);
  // The bending rows' curvature is their hinges' (m is linear in the hinge angles): one element
  // per hinge, with the multiplier Σ_r λ_r w_r,j of the rows it is in (add_curvature).
  if (rows.first_drive - rows.first_bending == m.bending_count)
    for (int i = 0; i < m.hinge_count; ++i) elements_.push_back({2, i, -1, 0, false});
  hinge_lambda_.assign(static_cast<std::size_t>(m.hinge_count), Real(0));

  // The free particles the condensed rows touch, and their coupling graph.
  std::vector<int> local(m.particle_count, -1);
  std::vector<int> particles;
  auto free_particle_of_entry = [&](int e) {
    const int node = rows.entry_node[e];
    if (node < m.body_count) return -1;
    const int p = particle_of_node(m, node);
    return is_free_particle(im, p) ? p : -1;
  };
  // in_secant_link: the particle is in a distance row whose curvature is not in H̃ (the secant's).
  std::vector<std::int8_t> in_condensed(m.particle_count, 0), in_secant_link(m.particle_count, 0);
  auto add_particle = [&](int p) {
    if (local[p] >= 0) return;
    local[p] = static_cast<int>(particles.size());
    particles.push_back(p);
  };
  for (int i : condensed_rows_)
    for (int e = rows.row_entry_first[i]; e < rows.row_entry_first[i + 1]; ++e)
      if (const int p = free_particle_of_entry(e); p >= 0) {
        add_particle(p);
        in_condensed[p] = 1;
      }
  for (const Link& link : links_)
    for (const int p : {m.distance_particle_a[link.index], m.distance_particle_b[link.index]})
      if (is_free_particle(im, p)) add_particle(p);
  {
    std::vector<std::int8_t> exact_link(m.distance_count, 0);
    for (const Link& link : links_) exact_link[link.index] = 1;
    for (int i = 0; i < m.distance_count; ++i)
      if (!exact_link[i]) in_secant_link[m.distance_particle_a[i]] = in_secant_link[m.distance_particle_b[i]] = 1;
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
  auto element_free_locals = [&](const Element& el, int out[4]) {
    int corners[4];
    const int count = element_particles(m, el.kind, el.index, corners);
    for (int k = 0; k < count; ++k) out[k] = is_free_particle(im, corners[k]) && local[corners[k]] >= 0 ? local[corners[k]] : -1;
    return count;
  };
  for (const Element& el : elements_) {
    int at[4];
    const int count = element_free_locals(el, at);
    for (int a = 0; a < count; ++a)
      for (int b = a + 1; b < count; ++b)
        if (at[a] >= 0 && at[b] >= 0) {
          graph.emplace_back(at[a], at[b], 1);
          graph.emplace_back(at[b], at[a], 1);
        }
  }
  auto link_free_locals = [&](const Link& link, int out[2]) {
    const int ends[2] = {m.distance_particle_a[link.index], m.distance_particle_b[link.index]};
    for (int k = 0; k < 2; ++k) out[k] = is_free_particle(im, ends[k]) ? local[ends[k]] : -1;
  };
  for (const Link& link : links_) {
    int at[2];
    link_free_locals(link, at);
    if (at[0] >= 0 && at[1] >= 0 && at[0] != at[1]) {
      graph.emplace_back(at[0], at[1], 1);
      graph.emplace_back(at[1], at[0], 1);
    }
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
  std::vector<Pair> element_pairs;  // in factor order, -1 where a node is pinned
  element_pair_kind_.clear();
  // The node pairs (a <= b, local order) of an element or link whose free nodes' locals are `at`.
  auto add_node_pairs = [&](const int* at, int count) {
    for (int a = 0; a < count; ++a)
      for (int b = a; b < count; ++b) {
        const int na = at[a] < 0 ? -1 : new_of_particle_[particles[at[a]]];
        const int nb = at[b] < 0 ? -1 : new_of_particle_[particles[at[b]]];
        if (na < 0 || nb < 0) {
          element_pairs.push_back({-1, -1});
          element_pair_kind_.push_back(-1);
          continue;
        }
        element_pairs.push_back({std::min(na, nb), std::max(na, nb)});
        element_pair_kind_.push_back(na == nb ? std::int8_t(1) : na < nb ? std::int8_t(0) : std::int8_t(2));
        if (na != nb) add_block(std::min(na, nb), std::max(na, nb));
      }
  };
  for (Element& el : elements_) {
    el.first_pair = static_cast<int>(element_pairs.size());
    int at[4];
    add_node_pairs(at, element_free_locals(el, at));
  }
  for (Link& link : links_) {
    link.first_pair = static_cast<int>(element_pairs.size());
    int at[2];
    link_free_locals(link, at);
    add_node_pairs(at, 2);
  }
  // Diagonal M (no secant shift) where every curvature source of the particle is exact.
  exact_.assign(n, 0);
  if (curvature)
    for (int a = 0; a < n; ++a) {
      const int p = particle_of_new_[a];
      exact_[a] = (!in_condensed[p] || elements_exact_) && !in_secant_link[p] ? 1 : 0;
    }
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
  element_cols_.resize(3 * element_pairs.size());
  for (std::size_t q = 0; q < element_pairs.size(); ++q) {
    const auto [a, b] = element_pairs[q];
    for (int k = 0; k < 3; ++k) element_cols_[3 * q + k] = a < 0 ? -1 : value_index(h_, 3 * a, 3 * b + k);
  }
  element_blocks_.clear();  // sized by the first add_curvature (none without the option: 1.1 kB a tet)
  supernodal_ = supernodal_wanted(which, 3 * n) && supernodal_factor_.analyse(h_);
  if (!supernodal_) ldlt_.analyzePattern(h_);
  analysed_ = true;
  work_.resize(3 * n);
  inv_diagonal_.assign(3 * m.particle_count, Real(0));
}

bool ElasticCondensation::factor(const Model& m, const RowSet& rows, const InverseMass& im, Real epsilon,
                                 ElasticFactorization which, const Curvature* curvature) {
  for (int i = 0; i < rows.count; ++i)
    if (condensable(rows, i) && !(rows.row_diag_c[i] + epsilon > 0)) return false;
  for (int i = 0; i < rows.count; ++i) {
    if (!condensable(rows, i)) continue;
    for (int e = rows.row_entry_first[i]; e < rows.row_entry_first[i + 1]; ++e)
      if (rows.entry_node[e] < m.body_count) return false;  // a body in an elastic row: not condensed
  }
  if (!same_structure(m, rows, im, which, curvature)) build_structure(m, rows, im, which, curvature);
  inv_mass_ = &im;
  Real* value = h_.valuePtr();
  std::fill(value, value + h_.nonZeros(), Real(0));
  const int n = static_cast<int>(particle_of_new_.size());
  // M (+ the secant's diagonal shift, eqs. 71-74, where the exact curvature is not added: the two
  // would count the elements' or links' curvature twice).
  for (int a = 0; a < n; ++a) {
    const int p = particle_of_new_[a];
    for (int k = 0; k < 3; ++k)
      value[diag_pos_[3 * a + k]] = Real(1) / (exact_[a] ? m.particle_inv_mass[p] : im.particle_inv_mass[3 * p + k]);
  }
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
  if (curvature && elements_exact_) add_curvature(m, rows, *curvature);
  if (curvature && links_analysed_) add_link_curvature(m, rows, *curvature);
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

void ElasticCondensation::add_curvature(const Model& m, const RowSet& rows, const Curvature& curvature) {
  const TetView tets = tet_view(m);
  const MembraneView tris = membrane_view(m);
  const HingeView hinges = hinge_view(m);
  // Each hinge's multiplier from the bending rows (kernels/bending_row_kernel.hpp): λ ∂²m/∂x² of
  // m = Σ_j w_j θ_j is Σ_j (λ w_j) ∂²θ_j.
  std::fill(hinge_lambda_.begin(), hinge_lambda_.end(), Real(0));
  for (int r = 0; r < m.bending_count && rows.first_drive - rows.first_bending == m.bending_count; ++r)
    for (int j = 0; j < kBendingHinges; ++j)
      if (const int hinge = m.bending_hinge[kBendingHinges * r + j]; hinge >= 0)
        hinge_lambda_[static_cast<std::size_t>(hinge)] +=
            rows.row_lambda[rows.first_bending + r] * m.bending_weight[kBendingHinges * r + j];
  // Each element's projected matrix in parallel, then added in a fixed order (deterministic).
  const Real h2 = curvature.h * curvature.h;
  if (element_blocks_.size() < kElementBlock * elements_.size()) element_blocks_.resize(kElementBlock * elements_.size());
  parallel_for(static_cast<int>(elements_.size()), [&](int k) {
    Element& el = elements_[k];
    const Real* lambda = el.kind == 2 ? &hinge_lambda_[static_cast<std::size_t>(el.index)] : rows.row_lambda.data() + el.first_row;
    Real* out = element_blocks_.data() + kElementBlock * k;
    // Skipped where it cannot matter: h² Σ |λ_k| ‖∇m_k‖² (the size of h²λ∇²m, as ∇²m ~ ‖∇m‖² for
    // these measures) below 10⁻⁴ of the element's lightest free corner mass (a nearly unstressed
    // element: a mass-matrix change of 0.01% moves no Newton iterate).
    Real size = 0;
    if (el.kind == 2) {
      Vec3 x[4];
      hinge_positions(hinges, curvature.at, el.index, x);
      HingeAngle a;
      hinge_angle(x[0], x[1], x[2], x[3], a);
      for (const Vec3& g : a.grad) size += std::abs(lambda[0]) * g.squaredNorm();
    } else {
      const int row_count = el.kind == 0 ? kTetRows : kMembraneRows;
      for (int r = el.first_row; r < el.first_row + row_count; ++r) {
        Real g2 = 0;
        for (int e = rows.row_entry_first[r]; e < rows.row_entry_first[r + 1]; ++e) g2 += rows.entry_grad[e].squaredNorm();
        size += std::abs(rows.row_lambda[r]) * g2;
      }
    }
    int corners[4];
    const int count = element_particles(m, el.kind, el.index, corners);
    Real lightest = std::numeric_limits<Real>::infinity();
    for (int c = 0; c < count; ++c)
      if (m.particle_inv_mass[corners[c]] > 0) lightest = std::min(lightest, Real(1) / m.particle_inv_mass[corners[c]]);
    el.skipped = !(h2 * size >= Real(1e-4) * lightest);
    if (el.skipped) return;
    if (el.kind == 0)
      element_block<4>(tets, curvature.at, &m.tet_particle[4 * el.index], el.index, lambda,
                       tet_weighted_gradient, curvature.h, out);
    else if (el.kind == 1)
      element_block<3>(tris, curvature.at, &m.membrane_particle[3 * el.index], el.index, lambda,
                       membrane_weighted_gradient, curvature.h, out);
    else
      element_block<4>(hinges, curvature.at, &m.hinge_particle[4 * el.index], el.index, lambda,
                       hinge_weighted_gradient, curvature.h, out);
  });
  for (std::size_t k = 0; k < elements_.size(); ++k) {
    const Element& el = elements_[k];
    if (!el.skipped) add_element_matrix(element_blocks_.data() + kElementBlock * k, element_node_count(el.kind), el.first_pair);
  }
}

void ElasticCondensation::add_element_matrix(const Real* block, int count, int first_pair) {
  Real* value = h_.valuePtr();
  const int stride = 3 * count;  // column-major, 3 count rows
  int q = first_pair;
  for (int a = 0; a < count; ++a)
    for (int b = a; b < count; ++b, ++q) {
      const std::int8_t kind = element_pair_kind_[q];
      if (kind < 0) continue;
      // H̃'s block (first, second) in factor order: rows of the node ordered first.
      const int first = kind == 2 ? b : a, second = kind == 2 ? a : b;
      for (int c = 0; c < 3; ++c)
        for (int r = 0; r < (kind == 1 ? c + 1 : 3); ++r)
          value[element_cols_[3 * q + c] + r] += block[(3 * second + c) * stride + 3 * first + r];
    }
}

// Eq. 53's K of one rope link, a distance row C = |x_b − x_a| − L (constraint/distance_rows.hpp):
// ∂²C/∂x_a² = ∂²C/∂x_b² = (I − nnᵀ)/l, ∂²C/∂x_a∂x_b = −(I − nnᵀ)/l, so −λ∂²C/∂x² =
// s [P, −P; −P, P] with s = −λ/l and P = I − nnᵀ. Its eigenvalues are 2s (twice, across the link) and 0: positive
// semi-definite exactly when s >= 0 (tension), else projected to 0. Serial and in row order (a
// few flops a link; deterministic).
void ElasticCondensation::add_link_curvature(const Model& m, const RowSet& rows, const Curvature& curvature) {
  const Real h2 = curvature.h * curvature.h;
  for (const Link& link : links_) {
    const Vec3 d = curvature.at.particle_position[m.distance_particle_b[link.index]] -
                   curvature.at.particle_position[m.distance_particle_a[link.index]];
    const Real l = d.norm();
    const Real s = -rows.row_lambda[link.row] / l;
    if (!(l > Real(1e-12)) || !(s > 0) || !std::isfinite(s)) continue;
    const Vec3 n = d / l;
    const Mat3 k = (h2 * s) * (Mat3::Identity() - n * n.transpose());
    ElementMatrix<2> block;
    block << k, -k, -k, k;
    add_element_matrix(block.data(), 2, link.first_pair);
  }
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
