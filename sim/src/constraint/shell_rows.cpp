#include "constraint/shell_rows.hpp"

#include "core/kernel_views.hpp"
#include "core/parallel.hpp"

namespace sim {

MembraneView membrane_view(const Model& m) {
  return MembraneView{m.membrane_particle.data(), m.membrane_rest_inverse.data(), m.membrane_area.data(),
                      m.membrane_mu.data(),       m.membrane_lambda.data(),       m.membrane_count};
}

HingeView hinge_view(const Model& m) {
  return HingeView{m.hinge_particle.data(), m.hinge_rest_angle.data(), m.hinge_stiffness.data(), m.hinge_count};
}

namespace {

RowNodes particle_slots(const Model& m, const int* particles, int slots) {
  RowNodes nodes;
  for (int k = 0; k < slots; ++k) {
    const int p = particles[k];
    nodes.node[k] = m.particle_inv_mass[p] > 0 ? m.body_count + p : -1;
  }
  nodes.slots = slots;
  return nodes;
}

}  // namespace

RowNodes membrane_row_nodes(const Model& m, int t) { return particle_slots(m, &m.membrane_particle[3 * t], 3); }
RowNodes hinge_row_nodes(const Model& m, int e) { return particle_slots(m, &m.hinge_particle[4 * e], 4); }

ElasticRowsView elastic_rows_view(RowSet& rows) {
  return ElasticRowsView{rows.row_compliance.data(), rows.row_bias.data(), rows.row_bound.data()};
}

void setup_shell_damping(const Model& m, const Configuration& c, Real h, RowSet& rows) {
  const MembraneView tris = membrane_view(m);
  const HingeView hinges = hinge_view(m);
  const ConfigurationView at = configuration_view(c);
  parallel_for(m.membrane_count, [&](int i) {
    Real measure[kMembraneRows];
    membrane_row_measures(tris, at, i, measure);
    for (int k = 0; k < kMembraneRows; ++k) {
      const int r = rows.first_membrane + kMembraneRows * i + k;
      rows.row_bias[r] = measure[k];
      rows.row_bound[r] = m.membrane_damping[i] / h;
    }
  });
  parallel_for(m.hinge_count, [&](int i) {
    const int r = rows.first_hinge + i;
    rows.row_bias[r] = hinge_row_measure(hinges, at, i);
    rows.row_bound[r] = m.hinge_damping[i] / h;
  });
}

void evaluate_shell_rows(const Model& m, const Configuration& c, RowSet& rows) {
  const MembraneView tris = membrane_view(m);
  const HingeView hinges = hinge_view(m);
  const ConfigurationView at = configuration_view(c);
  const RowGradientView out = rows.gradient_view();
  const ElasticRowsView cr = elastic_rows_view(rows);
  parallel_for(m.membrane_count, [&](int i) { evaluate_membrane_rows(tris, at, out, cr, rows.first_membrane, i); });
  parallel_for(m.hinge_count, [&](int i) { evaluate_hinge_row(hinges, at, out, cr, rows.first_hinge, i); });
}

}  // namespace sim
