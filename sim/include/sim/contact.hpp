// Contacts: created once per step by collision detection from the state at the step's start,
// with a margin (paper §10). Normal, points and friction basis are frozen for the step.
#pragma once

#include <cstdint>
#include <vector>

#include "sim/contact_side.hpp"
#include "sim/math.hpp"
#include "sim/mesh_surface.hpp"

namespace sim {

// ContactSide: sim/contact_side.hpp (kernel-safe, read by the contact rows' kernels).

// The feature of an SDF contact (thesis ch. 6): a mesh vertex sampled in the other field, an edge
// (golden-section search), a face (PGD or Frank-Wolfe), a round core (point or segment), or a
// cloth face. None for contacts of the other narrowphases.
enum class SdfFeature : std::uint8_t { None, Vertex, Edge, Face, Core, ClothFace };

struct Contact {
  ContactSide a, b;               // C_n = n·(p_a - p_b) - d >= 0 (eq. 9)
  Vec3 normal = Vec3::UnitZ();    // unit, world, from b towards a
  Vec3 tangent1 = Vec3::UnitX();  // friction basis d1, d2 (eqs. 11-12), world; anisotropic: t, b
  Vec3 tangent2 = Vec3::UnitY();  //   of the matchstick cone (thesis eq. 33), t the major axis
  Real thickness = 0;             // d (sum of both shapes' thicknesses) [m]
  Real friction = 0;              // μ for this pair; anisotropic: μ_t along tangent1 (eq. 34)
  // Anisotropic friction (thesis ch. 3, constraint/friction_cone.hpp), frozen for the step like the
  // normal: the elliptic cone C = diag(1/μ_t², 1/μ_b²) over (tangent1, tangent2). Isotropic
  // contacts (no structure field on either surface, or equal coefficients) keep the disc of radius
  // μλ_n and the solver's isotropic code.
  bool anisotropic = false;
  Real friction_bitangent = 0;    // μ_b along tangent2 (eq. 34); = friction when isotropic
  Real grain_alignment = 0;       // d of eq. 32 (1 aligned, 0 orthogonal); 0 without directions
  Real initial_gap = 0;           // C_n at the step's start [m] (negative: penetration)
  std::uint64_t key = 0;          // stable feature id for warm starting
  int shape_a = -1, shape_b = -1; // shapes that produced it (-1 for particles)
  SdfFeature sdf_feature = SdfFeature::None;  // SDF contacts: the feature that found it
  std::uint16_t sdf_iterations = 0;  // field evaluations its local optimisation spent (1 for a vertex sample)
  // Texture grains (sim/mesh_surface.hpp): the triangle and barycentrics of each side's contact
  // point on its mesh, found where that side's grain is a texture; triangle −1 otherwise.
  SurfacePoint surface_a, surface_b;
};

struct ContactBuffer {
  std::vector<Contact> contacts;
  void clear() { contacts.clear(); }
  int size() const { return static_cast<int>(contacts.size()); }
};

}  // namespace sim
