#include "constraint/distance_rows.hpp"

#include "core/kernel_views.hpp"

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
  evaluate_distance_row(distance_view(m), configuration_view(c), rows.gradient_view(), i, row);
}

}  // namespace sim
