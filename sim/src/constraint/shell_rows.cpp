#include "constraint/shell_rows.hpp"

#include "core/kernel_views.hpp"
#include "core/parallel.hpp"

namespace sim {

MembraneView membrane_view(const Model& m) {
  return MembraneView{m.membrane_particle.data(), m.membrane_rest_inverse.data(), m.membrane_area.data(),
                      m.membrane_mu.data(),       m.membrane_lambda.data(),       m.membrane_count};
}

HingeView hinge_view(const Model& m) {
  return HingeView{m.hinge_particle.data(), m.hinge_rest_angle.data(), m.hinge_count};
}

BendingView bending_view(const Model& m) {
  return BendingView{hinge_view(m),           m.bending_hinge.data(),      m.bending_weight.data(),
                     m.bending_particle.data(), m.bending_stiffness.data(), m.bending_count};
}

namespace {

RowNodes particle_slots(const Model& m, const int* particles, int slots) {
  RowNodes nodes;
  for (int k = 0; k < slots; ++k) {
    const int p = particles[k];
    nodes.node[k] = p >= 0 && m.particle_inv_mass[p] > 0 ? m.body_count + p : -1;
  }
  nodes.slots = slots;
  return nodes;
}

}  // namespace

RowNodes membrane_row_nodes(const Model& m, int t) { return particle_slots(m, &m.membrane_particle[3 * t], 3); }
RowNodes bending_row_nodes(const Model& m, int r) {
  return particle_slots(m, &m.bending_particle[kBendingParticles * r], kBendingParticles);
}

ElasticRowsView elastic_rows_view(RowSet& rows) {
  return ElasticRowsView{rows.row_compliance.data(), rows.row_bias.data(), rows.row_bound.data()};
}

void setup_shell_damping(const Model& m, const Configuration& c, Real h, RowSet& rows) {
  const MembraneView tris = membrane_view(m);
  const BendingView bending = bending_view(m);
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
  parallel_for(m.bending_count, [&](int i) {
    const int r = rows.first_bending + i;
    Vec3 grad[kBendingParticles];
    rows.row_bias[r] = bending_measure(bending, at, i, grad);
    rows.row_bound[r] = m.bending_damping[i] / h;
  });
}

void evaluate_shell_rows(const Model& m, const Configuration& c, RowSet& rows) {
  const MembraneView tris = membrane_view(m);
  const BendingView bending = bending_view(m);
  const ConfigurationView at = configuration_view(c);
  const RowGradientView out = rows.gradient_view();
  const ElasticRowsView cr = elastic_rows_view(rows);
  parallel_for(m.membrane_count, [&](int i) { evaluate_membrane_rows(tris, at, out, cr, rows.first_membrane, i); });
  parallel_for(m.bending_count, [&](int i) { evaluate_bending_row(bending, at, out, cr, rows.first_bending, i); });
}

}  // namespace sim
