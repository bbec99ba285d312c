// One side of a contact (sim/contact.hpp): a plain value type, kernel-safe, so the contact rows'
// kernels (sim/src/kernels/contact_row_kernels.hpp) read it on the host and the device alike.
#pragma once

#include <cstdint>

#include "sim/math.hpp"

namespace sim {

// One side of a contact: a rigid body (point fixed in its com frame), a particle, the world, a
// point of a cloth face (Model::particle_triangles[index]) at fixed barycentric weights w:
// x = Σ_k w_k x_k over the face's three particles (one row couples all three,
// constraint/particle_face_contact.hpp), or a point of a distance constraint's segment (a rope's
// link, Model::distance_particle_a/b[index]) at weights (w_0, w_1) = (1 − s, s) on its ends.
struct ContactSide {
  enum Kind : std::int8_t { World, Body, Particle, ParticleFace, ParticleSegment };
  Kind kind = World;
  int index = -1;                 // body, particle, particle-face or distance-constraint index
  Vec3 local_point = Vec3::Zero();  // body: com frame; world: world point; particle: unused;
                                    // particle face: the barycentric weights (w_0, w_1, w_2);
                                    // particle segment: (1 − s, s, 0) on (particle_a, particle_b)
};

}  // namespace sim
