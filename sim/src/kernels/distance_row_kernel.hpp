// Kernel: one particle distance row (rope, cloth; constraint/distance_rows.hpp), compliance form
// (eq. 8): C = |x_b − x_a| − L, ∇C = [−n, n] with n = (x_b − x_a)/|x_b − x_a| (+z where the two
// coincide). Called from constraint/row_assembly.cpp's per-distance loop; instantiated by
// sim/cuda/kernels.cu.
#pragma once

#include "kernels/kernel_macros.hpp"
#include "kernels/row_gradient_kernels.hpp"
#include "kernels/views.hpp"

namespace sim {

SIM_HD inline void evaluate_distance_row(const DistanceView& distances, const ConfigurationView& c,
                                         const RowGradientView& rows, int i, int row) {
  const Vec3 d = c.particle_position[distances.particle_b[i]] - c.particle_position[distances.particle_a[i]];
  const Real len = d.norm();
  const Vec3 n = len > Real(1e-12) ? Vec3(d / len) : Vec3::UnitZ();
  Vec6 ga = Vec6::Zero(), gb = Vec6::Zero();
  ga.head<3>() = -n;
  gb.head<3>() = n;
  set_row(rows, row, len - distances.rest[i], ga, gb);
}

}  // namespace sim
