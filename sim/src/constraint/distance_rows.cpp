#include "constraint/distance_rows.hpp"

namespace sim {

void evaluate_distance_row(const Model& m, int i, const Configuration& c, RowSet& rows, int row) {
  const Vec3 d = c.particle_position[m.distance_particle_b[i]] - c.particle_position[m.distance_particle_a[i]];
  const Real len = d.norm();
  const Vec3 n = len > Real(1e-12) ? Vec3(d / len) : Vec3::UnitZ();
  Vec6 ga = Vec6::Zero(), gb = Vec6::Zero();
  ga.head<3>() = -n;
  gb.head<3>() = n;
  rows.row_value[row] = len - m.distance_rest[i];
  rows.row_grad_a[row] = ga;
  rows.row_grad_b[row] = gb;
}

}  // namespace sim
