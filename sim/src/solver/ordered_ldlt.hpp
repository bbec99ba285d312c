// Sparse LDLᵀ on a matrix the caller has already ordered, for the direct solvers
// (solver/sparse_schur_factor.hpp, solver/tree_kkt_factor.hpp): Eigen's simplicial up-looking
// factorisation with its protected "preordered" steps made callable, so a numeric factorisation
// needs no permuted copy of the matrix, and the compressed upper triangle built from a list of
// (column, row) keys in buffers that only grow.
//
// No pivoting: D may hold negative entries (the saddle-point form's row pivots), a zero pivot is
// a failure.
#pragma once

#include <Eigen/SparseCholesky>
#include <Eigen/SparseCore>
#include <algorithm>
#include <vector>

#include "sim/math.hpp"

namespace sim {

using OrderedUpper = Eigen::SparseMatrix<Real, Eigen::ColMajor, int>;

class OrderedLdlt : public Eigen::SimplicialLDLT<OrderedUpper, Eigen::Upper, Eigen::NaturalOrdering<int>> {
 public:
  void analyse_ordered(const OrderedUpper& a) { analyzePattern_preordered(a, true); }
  bool factorize_ordered(const OrderedUpper& a) {
    factorize_preordered<true>(a);
    return info() == Eigen::Success;
  }
  long long factor_nonzeros() const { return m_analysisIsOk ? static_cast<long long>(m_matrix.nonZeros()) : 0; }
  // Σ_j c_j², c_j the entries of L's column j below the diagonal: the multiply–adds of one
  // numeric factorisation, up to a constant (how the direct solver compares two orderings).
  double factor_operations() const {
    if (!m_analysisIsOk) return 0;
    double sum = 0;
    for (Eigen::Index j = 0; j < m_nonZerosPerCol.size(); ++j) {
      const double c = m_nonZerosPerCol[j];
      sum += c * c + c;
    }
    return sum;
  }
  // After an analysis: room for half again the factor's entries, so that the analyses of
  // similar patterns that follow do not reallocate it.
  void keep_room() {
    const Eigen::Index nonzeros = m_matrix.nonZeros();
    if (m_matrix.data().allocatedSize() < nonzeros + nonzeros / 2) m_matrix.data().reserve(nonzeros / 2);
  }
};

// The key of entry (p, q) of a size × size upper triangle: column-major, max(p, q) * size + min.
inline long long upper_key(int p, int q, int size) {
  return static_cast<long long>(std::max(p, q)) * size + std::min(p, q);
}

// Sorts and de-duplicates `keys` (upper_key) and writes their pattern into `upper` as compressed
// columns with zero values; keeps `upper`'s storage when it is large enough.
inline void compress_upper_pattern(std::vector<long long>& keys, int size, OrderedUpper& upper) {
  std::sort(keys.begin(), keys.end());
  keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
  const Eigen::Index nonzeros = static_cast<Eigen::Index>(keys.size());
  if (upper.cols() != size) upper.resize(size, size);
  if (upper.data().allocatedSize() < nonzeros) upper.data().reserve(nonzeros + nonzeros / 2 - upper.data().size());
  upper.resizeNonZeros(nonzeros);
  int* outer = upper.outerIndexPtr();
  int* inner = upper.innerIndexPtr();
  std::fill(outer, outer + size + 1, 0);
  for (Eigen::Index k = 0; k < nonzeros; ++k) {
    ++outer[keys[k] / size + 1];
    inner[k] = static_cast<int>(keys[k] % size);
  }
  for (int c = 0; c < size; ++c) outer[c + 1] += outer[c];
}

// The position of key k in the compressed values (keys as compress_upper_pattern left them).
inline int upper_slot(const std::vector<long long>& keys, long long k) {
  return static_cast<int>(std::lower_bound(keys.begin(), keys.end(), k) - keys.begin());
}

}  // namespace sim
