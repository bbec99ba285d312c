#include "solver/tree_kkt_factor.hpp"

#include <algorithm>
#include <cmath>

namespace sim {

namespace {

int node_count(const Model& m) { return m.body_count + m.particle_count; }

// Value slots of a node's H block: a body's 3 translational diagonal entries, then the upper
// triangle of its rotational 3 × 3 block, (0,0) (0,1) (0,2) (1,1) (1,2) (2,2); a particle's 3.
constexpr int kBodySlots = 9;
constexpr int kRotationPair[6][2] = {{0, 0}, {0, 1}, {0, 2}, {1, 1}, {1, 2}, {2, 2}};

int node_slots(const Model& m, int node) { return node < m.body_count ? kBodySlots : 3; }

// Row kinds for the ordering.
constexpr int kOneNode = 0;  // all entries on one node: a leaf of it
constexpr int kForest = 1;   // on two nodes joined by a forest edge: eliminated after the child
constexpr int kLoop = 2;     // on nodes no one forest edge joins (a loop, three or more nodes):
                             // eliminated last
constexpr int kEmpty = 3;    // no entry: eliminated last, uncoupled
constexpr int kPair = 4;     // (while building) on two nodes, edge not yet classified

int find_root(std::vector<int>& root, int n) {
  while (root[n] != n) {
    root[n] = root[root[n]];
    n = root[n];
  }
  return n;
}

// H's rotational block from the stored H⁻¹ block (world inverse inertia, symmetric positive
// definite); false where it is singular to working precision or not finite.
bool invert_inertia(const Mat3& inverse, Mat3& out) {
  const Real scale = inverse.cwiseAbs().maxCoeff();
  const Real det = inverse.determinant();
  if (!(scale > 0) || !std::isfinite(det) || !(det > Real(1e-14) * scale * scale * scale)) return false;
  out = inverse.inverse();
  return out.allFinite();
}

}  // namespace

bool TreeKktFactor::same_pattern(const RowSet& rows) const {
  if (rows.count != rows_ || rows.entry_count != static_cast<int>(key_entry_row_.size())) return false;
  return std::equal(key_entry_row_.begin(), key_entry_row_.end(), rows.entry_row.begin()) &&
         std::equal(key_entry_node_.begin(), key_entry_node_.end(), rows.entry_node.begin());
}

// Classifies every row (one node, forest edge, last), builds the spanning forest of the rows on
// two nodes (union–find, in row order), roots each tree at its lowest node and lists the nodes
// leaves first (post_order_).
void TreeKktFactor::build_forest(const SchurSystem& A) {
  const Model& m = A.model();
  const RowSet& rows = A.rows();
  const int nodes = node_count(m);
  union_root_.resize(nodes);
  for (int n = 0; n < nodes; ++n) union_root_[n] = n;
  edge_a_.clear();
  edge_b_.clear();
  row_anchor_.resize(rows.count);
  row_anchor_kind_.resize(rows.count);
  row_other_node_.resize(rows.count);
  for (int i = 0; i < rows.count; ++i) {
    int a = -1, b = -1;
    bool many = false;
    for (int e = rows.row_entry_first[i]; e < rows.row_entry_first[i + 1]; ++e) {
      const int n = rows.entry_node[e];
      if (a < 0 || n == a) {
        a = n;
      } else if (b < 0 || n == b) {
        b = n;
      } else {
        many = true;
      }
    }
    row_anchor_[i] = a;
    row_other_node_[i] = b;
    row_anchor_kind_[i] = a < 0 ? kEmpty : many ? kLoop : b < 0 ? kOneNode : kPair;
    if (row_anchor_kind_[i] != kPair) continue;
    const int ra = find_root(union_root_, a), rb = find_root(union_root_, b);
    if (ra == rb) continue;
    union_root_[std::max(ra, rb)] = std::min(ra, rb);
    edge_a_.push_back(a);
    edge_b_.push_back(b);
  }
  // The forest's adjacency (CSR over nodes), then a depth-first visit from each lowest unvisited
  // node: parent_ (-2 unvisited, -1 root) and the post-order.
  std::vector<int>& first = adjacency_first_;
  first.assign(nodes + 1, 0);
  for (std::size_t k = 0; k < edge_a_.size(); ++k) {
    ++first[edge_a_[k] + 1];
    ++first[edge_b_[k] + 1];
  }
  for (int n = 0; n < nodes; ++n) first[n + 1] += first[n];
  adjacency_.resize(2 * edge_a_.size());
  visit_stack_.assign(first.begin(), first.end() - 1);  // next free slot per node
  for (std::size_t k = 0; k < edge_a_.size(); ++k) {
    adjacency_[visit_stack_[edge_a_[k]]++] = edge_b_[k];
    adjacency_[visit_stack_[edge_b_[k]]++] = edge_a_[k];
  }
  parent_.assign(nodes, -2);
  post_order_.clear();
  std::vector<int>& next = union_root_;  // reused: the next neighbour to look at, per node
  for (int n = 0; n < nodes; ++n) next[n] = first[n];
  visit_stack_.clear();
  for (int root = 0; root < nodes; ++root) {
    if (parent_[root] != -2) continue;
    parent_[root] = -1;
    visit_stack_.push_back(root);
    while (!visit_stack_.empty()) {
      const int v = visit_stack_.back();
      if (next[v] < first[v + 1]) {
        const int w = adjacency_[next[v]++];
        if (parent_[w] == -2) {
          parent_[w] = v;
          visit_stack_.push_back(w);
        }
      } else {
        visit_stack_.pop_back();
        post_order_.push_back(v);
      }
    }
  }
  // The pairs: a forest row is eliminated after its child node.
  for (int i = 0; i < rows.count; ++i) {
    if (row_anchor_kind_[i] != kPair) continue;
    const int a = row_anchor_[i], b = row_other_node_[i];
    if (parent_[a] == b) {
      row_anchor_kind_[i] = kForest;
    } else if (parent_[b] == a) {
      row_anchor_[i] = b;
      row_anchor_kind_[i] = kForest;
    } else {
      row_anchor_kind_[i] = kLoop;
    }
  }
}

// position_: the nodes leaves first, each followed by its one-node rows and then its rows to its
// parent; the loop rows and the rows without entries; the padding.
void TreeKktFactor::order(const SchurSystem& A) {
  const Model& m = A.model();
  const RowSet& rows = A.rows();
  const int nodes = node_count(m);
  anchor_first_.assign(nodes + 1, 0);
  for (int i = 0; i < rows.count; ++i)
    if (row_anchor_kind_[i] == kOneNode || row_anchor_kind_[i] == kForest) ++anchor_first_[row_anchor_[i] + 1];
  for (int n = 0; n < nodes; ++n) anchor_first_[n + 1] += anchor_first_[n];
  anchor_rows_.resize(rows.count);
  visit_stack_.assign(anchor_first_.begin(), anchor_first_.end() - 1);  // next free slot per node
  for (int kind : {kOneNode, kForest})
    for (int i = 0; i < rows.count; ++i)
      if (row_anchor_kind_[i] == kind) anchor_rows_[visit_stack_[row_anchor_[i]]++] = i;

  const int size = dofs_ + capacity_;
  if (static_cast<int>(position_.size()) < size) position_.resize(size);
  int next = 0;
  for (int v : post_order_) {
    const int base = node_dof_offset(m.body_count, v);
    for (int k = 0; k < node_width(m, v); ++k) position_[base + k] = next++;
    for (int r = anchor_first_[v]; r < anchor_first_[v + 1]; ++r) position_[dofs_ + anchor_rows_[r]] = next++;
  }
  loop_rows_ = 0;
  for (int i = 0; i < rows.count; ++i)
    if (row_anchor_kind_[i] == kLoop || row_anchor_kind_[i] == kEmpty) {
      position_[dofs_ + i] = next++;
      if (row_anchor_kind_[i] == kLoop) ++loop_rows_;
    }
  for (int i = rows.count; i < capacity_; ++i) position_[dofs_ + i] = next++;
}

// K's upper triangle in the elimination order: the H blocks, J's entries (row, dof), the rows'
// diagonals; the value slots of each; Eigen's symbolic analysis.
void TreeKktFactor::build_pattern(const SchurSystem& A) {
  const Model& m = A.model();
  const RowSet& rows = A.rows();
  const int nodes = node_count(m);
  const int size = dofs_ + capacity_;
  auto key = [&](int u, int v) { return upper_key(position_[u], position_[v], size); };
  pattern_.clear();
  for (int node = 0; node < nodes; ++node) {
    const int base = node_dof_offset(m.body_count, node);
    if (node < m.body_count) {
      for (int k = 0; k < 3; ++k) pattern_.push_back(key(base + k, base + k));
      for (const auto& rc : kRotationPair) pattern_.push_back(key(base + 3 + rc[0], base + 3 + rc[1]));
    } else {
      for (int k = 0; k < 3; ++k) pattern_.push_back(key(base + k, base + k));
    }
  }
  for (int e = 0; e < rows.entry_count; ++e)
    for (int k = 0; k < rows.entry_width[e]; ++k) pattern_.push_back(key(rows.entry_dof[e] + k, dofs_ + rows.entry_row[e]));
  for (int i = 0; i < capacity_; ++i) pattern_.push_back(key(dofs_ + i, dofs_ + i));
  compress_upper_pattern(pattern_, size, upper_);

  auto slot_of = [&](int u, int v) { return upper_slot(pattern_, key(u, v)); };
  node_slot_first_.resize(nodes + 1);
  node_slot_first_[0] = 0;
  for (int node = 0; node < nodes; ++node) node_slot_first_[node + 1] = node_slot_first_[node] + node_slots(m, node);
  node_slots_.resize(node_slot_first_[nodes]);
  for (int node = 0; node < nodes; ++node) {
    const int base = node_dof_offset(m.body_count, node);
    int* slot = &node_slots_[node_slot_first_[node]];
    for (int k = 0; k < 3; ++k) slot[k] = slot_of(base + k, base + k);
    if (node < m.body_count)
      for (int p = 0; p < 6; ++p) slot[3 + p] = slot_of(base + 3 + kRotationPair[p][0], base + 3 + kRotationPair[p][1]);
  }
  entry_slots_.resize(6 * static_cast<std::size_t>(rows.entry_count));
  for (int e = 0; e < rows.entry_count; ++e)
    for (int k = 0; k < rows.entry_width[e]; ++k) entry_slots_[6 * e + k] = slot_of(rows.entry_dof[e] + k, dofs_ + rows.entry_row[e]);
  row_diagonal_slot_.resize(capacity_);
  for (int i = 0; i < capacity_; ++i) row_diagonal_slot_[i] = slot_of(dofs_ + i, dofs_ + i);
  if (ordered_rhs_.size() != size) {
    ordered_rhs_.resize(size);
    ordered_solution_.resize(size);
  }
  ldlt_.analyse_ordered(upper_);
  ldlt_.keep_room();
}

bool TreeKktFactor::prepare(const SchurSystem& A) {
  const RowSet& rows = A.rows();
  if (same_pattern(rows)) return false;
  ++analyses_;
  rows_ = rows.count;
  key_entry_row_.assign(rows.entry_row.begin(), rows.entry_row.begin() + rows.entry_count);
  key_entry_node_.assign(rows.entry_node.begin(), rows.entry_node.begin() + rows.entry_count);
  dofs_ = A.model().dof_count();
  if (rows_ > capacity_) capacity_ = std::max(16, rows_ + rows_ / 2);
  build_forest(A);
  order(A);
  build_pattern(A);
  return true;
}

// K's values: −H per node (the identity on a node no row touches: its y is 0), J per entry,
// C_ii + ε per row (1 on the padding), then LDLᵀ.
bool TreeKktFactor::factorize_prepared(const SchurSystem& A) {
  const Model& m = A.model();
  const RowSet& rows = A.rows();
  const InverseMass& inv = A.inverse_mass();
  const NodeEntriesView adj = A.node_entries();
  Real* value = upper_.valuePtr();
  std::fill(value, value + upper_.nonZeros(), Real(0));
  for (int node = 0; node < node_count(m); ++node) {
    const int* slot = &node_slots_[node_slot_first_[node]];
    const bool moves = adj.node_entry_first[node + 1] > adj.node_entry_first[node];
    if (node < m.body_count) {
      if (!moves) {
        for (int k : {0, 1, 2, 3, 6, 8}) value[slot[k]] = 1;
        continue;
      }
      const Real inv_mass = inv.body_inv_mass[node];
      Mat3 inertia;
      if (!(inv_mass > 0) || !std::isfinite(inv_mass) || !invert_inertia(inv.body_inv_inertia[node], inertia)) return false;
      for (int k = 0; k < 3; ++k) value[slot[k]] = -1 / inv_mass;
      for (int p = 0; p < 6; ++p) value[slot[3 + p]] = -inertia(kRotationPair[p][0], kRotationPair[p][1]);
    } else {
      const Real* inv_mass = &inv.particle_inv_mass[3 * (node - m.body_count)];
      for (int k = 0; k < 3; ++k) {
        if (!moves) {
          value[slot[k]] = 1;
        } else if (inv_mass[k] > 0 && std::isfinite(inv_mass[k])) {
          value[slot[k]] = -1 / inv_mass[k];
        } else {
          return false;
        }
      }
    }
  }
  for (int e = 0; e < rows.entry_count; ++e) {
    const Vec6& jac = rows.entry_jac[e];
    for (int k = 0; k < rows.entry_width[e]; ++k) value[entry_slots_[6 * e + k]] += jac[k];
  }
  for (int i = 0; i < rows.count; ++i) value[row_diagonal_slot_[i]] += A.diag_c(i);
  for (int i = rows.count; i < capacity_; ++i) value[row_diagonal_slot_[i]] = 1;
  return ldlt_.factorize_ordered(upper_);
}

void TreeKktFactor::solve(const VecX& b, VecX& x) {
  ordered_rhs_.setZero();
  for (int i = 0; i < rows_; ++i) ordered_rhs_[position_[dofs_ + i]] = b[i];
  ordered_solution_ = ldlt_.solve(ordered_rhs_);
  for (int i = 0; i < rows_; ++i) x[i] = ordered_solution_[position_[dofs_ + i]];
}

}  // namespace sim
