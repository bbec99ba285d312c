// Contacts: created once per step by collision detection from the state at the step's start,
// with a margin (paper §10). Normal, points and friction basis are frozen for the step.
#pragma once

#include <cstdint>
#include <vector>

#include "sim/math.hpp"

namespace sim {

// One side of a contact: a rigid body (point fixed in its com frame), a particle, or the world.
struct ContactSide {
  enum Kind : std::int8_t { World, Body, Particle };
  Kind kind = World;
  int index = -1;                 // body or particle index
  Vec3 local_point = Vec3::Zero();  // body: com frame; world: world point; particle: unused
};

struct Contact {
  ContactSide a, b;               // C_n = n·(p_a - p_b) - d >= 0 (eq. 9)
  Vec3 normal = Vec3::UnitZ();    // unit, world, from b towards a
  Vec3 tangent1 = Vec3::UnitX();  // friction basis d1, d2 (eqs. 11-12), world
  Vec3 tangent2 = Vec3::UnitY();
  Real thickness = 0;             // d (sum of both shapes' thicknesses) [m]
  Real friction = 0;              // μ for this pair
  Real initial_gap = 0;           // C_n at the step's start [m] (negative: penetration)
  std::uint64_t key = 0;          // stable feature id for warm starting
  int shape_a = -1, shape_b = -1; // shapes that produced it (-1 for particles)
};

struct ContactBuffer {
  std::vector<Contact> contacts;
  void clear() { contacts.clear(); }
  int size() const { return static_cast<int>(contacts.size()); }
};

}  // namespace sim
