// The constraint rows of one step, struct of arrays (constraint-space arrays are row_*).
//
// A row couples at most two "nodes": node n < body_count is rigid body n (6 dofs: v, ω), node
// body_count + p is particle p (3 dofs). Each side stores its slice of the row's gradient with
// respect to u, ∇C·G (eqs. 9, 86-90), as a Vec6 (particles use the first 3 entries).
#pragma once

#include <cstdint>
#include <vector>

#include "sim/math.hpp"
#include "sim/model.hpp"

namespace sim {

enum class RowKind : std::int8_t {
  Bilateral,  // c_b + E λ_b = 0, compliance form (eq. 8): joints and particle distances
  Drive,      // implicit PD drive, velocity level, with an effort bound |λ| <= F
  Limit,      // joint limit: unilateral position row, NCP like a contact normal
  Normal,     // contact normal, eq. 9, NCP (eqs. 93-98)
  Friction,   // one of a contact's two tangent rows (eqs. 99-106)
};

struct RowSet {
  int count = 0;
  // ---- structure, fixed for the step ----
  std::vector<RowKind> row_kind;       // (count)
  std::vector<int> row_node_a;         // node of side a, -1: none (count)
  std::vector<int> row_node_b;         // node of side b, -1: none (count)
  std::vector<int> row_dof_a;          // first dof of side a's node, -1: none (count)
  std::vector<int> row_dof_b;          // first dof of side b's node, -1: none (count)
  std::vector<std::int8_t> row_width_a;  // 6 (body) or 3 (particle) (count)
  std::vector<std::int8_t> row_width_b;  // (count)
  std::vector<int> row_source;         // contact, joint or distance index (count)
  std::vector<std::int8_t> row_sub;    // which row of its source (count)
  std::vector<Real> row_compliance;    // e: bilateral [m/N] or drive [m/(N s)] rows (count)
  std::vector<Real> row_bound;         // drive effort bound F [N], < 0 unbounded (count)
  std::vector<Real> row_bias;          // constant term of the row (count): drive velocity bias b of
                                       // φ = J u + b + e λ [m/s]; contact normal: allowance added to
                                       // C_n for a contact penetrating at q⁻ [m] (>= 0)
  std::vector<Real> row_r;             // complementarity preconditioner r (eq. 66) (count)
  std::vector<Real> row_inv_mass;      // k = [∇C M⁻¹ ∇Cᵀ]_ii at q⁻, friction: the pair's mean
                                       // [1/kg or 1/(kg m²)] (count): the merit's row weights 1/k
  // ---- evaluated each Newton iteration ----
  std::vector<Vec6> row_grad_a;        // ∇C G, side a (count)
  std::vector<Vec6> row_grad_b;        // ∇C G, side b (count)
  std::vector<Real> row_value;         // C(q) for position rows [m or rad] (count)
  std::vector<Vec6> row_jac_a;         // system row J (NCP-scaled gradient), side a (count)
  std::vector<Vec6> row_jac_b;         // side b (count)
  std::vector<Real> row_jac_scale;     // unilateral rows: α = ∂φ/∂C, J = α ∇C G (count)
  std::vector<Real> row_diag_c;        // C block of eq. 55 (E/h², S/h², W/h), without ε (count)
  std::vector<Real> row_residual;      // h of eq. 58: (c+Eλ)/h, φ_n/h, φ_f (count)
  std::vector<Real> row_lambda;        // multiplier λ [N or N m] (count)
  std::vector<Real> row_w;             // friction: W of eq. 106 (count)
  std::vector<std::int8_t> row_active; // normal/limit: NCP active; friction: slipping (count)
  std::vector<Real> row_error;         // residual in the row's units for traces: |c + eλ|, |φ_n|,
                                       // friction: the contact's friction_error() (count)

  // Layout of this step's rows: [bilateral | drive | limit | normal | friction].
  int first_drive = 0, first_limit = 0, first_normal = 0, first_friction = 0;

  void resize(int n);
  // Fills row_dof_* and row_width_* from the nodes (after the structure is set).
  void set_dofs(const Model& model);
};

// Dof offset and width of a node.
inline int node_dof(const Model& m, int node) {
  return node < m.body_count ? 6 * node : 6 * m.body_count + 3 * (node - m.body_count);
}
inline int node_width(const Model& m, int node) { return node < m.body_count ? 6 : 3; }

}  // namespace sim
