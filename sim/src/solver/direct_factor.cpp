#include "solver/direct_factor.hpp"

#include <algorithm>

namespace sim {

const char* to_string(DirectElimination e) {
  switch (e) {
    case DirectElimination::Tree: return "tree";
    case DirectElimination::RowSpace: return "row space";
  }
  return "?";
}

double DirectFactor::analyse(const SchurSystem& A) {
  if (tree_.prepare(A)) {
    row_space_.prepare(A);
    prefer_tree_ = tree_.factor_operations() < row_space_.factor_operations();
  }
  return std::min(tree_.factor_operations(), row_space_.factor_operations());
}

bool DirectFactor::factorize(const SchurSystem& A) {
  analyse(A);
  if (prefer_tree_) {
    if (tree_.factorize_prepared(A)) {
      used_ = DirectElimination::Tree;
      return true;
    }
    prefer_tree_ = false;
  }
  return factorize_row_space(A);
}

bool DirectFactor::factorize_row_space(const SchurSystem& A) {
  row_space_.prepare(A);
  used_ = DirectElimination::RowSpace;
  return row_space_.factorize_prepared(A);
}

void DirectFactor::solve(const VecX& b, VecX& x) {
  if (used_ == DirectElimination::Tree) {
    tree_.solve(b, x);
  } else {
    row_space_.solve(b, x);
  }
}

}  // namespace sim
