// Condensation of the elastic rows into the particles' mass block: the same Newton system
// (eqs. 59-60), solved on other unknowns.
//
// The Newton system of one iteration is H Δu − Jᵀx = −g, J Δu + C x = −h (x = hΔλ; its Schur
// complement on x is eq. 59). The FEM rows (tets, membranes, hinges: §9, eqs. 75-85) have a
// positive diagonal compliance block C_E = E/h² (+ ε). Solving their rows for x_E,
//     x_E = −C_E⁻¹ (h_E + J_E Δu),
// and substituting leaves the rest K (contacts, joints, drives, attachments, distances) on the
// condensed mass matrix
//     H̃ = H + J_Eᵀ C_E⁻¹ J_E,   g̃ = g + J_Eᵀ C_E⁻¹ h_E,
//     (J_K H̃⁻¹ J_Kᵀ + C_K) x_K = J_K H̃⁻¹ g̃ − h_K,   Δu = H̃⁻¹ (J_Kᵀ x_K − g̃).
// This is the exact direction of the same system, not an approximation. Why: stiff elements
// (E/h² small against J M⁻¹ Jᵀ) and more rows than particle dofs (7 per tet) make the Schur
// complement on x nearly singular: 60 PCR iterations cut its residual 3× on the PneuNet gripper
// and the Newton loop stalled, where H̃ is a stiffness matrix h²K + M whose condition grows
// with h²k/m only, factorised once per Newton iteration: sparse LDLᵀ (Eigen's SimplicialLDLT
// on a fill-reducing node ordering computed once per structure) or, for large meshes, the
// supernodal Cholesky L Lᵀ of CHOLMOD (solver/supernodal_factor.hpp; SolverOptions::
// elastic_factorization, supernodal_wanted below).
//
// H̃ couples only particles (the FEM rows have no body entries); bodies keep their 6×6 blocks.
// Pinned particles (inverse mass 0) have no dofs in H̃ (Δu = 0 there, as H⁻¹ = 0 gives).
//
// The same factorised H̃ carries the exact geometric stiffness (eq. 53's K) where asked
// (Curvature): the elastic elements' and the rope links' (distance rows along chains of particles).
// The links are not condensed (they may be rigid, C = 0): with no elastic row at all H̃ is then
// H = M + h² P(K_links) and the Schur complement J H⁻¹ Jᵀ of eq. 59 takes H⁻¹ from its factor.
// Only chains: a chain's H̃ is block tridiagonal (no fill, a solve costs a few flops a dof), where
// a distance cloth's links make a 2-D grid whose factor and solves made cloth.xml's step ~9× slower
// (docs/benchmarks.md "Rope geometric stiffness").
#pragma once

#include <Eigen/SparseCholesky>
#include <Eigen/SparseCore>
#include <cstdint>
#include <vector>

#include "constraint/rows.hpp"
#include "kernels/views.hpp"
#include "sim/model.hpp"
#include "sim/solver_options.hpp"
#include "solver/supernodal_factor.hpp"

namespace sim {

struct InverseMass;
using VecX = Eigen::Matrix<Real, Eigen::Dynamic, 1>;

class ElasticCondensation {
 public:
  // Whether row i is one of the condensed (elastic) rows: the tets', membranes' and hinges'.
  static bool condensable(const RowSet& rows, int i) {
    return (i >= rows.first_tet && i < rows.first_attachment) || (i >= rows.first_membrane && i < rows.first_drive);
  }
  static bool any_condensable(const RowSet& rows) {
    return rows.first_attachment > rows.first_tet || rows.first_drive > rows.first_membrane;
  }
  // The first particle distance row, where the rows are laid out as row_assembly.cpp lays them
  // (the distances' rows between the joints' and the tets'); -1 otherwise or without distances.
  static int first_distance_row(const Model& m, const RowSet& rows);
  // The rope links: distance rows both of whose particles are in at most two distance rows (a
  // chain; a cloth's particles are in four to eight). Kept in rope_links() (no allocation once
  // sized) for wanted() and factor(), which read them; returns their count. They depend only on
  // the model and the rows' layout, so the Newton loop finds them once a step, not per iteration.
  int find_rope_links(const Model& m, const RowSet& rows);
  const std::vector<int>& rope_links() const { return rope_links_; }
  // Whether a factor() would have anything to put in H̃: condensable rows, or (with `ropes`, the
  // rope links' curvature asked for) the rope links of the last find_rope_links().
  bool wanted(const RowSet& rows, bool ropes) const {
    return any_condensable(rows) || (ropes && !rope_links_.empty());
  }
  // λ_E(x): each condensed row's multiplier that meets it at the rows' current values,
  // (c + E λ)/h = 0 ⇒ λ = −c/E (eq. 8 with the compliance of eq. 84). The Newton loop measures
  // every iterate with these (the elastic forces the positions imply), so the merit function is
  // that of the condensed system: an iterate is judged by its elastic forces, not by the last λ_E.
  static void meet_condensed_rows(RowSet& rows);

