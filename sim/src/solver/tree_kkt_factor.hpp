// The direct solver on the saddle-point form of the Schur system (eq. 59), eliminated along the
// tree the rows make of the nodes (Baraff 1996, "Linear-time dynamics using Lagrange
// multipliers", for maximal coordinates):
//
//   K [y; x] = [0; b],   K = [ −H   Jᵀ ]
//                            [  J   C' ],   C' = C + εI,
//
// whose Schur complement on the rows is A = J H⁻¹ Jᵀ + C', so x solves A x = b (and y = H⁻¹ Jᵀ x).
//
// Why: in maximal coordinates A couples every two rows that share a node, so a body with k joint
// rows around it (its parent's and its children's joints, a chain of hinges through light frames)
// is a dense k × k block of A, and A's factor fills beyond those blocks (MuJoCo's humanoid:
// 200 rows, 4,500–9,200 factor entries). K keeps the sparsity of the tree itself: eliminated
// leaves first, a node and then the rows that join it to its parent, nothing fills in, and one
// factorisation costs O(nodes) small dense blocks.
//
// Ordering (prepare): a row on one node is a leaf of that node (a contact with the ground, a joint
// to the world); rows on two nodes, in row order (joints before contacts), join the nodes into a
// spanning forest where they connect two trees (union–find), and every row on the same two nodes as
// a forest edge travels with it. Each tree is rooted at its lowest node and visited leaves first:
// a node's dofs, its one-node rows, then the rows to its parent. The "loop" rows (closing a loop,
// a contact between two bodies of one robot, rows on three or more nodes) come last, where their
// fill runs along the tree paths between their nodes and the root (eliminating each right after
// the last of its nodes filled more: the humanoid's 12–30 foot-to-foot rows, 5–15% more entries).
// The direct solver takes this form or A's by their operation counts (solver/direct_factor.hpp).
//
// Pivots: K is quasi-definite (−H negative, C' positive definite), so LDLᵀ needs no pivoting in
// any order, and in this one every pivot is well scaled: a node's is its mass block plus what the
// rows below it added (positive definite), a row's is −C' − J_child H̃_child⁻¹ J_childᵀ, its
// child node (a loop row: all its nodes) already eliminated (negative definite). A zero pivot or a node whose H block cannot
// be inverted (a moving body with a zero principal inverse inertia) makes factorize_prepared
// return false; the direct solver then takes the row-space factor.
//
// Like the row-space factor, K is padded with identity rows to a capacity so that its size and
// Eigen's buffers do not change with the contact count: after the largest pattern has been seen
// nothing allocates (tests/alloc).
#pragma once

#include <vector>

#include "solver/ordered_ldlt.hpp"
#include "solver/schur_system.hpp"

namespace sim {

class TreeKktFactor {
 public:
  // The ordering and symbolic analysis of K for A's rows, redone only when the rows' node pattern
  // changed since the last call; true when it was redone.
  bool prepare(const SchurSystem& A);
  // K's values for A (the pattern of the last prepare) and its LDLᵀ. False on a zero pivot, a
  // non-finite value or a node with no invertible H block.
  bool factorize_prepared(const SchurSystem& A);
  // x = A⁻¹ b with the last successful factorisation (x sized by the caller to A's rows).
  void solve(const VecX& b, VecX& x);

  // For the choice of elimination, reports and tests.
  int rows() const { return rows_; }
  int loop_rows() const { return loop_rows_; }  // rows on nodes that no one forest edge joins
  int size() const { return dofs_ + capacity_; }              // K's order, padding included
  long long matrix_nonzeros() const { return upper_.nonZeros(); }  // K's upper triangle
  long long factor_nonzeros() const { return ldlt_.factor_nonzeros(); }  // L's, below the diagonal
  double factor_operations() const { return ldlt_.factor_operations(); }
  int analyses() const { return analyses_; }

 private:
  bool same_pattern(const RowSet& rows) const;
  void build_forest(const SchurSystem& A);
  void order(const SchurSystem& A);
  void build_pattern(const SchurSystem& A);

  // The pattern key: each entry's row and node when the pattern was analysed.
  int rows_ = -1;
  std::vector<int> key_entry_row_, key_entry_node_;
  int dofs_ = 0;      // K's first dofs_ variables are the model's dofs, then the rows
  int capacity_ = 0;  // rows_ plus identity rows
  int loop_rows_ = 0;

  // The forest (node_count): union–find roots, its edges, their adjacency (CSR), each node's
  // parent (-1 at a root).
  std::vector<int> union_root_, edge_a_, edge_b_, adjacency_first_, adjacency_, parent_;
  // Each row's anchor: the node it is eliminated after (one-node rows: that node; forest rows:
  // the child), and its kind; the anchored rows grouped by anchor (CSR), one-node rows first.
  // row_other_node_: a two-node row's second node.
  std::vector<int> row_anchor_, row_anchor_kind_, row_other_node_, anchor_first_, anchor_rows_;
  std::vector<int> visit_stack_, post_order_;

  // Position of each of K's variables (model dofs, then rows, then padding) in the elimination.
  std::vector<int> position_;
  std::vector<long long> pattern_;
  // Value slots: per node its H block (body: 3 translational, 6 of the rotational upper triangle;
  // particle: 3), per entry its up to 6 J values, per row (and padding row) its diagonal.
  std::vector<int> node_slot_first_, node_slots_, entry_slots_, row_diagonal_slot_;
  OrderedUpper upper_;
  VecX ordered_rhs_, ordered_solution_;
  OrderedLdlt ldlt_;
  int analyses_ = 0;
};

}  // namespace sim
