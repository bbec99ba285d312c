#include "constraint/tet_rows.hpp"

#include "core/kernel_views.hpp"
#include "core/parallel.hpp"

namespace sim {

TetView tet_view(const Model& m) {
  return TetView{m.tet_particle.data(), m.tet_rest_inverse.data(), m.tet_volume.data(), m.tet_mu.data(),
                 m.tet_lambda.data(),   m.tet_damping.data(),      m.tet_model.data(),  m.tet_compliance.data(),
                 m.tet_count};
}

RowNodes tet_row_nodes(const Model& m, int tet) {
  RowNodes nodes;
  for (int k = 0; k < 4; ++k) {
    const int p = m.tet_particle[4 * tet + k];
    nodes.node[k] = m.particle_inv_mass[p] > 0 ? m.body_count + p : -1;
  }
  nodes.slots = 4;
  return nodes;
}

void setup_tet_pressure(const Model& m, const Control& control, RowSet& rows) {
  rows.tet_pressure.resize(m.tet_count);
  const int groups = static_cast<int>(control.soft_pressure.size());
  parallel_for(m.tet_count, [&](int i) {
    const int g = m.tet_group.empty() ? -1 : m.tet_group[i];
    rows.tet_pressure[i] = g >= 0 && g < groups ? control.soft_pressure[g] : Real(0);
  });
}

void setup_tet_damping(const Model& m, const Configuration& c, Real h, int first, RowSet& rows) {
  const TetView tets = tet_view(m);
  const ConfigurationView at = configuration_view(c);
  parallel_for(m.tet_count, [&](int i) {
    Real strain[kTetRows];
    tet_row_strains(tets, at, i, strain);  // the measures: the pressure shifts forces only
    for (int k = 0; k < kTetRows; ++k) {
      const int r = first + kTetRows * i + k;
      rows.row_bias[r] = strain[k];
      rows.row_bound[r] = m.tet_damping[i] / h;
    }
  });
}

void evaluate_tet_rows(const Model& m, int tet, const Configuration& c, int first, RowSet& rows) {
  if (static_cast<int>(rows.tet_pressure.size()) < m.tet_count) rows.tet_pressure.resize(m.tet_count, Real(0));
  const TetRowsView tr{rows.row_compliance.data(), rows.row_bias.data(), rows.row_bound.data(), rows.tet_pressure.data(),
                       first};
  evaluate_tet_rows(tet_view(m), configuration_view(c), rows.gradient_view(), tr, tet);
}

}  // namespace sim
