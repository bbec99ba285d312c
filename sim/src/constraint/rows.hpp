// The constraint rows of one step, struct of arrays: per-row arrays row_*, per-entry arrays entry_*.
//
// A row couples any number of "nodes": node n < body_count is rigid body n (6 dofs: v, ω), node
// body_count + p is particle p (3 dofs). Its Jacobian is a list of (node, block) entries stored
// CSR-style: the entries of row i are [row_entry_first[i], row_entry_first[i + 1]), each with its
// node, first dof, width (6 or 3) and its slice of the row's gradient with respect to u, ∇C·G
// (eqs. 9, 86-90), as a Vec6 (particles use the first 3 entries). A joint or a contact between two
// bodies has two entries, a contact of a cloth face (barycentric, constraint/particle_face_contact.hpp)
// four, an FEM tetrahedron's strain rows four particles (constraint/tet_rows.hpp).
//
// A row kind computes one gradient block per *slot* (two-node rows: side a, side b; a face contact:
// the face's three corners, then the other side); slots whose node cannot move (a fixed body, the
// world, a pinned particle) have no entry. row_slot_mask records which slots have one, so the
// evaluation writes its blocks without looking the nodes up (set_gradient).
#pragma once

#include <cstdint>
#include <vector>

#include "kernels/compliant_row_kernel.hpp"
#include "kernels/row_gradient_kernels.hpp"
#include "kernels/unilateral_row_kernel.hpp"
#include "sim/math.hpp"
#include "sim/model.hpp"

namespace sim {

enum class RowKind : std::int8_t {
  Bilateral,  // c_b + E λ_b = 0, compliance form (eq. 8): joints, particle distances, FEM tets (eq. 80)
  Drive,      // implicit PD drive, velocity level, with an effort bound |λ| <= F
  Limit,      // joint limit: unilateral position row, NCP like a contact normal
  Normal,     // contact normal, eq. 9, NCP (eqs. 93-98)
  Friction,   // one of a contact's two tangent rows (eqs. 99-106)
};

// The most gradient slots a row kind has (a shell bending row: a triangle's corners and its edges'
// opposite corners; an edge–edge contact: two faces' corners). row_entry_bound(model) bounds the
// entries of every row but the bending rows: a tet's four particles, a contact's sides (one slot
// each, or a face's three corners: six for an edge–edge contact, which needs particle triangles).
inline constexpr int kMaxRowSlots = 6;
inline int row_entry_bound(const Model& m) { return m.particle_triangles.empty() ? 4 : 6; }

// The nodes of a row, one per slot of its kind; -1 where the slot's node cannot move.
struct RowNodes {
  int node[kMaxRowSlots] = {-1, -1, -1, -1, -1, -1};
  int slots = 0;
  int entries() const {
    int n = 0;
    for (int k = 0; k < slots; ++k) n += node[k] >= 0 ? 1 : 0;
    return n;
  }
  std::uint8_t mask() const {
    unsigned m = 0;
    for (int k = 0; k < slots; ++k) m |= node[k] >= 0 ? 1u << k : 0u;
    return static_cast<std::uint8_t>(m);
  }
};

struct RowSet {
  int count = 0;        // rows
  int entry_count = 0;  // (node, block) entries over all rows
  // ---- structure, fixed for the step ----
  std::vector<RowKind> row_kind;            // (count)
  std::vector<int> row_entry_first;         // CSR offsets into entry_* (count + 1)
  std::vector<std::uint8_t> row_slot_mask;  // bit k: slot k of the kind has an entry (count)
  std::vector<int> row_source;              // contact, joint or distance index (count)
  std::vector<std::int8_t> row_sub;         // which row of its source (count)
  std::vector<Real> row_compliance;         // e: bilateral [m/N] or drive [m/(N s)] rows (count); tet rows
                                            // rewrite theirs at each evaluation (E of eq. 84)
  std::vector<Real> row_bound;              // drive effort bound F [N], < 0 unbounded; tet rows: damping
                                            // ratio γ = β/h of the step (count)
  std::vector<Real> row_bias;               // constant term of the row (count): drive velocity bias b of
                                            // φ = J u + b + e λ [m/s]; contact normal: allowance added to
                                            // C_n for a contact penetrating at q⁻ [m] (>= 0); tet rows:
                                            // the row's strain at q⁻ (damping reference)
  std::vector<Real> row_r;                  // complementarity preconditioner r (eq. 66) (count)
  std::vector<Real> row_inv_mass;           // k = [∇C M⁻¹ ∇Cᵀ]_ii at q⁻, friction: the pair's mean
                                            // [1/kg or 1/(kg m²)] (count): the merit's row weights 1/k
  std::vector<int> entry_row;               // row of the entry (entry_count)
  std::vector<int> entry_node;              // node (entry_count)
  std::vector<int> entry_dof;               // first dof of the node (entry_count)
  std::vector<std::int8_t> entry_width;     // 6 (body) or 3 (particle) (entry_count)
  // ---- evaluated each Newton iteration ----
  std::vector<Vec6> entry_grad;             // ∇C G, the entry's block (entry_count)
  std::vector<Vec6> entry_jac;              // system row J (NCP-scaled gradient), its block (entry_count)
  std::vector<Real> row_value;              // C(q) for position rows [m or rad] (count)
  std::vector<Real> row_jac_scale;          // unilateral rows: α = ∂φ/∂C, J = α ∇C G (count)
  std::vector<Real> row_diag_c;             // C block of eq. 55 (E/h², S/h², W/h), without ε (count)
  std::vector<Real> row_residual;           // h of eq. 58: (c+Eλ)/h, φ_n/h, φ_f (count)
  std::vector<Real> row_lambda;             // multiplier λ [N or N m] (count)
  std::vector<Real> row_w;                  // friction: W of eq. 106 (count)
  std::vector<std::int8_t> row_active;      // normal/limit: NCP active; friction: slipping (count)
  std::vector<Real> row_error;              // residual in the row's units for traces: |c + eλ|, |φ_n|,
                                            // friction: the contact's friction_error() (count)

