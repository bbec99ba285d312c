#include "solver/sparse_schur_factor.hpp"

#include <Eigen/OrderingMethods>
#include <algorithm>

namespace sim {

namespace {

int node_count(const Model& m) { return m.body_count + m.particle_count; }

// Visits every pair (a, b), b <= a, of entries on one node (positions in the node's entry list).
template <class F>
void for_each_node_pair(const NodeEntriesView& adj, int nodes, F&& visit) {
  for (int node = 0; node < nodes; ++node) {
    const int first = adj.node_entry_first[node], last = adj.node_entry_first[node + 1];
    for (int a = first; a < last; ++a)
      for (int b = first; b <= a; ++b) visit(node, a, b);
  }
}

}  // namespace

bool SparseSchurFactor::same_pattern(const RowSet& rows, int entries) const {
  if (rows.count != rows_ || entries != static_cast<int>(key_entry_row_.size())) return false;
  return std::equal(key_entry_row_.begin(), key_entry_row_.end(), rows.entry_row.begin()) &&
         std::equal(key_entry_node_.begin(), key_entry_node_.end(), rows.entry_node.begin());
}

// The AMD ordering of the rows before the contacts (Eigen's, on the pattern of A restricted to
// them): position_[i] for i < first_normal. Allocates; runs when those rows' nodes change.
void SparseSchurFactor::order_head(const SchurSystem& A) {
  const RowSet& rows = A.rows();
  const int head = rows.first_normal;
  const int head_entries = rows.row_entry_first[head];
  head_rows_ = head;
  head_entry_row_.assign(rows.entry_row.begin(), rows.entry_row.begin() + head_entries);
  head_entry_node_.assign(rows.entry_node.begin(), rows.entry_node.begin() + head_entries);
  if (head == 0) return;
  const NodeEntriesView adj = A.node_entries();
  std::vector<Eigen::Triplet<Real>> pattern;
  for_each_node_pair(adj, node_count(A.model()), [&](int, int a, int b) {
    const int ra = adj.node_entry_rows[a], rb = adj.node_entry_rows[b];
    if (ra < head && rb < head) pattern.emplace_back(ra, rb, Real(1));
  });
  for (int i = 0; i < head; ++i) pattern.emplace_back(i, i, Real(1));
  OrderedUpper unordered(head, head);
  unordered.setFromTriplets(pattern.begin(), pattern.end());
  Eigen::PermutationMatrix<Eigen::Dynamic, Eigen::Dynamic, int> amd;  // amd.indices()[new] = old
  Eigen::AMDOrdering<int>()(unordered, amd);
  if (static_cast<int>(position_.size()) < head) position_.resize(head);
  for (int k = 0; k < head; ++k) position_[amd.indices()[k]] = k;
}

// The pattern of A: A_ij ≠ 0 where rows i and j have entries on a common node (and i = j),
// ordered (the head's AMD order, then the contacts, then the identity padding), upper triangle,
// compressed columns; the value slot of every node pair of entries; Eigen's symbolic analysis.
// After the largest pattern has been seen, reuses every buffer.
void SparseSchurFactor::analyse(const SchurSystem& A) {
  const Model& m = A.model();
  const RowSet& rows = A.rows();
  const NodeEntriesView adj = A.node_entries();
  const int n = rows.count;
  const int entries = rows.entry_count;
  const int nodes = node_count(m);
  ++analyses_;
  const int head = rows.first_normal;
  const int head_entries = rows.row_entry_first[head];
  const bool head_same = head == head_rows_ && head_entries == static_cast<int>(head_entry_row_.size()) &&
                         std::equal(head_entry_row_.begin(), head_entry_row_.end(), rows.entry_row.begin()) &&
                         std::equal(head_entry_node_.begin(), head_entry_node_.end(), rows.entry_node.begin());
  if (!head_same) order_head(A);
  rows_ = n;
  key_entry_row_.assign(rows.entry_row.begin(), rows.entry_row.begin() + entries);
  key_entry_node_.assign(rows.entry_node.begin(), rows.entry_node.begin() + entries);
  if (n > capacity_) capacity_ = std::max(16, n + n / 2);
  const int size = capacity_;
  if (static_cast<int>(position_.size()) < size) position_.resize(size);
  for (int i = head; i < size; ++i) position_[i] = i;

  // (col, row) keys of the ordered upper triangle, sorted and unique: the compressed columns.
  auto key = [&](int row_a, int row_b) { return upper_key(position_[row_a], position_[row_b], size); };
  pattern_.clear();
  for_each_node_pair(adj, nodes, [&](int, int a, int b) { pattern_.push_back(key(adj.node_entry_rows[a], adj.node_entry_rows[b])); });
  for (int i = 0; i < size; ++i) pattern_.push_back(key(i, i));
  compress_upper_pattern(pattern_, size, upper_);
  auto slot_of = [&](int row_a, int row_b) { return upper_slot(pattern_, key(row_a, row_b)); };
  pair_slot_.clear();
  int widest = 0;
  for_each_node_pair(adj, nodes, [&](int node, int a, int b) {
    widest = std::max(widest, adj.node_entry_first[node + 1] - adj.node_entry_first[node]);
    pair_slot_.push_back(slot_of(adj.node_entry_rows[a], adj.node_entry_rows[b]));
  });
  if (static_cast<int>(diagonal_slot_.size()) < size) diagonal_slot_.resize(size);
  for (int i = 0; i < size; ++i) diagonal_slot_[i] = slot_of(i, i);
  if (static_cast<int>(hinv_jt_.size()) < widest) hinv_jt_.resize(widest);
  if (ordered_b_.size() != size) {
    ordered_b_.resize(size);
    ordered_x_.resize(size);
  }
  ldlt_.analyse_ordered(upper_);
  ldlt_.keep_room();
}

// A's values into the kept pattern: per node, H⁻¹ J_bᵀ for each of its entries, then
// J_a · H⁻¹ J_bᵀ for every pair b <= a (the node's share of A_ij, eq. 59); then C_ii + ε, and 1
// on the padding rows. Sequential: two nodes add to the same A_ij when rows i and j both join them.
void SparseSchurFactor::assemble(const SchurSystem& A) {
  const Model& m = A.model();
  const RowSet& rows = A.rows();
  const NodeEntriesView adj = A.node_entries();
  Real* value = upper_.valuePtr();
  std::fill(value, value + upper_.nonZeros(), Real(0));
  const int* slot = pair_slot_.data();
  for (int node = 0; node < node_count(m); ++node) {
    const int first = adj.node_entry_first[node], last = adj.node_entry_first[node + 1];
    const int width = node_width(m, node);
    for (int a = first; a < last; ++a) {
      Vec6& w = hinv_jt_[a - first];
      w.setZero();
      A.inverse_mass().apply_node(m, node, rows.entry_jac[adj.node_entries[a]].data(), w.data());
    }
    for (int a = first; a < last; ++a) {
      const Vec6& ja = rows.entry_jac[adj.node_entries[a]];
      for (int b = first; b <= a; ++b) {
        const Vec6& wb = hinv_jt_[b - first];
        Real sum = 0;
        for (int k = 0; k < width; ++k) sum += ja[k] * wb[k];
        // Two entries of one row on this node: A_ii holds both J_a H⁻¹ J_bᵀ and its transpose.
        const bool same_row_pair = b != a && adj.node_entry_rows[a] == adj.node_entry_rows[b];
        value[*slot++] += same_row_pair ? 2 * sum : sum;
      }
    }
  }
  for (int i = 0; i < rows.count; ++i) value[diagonal_slot_[i]] += A.diag_c(i);
  for (int i = rows.count; i < capacity_; ++i) value[diagonal_slot_[i]] = 1;
}

bool SparseSchurFactor::prepare(const SchurSystem& A) {
  if (same_pattern(A.rows(), A.rows().entry_count)) return false;
  analyse(A);
  return true;
}

bool SparseSchurFactor::factorize_prepared(const SchurSystem& A) {
  assemble(A);
  return ldlt_.factorize_ordered(upper_);
}

void SparseSchurFactor::solve(const VecX& b, VecX& x) {
  ordered_b_.setZero();
  for (int i = 0; i < rows_; ++i) ordered_b_[position_[i]] = b[i];
  ordered_x_ = ldlt_.solve(ordered_b_);
  for (int i = 0; i < rows_; ++i) x[i] = ordered_x_[position_[i]];
}

}  // namespace sim
