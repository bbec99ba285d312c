#include "constraint/attachment_rows.hpp"

#include "constraint/joint_rows.hpp"
#include "core/kernel_views.hpp"

namespace sim {

AttachmentView attachment_view(const Model& m) {
  return AttachmentView{m.attachment_particle.data(), m.attachment_body.data(), m.attachment_local.data(),
                        m.attachment_count};
}

RowNodes attachment_row_nodes(const Model& m, int i) {
  const int p = m.attachment_particle[i];
  RowNodes nodes;
  nodes.node[0] = m.particle_inv_mass[p] > 0 ? m.body_count + p : -1;
  nodes.node[1] = joint_side_node(m, m.attachment_body[i]);
  nodes.slots = 2;
  return nodes;
}

void evaluate_attachment_rows(const Model& m, int i, const Configuration& c, int first, RowSet& rows) {
  evaluate_attachment_rows(attachment_view(m), configuration_view(c), rows.gradient_view(), i, first);
}

}  // namespace sim
