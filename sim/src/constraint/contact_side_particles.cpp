#include "sim/contact_side_particles.hpp"

namespace sim {

ContactSideParticles contact_side_particles(const Model& m, const ContactSide& side) {
  ContactSideParticles out;
  const auto i = static_cast<std::size_t>(side.index);
  switch (side.kind) {
    case ContactSide::Particle:
      out.particle[0] = side.index;
      out.weight[0] = 1;
      out.count = 1;
      break;
    case ContactSide::ParticleFace:
      for (int k = 0; k < 3; ++k) {
        out.particle[static_cast<std::size_t>(k)] = m.particle_triangles[i][static_cast<std::size_t>(k)];
        out.weight[static_cast<std::size_t>(k)] = side.local_point[k];
      }
      out.count = 3;
      break;
    case ContactSide::ParticleSegment:
      out.particle[0] = m.distance_particle_a[i];
      out.particle[1] = m.distance_particle_b[i];
      out.weight[0] = side.local_point[0];
      out.weight[1] = side.local_point[1];
      out.count = 2;
      break;
    case ContactSide::Body:
    case ContactSide::World:
      break;
  }
  return out;
}

}  // namespace sim
