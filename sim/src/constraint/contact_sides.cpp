#include "constraint/contact_sides.hpp"

#include "constraint/particle_face_contact.hpp"
#include "core/kernel_views.hpp"

namespace sim {

int contact_side_node(const Model& model, const ContactSide& side) {
  switch (side.kind) {
    case ContactSide::Body:
      return model.body_is_dynamic(side.index) ? side.index : -1;
    case ContactSide::Particle:
      return model.particle_inv_mass[side.index] > 0 ? model.body_count + side.index : -1;
    case ContactSide::World:
    case ContactSide::ParticleFace:
      return -1;
  }
  return -1;
}

namespace {

void add_side_nodes(const Model& model, const ContactSide& side, RowNodes& nodes) {
  if (side.kind == ContactSide::ParticleFace) {
    for (int k = 0; k < kFaceCorners; ++k) nodes.node[nodes.slots++] = particle_face_node(model, side.index, k);
    return;
  }
  nodes.node[nodes.slots++] = contact_side_node(model, side);
}

}  // namespace

RowNodes contact_row_nodes(const Model& model, const Contact& contact) {
  RowNodes nodes;
  add_side_nodes(model, contact.a, nodes);
  add_side_nodes(model, contact.b, nodes);
  return nodes;
}

ContactPoints contact_points(const Model& model, const Contact& k, const Configuration& c) {
  return contact_points(contact_model_view(model), configuration_view(c), k.a, k.b, k.shape_a, k.shape_b, k.normal);
}

}  // namespace sim
