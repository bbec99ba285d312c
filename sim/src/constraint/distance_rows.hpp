// Particle distance rows (rope, cloth), compliance form (eq. 8):
//   C = |x_b − x_a| − L,  ∇C = [−n, n] with n = (x_b − x_a)/|x_b − x_a|.
#pragma once

#include "constraint/rows.hpp"
#include "core/kinematics.hpp"
#include "kernels/distance_row_kernel.hpp"

namespace sim {

// The two slots: particle a, particle b (-1 where pinned).
RowNodes distance_row_nodes(const Model& model, int i);
// C and ∇C of distance i into row `row`: the kernel of kernels/distance_row_kernel.hpp.
void evaluate_distance_row(const Model& model, int i, const Configuration& c, RowSet& rows, int row);

}  // namespace sim
