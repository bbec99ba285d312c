// The particles a contact side moves with, and their weights: a particle (itself, weight 1), a
// particle face (its triangle's three corners at the side's barycentric weights), a particle
// segment (its distance constraint's two ends at (1 − s, s)); none for a body or the world.
// The side's point is Σ_k w_k x_k and its velocity Σ_k w_k v_k; a force f on it moves corner k by
// w_k f (Σ_k w_k = 1). Read by the rows' node lists (constraint/contact_sides.cpp), the viewer's
// contact points (render, ui) and the contact-force field.
#pragma once

#include <array>

#include "sim/contact_side.hpp"
#include "sim/model.hpp"

namespace sim {

struct ContactSideParticles {
  std::array<int, 3> particle{-1, -1, -1};
  std::array<Real, 3> weight{0, 0, 0};
  int count = 0;  // 0 (body, world), 1 (particle), 2 (segment) or 3 (face)
};

ContactSideParticles contact_side_particles(const Model& model, const ContactSide& side);

}  // namespace sim
