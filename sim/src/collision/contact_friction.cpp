#include "collision/contact_friction.hpp"

#include <cmath>

#include "collision/structure_field.hpp"
#include "constraint/friction_cone.hpp"

namespace sim::detail {

Vec3 object_grain(const Model& model, const CollisionObject& o, const Vec3& p, SurfacePoint& surface) {
  if (o.structure_field < 0) return Vec3::Zero();
  const StructureField& f = model.structure_fields[static_cast<std::size_t>(o.structure_field)];
  if (f.kind == StructureFieldKind::Texture) {  // looked up on the mesh, in its shape frame
    if (!o.surface || !f.texture) return Vec3::Zero();
    surface = o.surface->closest_point(o.pose.rot.conjugate() * (p - o.pose.pos));
    return o.pose.rot * surface_grain(*f.texture, *o.surface, surface);
  }
  const Vec3 local = o.field_frame.rot.conjugate() * (p - o.field_frame.pos);
  return o.field_frame.rot * structure_direction(f, local);
}

void set_contact_friction(const Model& model, const CollisionObject& a, const Vec3& p_a, const CollisionObject& b,
                          const Vec3& p_b, Contact& c) {
  const auto isotropic = [&](Real mu) {  // the disc, exactly as before ch. 3
    orthonormal_basis(c.normal, c.tangent1, c.tangent2);
    c.friction = c.friction_bitangent = mu;
    c.anisotropic = false;
    c.grain_alignment = 0;
  };
  if (a.structure_field < 0 && b.structure_field < 0) return isotropic(std::sqrt(a.friction * b.friction));
  const FrictionCoefficients k = combine_friction({a.friction, a.friction_major, a.friction_minor},
                                                  {b.friction, b.friction_major, b.friction_minor});
  // Equal coefficients: eq. 34 gives μ_t = μ_b = μ for any d; skip it so the result is the
  // isotropic one to the bit (d μ + (1 − d) μ may differ from μ in the last place).
  if (k.mu_major == k.mu && k.mu_minor == k.mu) return isotropic(k.mu);
  const Vec3 grain_a = object_grain(model, a, p_a, c.surface_a);
  const Vec3 grain_b = object_grain(model, b, p_b, c.surface_b);
  const FrictionCone cone = matchstick_cone(c.normal, grain_a, grain_b, k);
  if (!cone.elliptic) return isotropic(k.mu);
  c.tangent1 = cone.tangent;
  c.tangent2 = cone.bitangent;
  c.friction = cone.mu_t;
  c.friction_bitangent = cone.mu_b;
  c.anisotropic = cone.mu_t != cone.mu_b;
  c.grain_alignment = cone.alignment;
}

}  // namespace sim::detail
