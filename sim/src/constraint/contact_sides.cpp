#include "constraint/contact_sides.hpp"

#include "core/kernel_views.hpp"
#include "sim/contact_side_particles.hpp"

namespace sim {

int contact_side_node(const Model& model, const ContactSide& side) {
  switch (side.kind) {
    case ContactSide::Body:
      return model.body_is_dynamic(side.index) ? side.index : -1;
    case ContactSide::Particle:
      return model.particle_inv_mass[side.index] > 0 ? model.body_count + side.index : -1;
    case ContactSide::World:
    case ContactSide::ParticleFace:
    case ContactSide::ParticleSegment:
      return -1;
  }
  return -1;
}

namespace {

// A face's or segment's slots are its particles (contact_side_particles' order), a pinned one -1.
void add_side_nodes(const Model& model, const ContactSide& side, RowNodes& nodes) {
  if (side.kind == ContactSide::ParticleFace || side.kind == ContactSide::ParticleSegment) {
    const ContactSideParticles corners = contact_side_particles(model, side);
    for (int k = 0; k < corners.count; ++k) {
      const int p = corners.particle[static_cast<std::size_t>(k)];
      nodes.node[nodes.slots++] = model.particle_inv_mass[static_cast<std::size_t>(p)] > 0 ? model.body_count + p : -1;
    }
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
