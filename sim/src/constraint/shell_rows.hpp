// Shell rows (cloth and shells in the FEM compliance machinery, paper §9.1, eq. 80): four
// RowKind::Bilateral membrane rows per triangle (kernels/membrane_row_kernel.hpp) and up to three
// bending rows per triangle with interior edges (kernels/bending_row_kernel.hpp), each with value m
// (its measure), gradient ∂m/∂x over its particles and compliance 1/k (kernels/elastic_row_kernel.hpp).
// They follow the tet rows in the bilateral block (RowSet::first_membrane, first_bending);
// row_sub = −9 − k marks membrane row k, −13 a bending row (tets: −2 … −8, distances: −1).
#pragma once

#include "constraint/rows.hpp"
#include "core/kinematics.hpp"
#include "kernels/bending_row_kernel.hpp"
#include "kernels/membrane_row_kernel.hpp"

namespace sim {

MembraneView membrane_view(const Model& model);
HingeView hinge_view(const Model& model);
BendingView bending_view(const Model& model);
// The slots: the triangle's three particles, the bending row's six (-1 where pinned or unused).
RowNodes membrane_row_nodes(const Model& model, int triangle);
RowNodes bending_row_nodes(const Model& model, int row);
inline int membrane_row_sub(int k) { return -9 - k; }
inline constexpr int kBendingRowSub = -13;

// The RowSet's compliant-row arrays (row_compliance, row_bias, row_bound).
ElasticRowsView elastic_rows_view(RowSet& rows);

// Per step, after the evaluation at q⁻: each shell row's measure at q⁻ into row_bias and γ = β/h
// into row_bound (damping; as setup_tet_damping does for the tets).
void setup_shell_damping(const Model& model, const Configuration& c, Real h, RowSet& rows);

// All shell rows at configuration c (the row assembly's evaluation; tests).
void evaluate_shell_rows(const Model& model, const Configuration& c, RowSet& rows);

}  // namespace sim