  // Layout of this step's rows: [bilateral | drive | limit | normal | friction].
  int first_drive = 0, first_limit = 0, first_normal = 0, first_friction = 0;
  // The FEM tets' rows (7 per tet) follow the distances' rows.
  int first_tet = 0;
  // The particle attachments' rows (3 each, constraint/attachment_rows.hpp) follow the tets'.
  int first_attachment = 0;
  // The active pressure of each tet this step (Control::soft_pressure of its group, 0 without one)
  // [Pa] (tet_count): set by setup_tet_pressure before the rows are evaluated.
  std::vector<Real> tet_pressure;
  // Shell rows (constraint/shell_rows.hpp) close the bilateral block: 4 per membrane triangle,
  // then the bending rows (Model::bending_count).
  int first_membrane = 0, first_bending = 0;
  // Per-source offsets, exclusive scans of per-source row counts (row_assembly.cpp), joint_count + 1
  // each: joint j's bilateral rows start at joint_bilateral_first[j] (the distances' rows at
  // joint_bilateral_first[joint_count]), its drive row at first_drive + joint_drive_first[j], its
  // limit rows at first_limit + joint_limit_first[j].
  std::vector<int> joint_bilateral_first, joint_drive_first, joint_limit_first;
  std::vector<RowNodes> row_nodes_scratch;  // assembly: each row's nodes between its two passes (count)

  // Sizes the per-row arrays (row_entry_first to n + 1); entries are sized by resize_entries.
  void resize(int n);
  void resize_entries(int n);
  // Sets row r's structure from its nodes, entries starting at `first_entry` (entry_row, _node,
  // _dof, _width; the blocks are written by each evaluation).
  void set_nodes(const Model& model, int r, int first_entry, const RowNodes& nodes);
  // For tests and small set-ups: rows [0, n) with the given nodes, entries laid out in row order.
  void set_structure(const Model& model, const RowNodes* nodes, int n);

  // The arrays a row evaluation writes, as the row kinds' kernels take them
  // (kernels/row_gradient_kernels.hpp). Valid until the next resize.
  RowGradientView gradient_view() {
    return RowGradientView{row_entry_first.data(), row_slot_mask.data(), entry_grad.data(), row_value.data()};
  }
  // The arrays the NCP kernels of the compliant rows (bilateral, drives) and the unilateral rows
  // (limits, contact normals) read and write (kernels/compliant_row_kernel.hpp,
  // kernels/unilateral_row_kernel.hpp). Valid until the next resize.
  CompliantRowView compliant_view() {
    return CompliantRowView{row_value.data(),    row_lambda.data(), row_r.data(),      row_compliance.data(),
                            row_bias.data(),     row_bound.data(),  row_residual.data(), row_diag_c.data(),
                            row_active.data(),   row_error.data()};
  }
  UnilateralRowView unilateral_view() {
    return UnilateralRowView{row_value.data(),    row_lambda.data(),   row_r.data(),      row_jac_scale.data(),
                             row_residual.data(), row_diag_c.data(),   row_active.data(), row_error.data()};
  }
  // Writes a two-slot row's gradient (joints, drives, limits, distances): the blocks of side a and
  // side b, those without an entry skipped (set_row_gradient). Contacts write theirs with
  // set_contact_gradient, slot by slot in the same way.
  void set_gradient(int r, const Vec6& a, const Vec6& b) { set_row_gradient(gradient_view(), r, a, b); }
  // Gradient·v over the row's entries (v a dof vector).
  Real gradient_dot(int r, const Real* v) const {
    Real s = 0;
    for (int e = row_entry_first[r]; e < row_entry_first[r + 1]; ++e)
      for (int k = 0; k < entry_width[e]; ++k) s += entry_grad[e][k] * v[entry_dof[e] + k];
    return s;
  }
};

// Dof offset and width of a node.
inline int node_dof(const Model& m, int node) {
  return node < m.body_count ? 6 * node : 6 * m.body_count + 3 * (node - m.body_count);
}
inline int node_width(const Model& m, int node) { return node < m.body_count ? 6 : 3; }

}  // namespace sim
