// Contact rows: per contact one normal row (eq. 9) and two friction rows (eqs. 11-12).
//   C_n = n·(p_a − p_b) − d,  ∇C_n G = [n, r_a × n] for body a, −[n, r_b × n] for body b,
//   w nᵀ for a particle (w = 1 here); friction rows use the tangents d1, d2 the same way.
// n, d1, d2 and the body-fixed points are frozen for the step (§10).
#pragma once

#include "constraint/rows.hpp"
#include "core/kinematics.hpp"
#include "sim/contact.hpp"

namespace sim {

// Node of a contact side: the body or particle if it can move, else -1.
int contact_side_node(const Model& model, const ContactSide& side);

// Sets kind, nodes and source of the normal rows [first_normal, +n) and friction rows
// [first_friction, +2n).
void set_contact_row_structure(const Model& model, const ContactBuffer& contacts, RowSet& rows);

// Evaluates C_n and the gradients of all contact rows at configuration `c`.
void evaluate_contact_rows(const Model& model, const ContactBuffer& contacts, const Configuration& c,
                           RowSet& rows);

}  // namespace sim
