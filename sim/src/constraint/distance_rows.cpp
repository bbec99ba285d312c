#include "constraint/distance_rows.hpp"

namespace sim {

RowNodes distance_row_nodes(const Model& m, int i) {
  auto node = [&](int p) { return m.particle_inv_mass[p] > 0 ? m.body_count + p : -1; };
  RowNodes nodes;
  nodes.node[0] = node(m.distance_particle_a[i]);
  nodes.node[1] = node(m.distance_particle_b[i]);
  nodes.slots = 2;
  return nodes;
}

void evaluate_distance_row(const Model& m, int i, const Configuration& c, RowSet& rows, int row) {
  const Vec3 d = c.particle_position[m.distance_particle_b[i]] - c.particle_position[m.distance_particle_a[i]];
  const Real len = d.norm();
  const Vec3 n = len > Real(1e-12) ? Vec3(d / len) : Vec3::UnitZ();
  Vec6 ga = Vec6::Zero(), gb = Vec6::Zero();
  ga.head<3>() = -n;
  gb.head<3>() = n;
  rows.row_value[row] = len - m.distance_rest[i];
  rows.set_gradient(row, ga, gb);
}

}  // namespace sim
