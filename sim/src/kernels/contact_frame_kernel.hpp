// Kernel: a new contact's friction frame, computed once at contact generation and frozen for the
// step like its normal (collision/contact_friction.cpp): the isotropic disc (both materials' μ
// combined by the geometric mean, the continuous basis of orthonormal_basis) or, where a structure
// field gives a grain, the matchstick ellipse of thesis ch. 3 (eqs. 32-35,
// constraint/friction_cone.hpp) with its basis (t, b). The grains (world directions, zero where a
// surface has none) are looked up on the host (fields, textures); this is the per-contact rest.
// Instantiated by sim/cuda/kernels.cu.
#pragma once

#include <cmath>

#include "constraint/friction_cone.hpp"
#include "kernels/kernel_macros.hpp"
#include "sim/math.hpp"

namespace sim {

// What a contact keeps of its friction (Contact's tangent1/2, friction, friction_bitangent,
// anisotropic, grain_alignment).
struct ContactFrictionFrame {
  Vec3 tangent1 = Vec3::UnitX();
  Vec3 tangent2 = Vec3::UnitY();
  Real friction = 0;            // μ, or μ_t along tangent1
  Real friction_bitangent = 0;  // μ_b along tangent2 (= friction when isotropic)
  bool anisotropic = false;
  Real grain_alignment = 0;     // d of eq. 32
};

// The disc of radius μ over the basis of orthonormal_basis(n).
SIM_HD inline ContactFrictionFrame isotropic_friction_frame(const Vec3& normal, Real mu) {
  ContactFrictionFrame f;
  orthonormal_basis(normal, f.tangent1, f.tangent2);
  f.friction = f.friction_bitangent = mu;
  f.anisotropic = false;
  f.grain_alignment = 0;
  return f;
}

// Whether the combined coefficients make a grain matter: equal coefficients give μ_t = μ_b = μ
// for any d (eq. 34), and skipping eq. 34 keeps the isotropic result to the bit (d μ + (1 − d) μ
// may differ from μ in the last place).
SIM_HD inline bool friction_needs_grains(const FrictionCoefficients& k) {
  return !(k.mu_major == k.mu && k.mu_minor == k.mu);
}

// The frame of a contact whose surfaces' combined coefficients are k (friction_needs_grains) for
// unit normal n and world grains g_a, g_b (zero: none): the matchstick cone, or the disc of μ
// where neither grain lies in the contact plane.
SIM_HD inline ContactFrictionFrame grain_friction_frame(const Vec3& normal, const FrictionCoefficients& k,
                                                        const Vec3& grain_a, const Vec3& grain_b) {
  const FrictionCone cone = matchstick_cone(normal, grain_a, grain_b, k);
  if (!cone.elliptic) return isotropic_friction_frame(normal, k.mu);
  ContactFrictionFrame f;
  f.tangent1 = cone.tangent;
  f.tangent2 = cone.bitangent;
  f.friction = cone.mu_t;
  f.friction_bitangent = cone.mu_b;
  f.anisotropic = cone.mu_t != cone.mu_b;
  f.grain_alignment = cone.alignment;
  return f;
}

// A contact's frame from its surfaces' combined coefficients k and grains (zero: none; looked up
// only where friction_needs_grains(k)): the disc of μ for equal coefficients, else the matchstick
// frame.
SIM_HD inline ContactFrictionFrame contact_friction_frame(const Vec3& normal, const FrictionCoefficients& k,
                                                          const Vec3& grain_a, const Vec3& grain_b) {
  if (!friction_needs_grains(k)) return isotropic_friction_frame(normal, k.mu);
  return grain_friction_frame(normal, k, grain_a, grain_b);
}

}  // namespace sim