  // The elastic elements' constraint curvature to add to H̃ (kernels/element_curvature_kernel.hpp):
  // h² P(−Σ λ_k ∂²m_k/∂x²) per tet, membrane triangle and hinge at the iterate `at`, with the rows'
  // multipliers λ; P projects each element's matrix onto the positive semi-definite cone. This is
  // the exact geometric stiffness (eq. 53) of the condensed rows: with it H̃ is the Hessian of the
  // elastic energy (plus M), where the paper's diagonal secant (eqs. 71-74) approximates it.
  // The rope links' curvature (`ropes`, SolverOptions::rope_geometric_stiffness) is the closed form h² P(−λ ∂²C/∂x²) of C = |x_b − x_a| − L: −(λ/l)(I − nnᵀ) on the two diagonal
  // blocks and its negative on the coupling block, kept where the link is in tension (λ < 0; a slack
  // or compressed link's matrix is negative semi-definite and projects to 0). On a particle whose
  // every curvature source is exact, H̃'s diagonal is M (the secant's shift would count it twice);
  // elsewhere M plus the secant's shift, as without curvature.
  struct Curvature {
    ConfigurationView at;
    Real h = 0;
    bool elements = true;    // tets, membrane triangles, hinges (element_geometric_stiffness)
    bool ropes = false;      // the rope links (rope_geometric_stiffness)
  };

  // Assembles H̃ at the current iterate (the rows' J and C = diag_c(i) = row_diag_c + ε, the
  // particles' 1/(m + shift) from `inv_mass`) and factorises it. The pattern and ordering are
  // rebuilt only when the rows' structure or the set of free particles changed. Returns false
  // (and the caller solves the uncondensed system) when a condensed row has C <= 0 or the
  // factorisation fails (a pivot not positive and finite): never throws.
  // `which` picks the factorisation (supernodal_wanted); a supernodal analysis that fails falls
  // back to the simplicial one.
  // With `curvature` the elements' curvature joins H̃ (the Curvature above); with Curvature::ropes,
  // that of the rope links the last find_rope_links(m, rows) found (the caller finds them first).
  bool factor(const Model& m, const RowSet& rows, const InverseMass& inv_mass, Real epsilon,
              ElasticFactorization which = ElasticFactorization::Auto, const Curvature* curvature = nullptr);

  // Whether `which` asks for the supernodal factorisation of a system of `dofs` unknowns: Auto
  // from kSupernodalDofs on (measured, docs/benchmarks.md "Soft bodies": below it the simplicial
  // LDLᵀ is as fast and allocates nothing per step), where CHOLMOD is available.
  static constexpr int kSupernodalDofs = 2000;
  static bool supernodal_wanted(ElasticFactorization which, int dofs);
  // Whether the last factor() used the supernodal factorisation.
  bool supernodal() const { return supernodal_; }

  // out = H̃⁻¹ in on the particles' dofs (in and out are full dof vectors; body dofs untouched).
  void solve_particles(const Model& m, const VecX& in, VecX& out) const;
  // 1/H̃_kk of particle dof k (3 p + axis): the Jacobi preconditioner's estimate of H̃⁻¹.
  Real particle_inv_diagonal(int particle_dof) const { return inv_diagonal_[particle_dof]; }

  // The particles in H̃ (the free ones the condensed rows touch, and with Curvature::ropes the rope
  // links'), in factor order.
  const std::vector<int>& particles() const { return particle_of_new_; }

  int factor_size() const { return static_cast<int>(diag_pos_.size()); }
  long factor_nonzeros() const {
    return supernodal_ ? supernodal_factor_.nonzeros() : static_cast<long>(ldlt_.matrixL().nestedExpression().nonZeros());
  }

