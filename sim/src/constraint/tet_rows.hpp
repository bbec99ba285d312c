// FEM tetrahedron rows of soft bodies (paper §9.1-9.2, eqs. 75-85): seven RowKind::Bilateral rows
// per tet (six strain components and the volume term), with value E c(q), gradient over the tet's
// four particles and compliance E (kernels/tet_row_kernel.hpp has the equations). They follow the
// distance rows in the bilateral block; row_sub = −2 − k marks row k of a tet (distances: −1).
// Active pressure (issue 14 item 5): each tet's group pressure shifts its hydrostatic row's target
// (kernels/tet_row_kernel.hpp has the derivation).
#pragma once

#include "constraint/rows.hpp"
#include "core/kinematics.hpp"
#include "sim/state.hpp"
#include "kernels/tet_row_kernel.hpp"

namespace sim {

// The Model's tets as the kernels read them.
TetView tet_view(const Model& model);
// The four slots: the tet's particles (-1 where pinned).
RowNodes tet_row_nodes(const Model& model, int tet);
// The row_sub of row k of a tet, and back (-1 when `sub` is not a tet row).
inline int tet_row_sub(int k) { return -2 - k; }
inline int tet_row_of_sub(int sub) { return sub <= -2 && sub > -2 - kTetRows ? -2 - sub : -1; }

// Each tet's active pressure of this step into rows.tet_pressure: Control::soft_pressure of its
// group (0 for tets without one, or a control without pressures). Called before the rows are
// evaluated at q⁻.
void setup_tet_pressure(const Model& model, const Control& control, RowSet& rows);

// The rows' per-step constants for damping: the row's measure at q⁻ into row_bias and γ = β/h into
// row_bound of every tet row (`c` at q⁻). Called once per step after the evaluation at q⁻.
void setup_tet_damping(const Model& model, const Configuration& c, Real h, int first_tet_row, RowSet& rows);

// The rows of tet i at configuration c into rows first_tet_row + 7 i + k (the kernel; for tests).
void evaluate_tet_rows(const Model& model, int tet, const Configuration& c, int first_tet_row, RowSet& rows);

}  // namespace sim
