// The friction of a new contact, computed once at contact generation and frozen for the step like
// its normal: the isotropic disc (both materials' μ combined by the geometric mean, an arbitrary
// continuous basis) or, where a structure field gives a grain, the matchstick ellipse of thesis
// ch. 3 (constraint/friction_cone.hpp) with its basis (t, b).
#pragma once

#include "collision/collide.hpp"
#include "sim/contact.hpp"
#include "sim/model.hpp"

namespace sim::detail {

// Fills c.tangent1/2, friction, friction_bitangent, anisotropic, grain_alignment and (texture
// grains) surface_a/b for a contact
// between objects a and b (c.normal set, from b towards a) touching at world points p_a and p_b.
// Objects without a field on either side cost one branch over the isotropic path.
void set_contact_friction(const Model& model, const CollisionObject& a, const Vec3& p_a, const CollisionObject& b,
                          const Vec3& p_b, Contact& c);

// The grain of object o at world point p, in world coordinates (zero without a field). A texture
// grain finds the closest triangle of o's mesh to p and records it in `surface`.
Vec3 object_grain(const Model& model, const CollisionObject& o, const Vec3& p, SurfacePoint& surface);

}  // namespace sim::detail