 private:
  bool same_structure(const Model& m, const RowSet& rows, const InverseMass& inv_mass, ElasticFactorization which,
                      const Curvature* curvature) const;
  void build_structure(const Model& m, const RowSet& rows, const InverseMass& inv_mass, ElasticFactorization which,
                       const Curvature* curvature);
  void add_curvature(const Model& m, const RowSet& rows, const Curvature& curvature);
  void add_link_curvature(const Model& m, const RowSet& rows, const Curvature& curvature);
  // Adds one element's matrix (column-major, 3 count square, local node order) to H̃'s values
  // through its node pairs from `first_pair` (element_cols_, element_pair_kind_).
  void add_element_matrix(const Real* block, int count, int first_pair);

  // Structure (rebuilt when the signature changes).
  std::vector<int> signature_;          // condensed rows' entry nodes, then the free particles' flags
  std::vector<int> new_of_particle_;    // factor block of each particle (-1: pinned)
  std::vector<int> particle_of_new_;
  std::vector<int> diag_pos_;           // value index of H̃_kk, per factor dof
  std::vector<int> pair_first_;         // per condensed row (in row order): its first pair
  std::vector<int> pair_cols_;          // per entry pair: value indices of its block's 3 columns' first rows
  std::vector<std::int8_t> pair_kind_;  // 0: off-diagonal block, 1: diagonal block (same node)
  std::vector<int> condensed_rows_;
  // The elastic elements (tets, membrane triangles, hinges) for the curvature term: per element its
  // kind, index and first row; per element node pair (a <= b, local order) the value indices of
  // its block's 3 columns (element_cols_, -1: a pinned node) and whether b comes first in H̃.
  struct Element {
    std::int8_t kind;  // 0 tet, 1 membrane, 2 hinge (of the bending rows)
    int index, first_row, first_pair;
    bool skipped;  // at the last factor(): too little stress to matter (add_curvature)
  };
  std::vector<Element> elements_;
  // The rope links in H̃ (with Curvature::ropes at the structure's build): per link its distance
  // index, row and first node pair (in element_cols_ / element_pair_kind_, 3 pairs).
  struct Link {
    int index, row, first_pair;
  };
  std::vector<Link> links_;
  std::vector<int> rope_links_;     // find_rope_links: distance indices
  std::vector<int> link_degree_;    // find_rope_links: per particle its distance rows (scratch)
  bool links_analysed_ = false;     // the structure holds the links (Curvature::ropes)
  bool elements_exact_ = false;     // the structure was built for Curvature::elements
  std::vector<std::int8_t> exact_;  // per factor particle: every curvature source exact (diagonal M)
  std::vector<Real> hinge_lambda_;  // per hinge: Σ λ w over the bending rows it is in (add_curvature)
  std::vector<int> element_cols_;
  std::vector<std::int8_t> element_pair_kind_;  // -1 skip, 1 diagonal block, 0 a first, 2 b first
  std::vector<Real> element_blocks_;            // per element its projected 12×12 (scratch; sized on first use)
  Eigen::SparseMatrix<Real, Eigen::ColMajor, int> h_;  // upper triangle, in factor order
  // Eigen's SimplicialLDLT::factorize() constructs an empty matrix of the system's size on every
  // call (an allocation) and, without a permutation (natural ordering, upper triangle: ours), then
  // factorises its input directly; factorize_natural() calls that factorisation itself, the same
  // arithmetic without the allocation (and diagonal() reads D in place). Its y, pattern and tags live on the stack below Eigen's
  // stack limit (128 KiB: 16384 condensed dofs) and on the heap above it.
  class Ldlt : public Eigen::SimplicialLDLT<Eigen::SparseMatrix<Real, Eigen::ColMajor, int>, Eigen::Upper,
                                            Eigen::NaturalOrdering<int>> {
   public:
    void factorize_natural(const MatrixType& a) { this->template factorize_preordered<true>(a); }
    // D of L D Lᵀ without a copy (vectorD() returns one, an allocation per call).
    const VectorType& diagonal() const { return this->m_diag; }
  };
  Ldlt ldlt_;
  SupernodalFactor supernodal_factor_;
  ElasticFactorization analysed_for_ = ElasticFactorization::Auto;
  bool supernodal_ = false;  // the structure's factorisation: supernodal_factor_, else ldlt_
  bool analysed_ = false;
  // Numeric.
  const InverseMass* inv_mass_ = nullptr;  // of the last factor(): the particles outside H̃
  std::vector<Real> inv_diagonal_;      // 1/H̃_kk per particle dof (0 for pinned)
  mutable VecX work_;
};

}  // namespace sim
