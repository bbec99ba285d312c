// The supernodal Cholesky factorisation A = L Lᵀ of a sparse symmetric positive definite matrix
// (CHOLMOD, SuiteSparse; Chen, Davis, Hager, Rajamanickam 2008): columns with the same sparsity
// below the diagonal are grouped into dense supernodes and factorised with dense (BLAS) kernels,
// on CHOLMOD's own fill-reducing order (AMD, or METIS nested dissection where that fills less).
//
// For the condensed elastic system H̃ of large meshes (solver/elastic_condensation.hpp), where
// the simplicial LDLᵀ's column-by-column updates dominate the step: the 48k-tet cube's 27.8k
// dofs took 12.6 s per factorisation (docs/benchmarks.md, "Soft bodies"). Unlike the simplicial
// path it allocates (CHOLMOD's workspace per factorisation), so ElasticCondensation takes it only
// above a size where a factorisation costs far more than its allocations.
//
// Double precision only (CHOLMOD's); in a float build (COULOMB_REAL_FLOAT) available() is false
// and analyse/factorise refuse.
#pragma once

#include <Eigen/SparseCore>
#include <memory>

#include "sim/math.hpp"

namespace sim {

class SupernodalFactor {
 public:
  using SparseUpper = Eigen::SparseMatrix<Real, Eigen::ColMajor, int>;  // the upper triangle, compressed
  using VecX = Eigen::Matrix<Real, Eigen::Dynamic, 1>;

  SupernodalFactor();
  ~SupernodalFactor();
  SupernodalFactor(const SupernodalFactor&) = delete;
  SupernodalFactor& operator=(const SupernodalFactor&) = delete;

  static bool available();

  // The symbolic factorisation (ordering, supernodes) of `upper`'s pattern: once per pattern.
  // False where CHOLMOD fails (out of memory) or is not available.
  bool analyse(const SparseUpper& upper);
  // The numeric factorisation of `upper` (the analysed pattern, new values). False where a value
  // is not finite or the matrix is not positive definite (a pivot <= 0): never throws.
  bool factorise(const SparseUpper& upper);
  // x ← A⁻¹ x with the last factorisation; allocation-free after the first solve of a size.
  void solve_in_place(VecX& x) const;
  // Entries of L (supernodal storage, the dense blocks' zeros included).
  long nonzeros() const;

 private:
  struct Cholmod;
  std::unique_ptr<Cholmod> cholmod_;
};

}  // namespace sim
