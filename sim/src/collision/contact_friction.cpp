#include "collision/contact_friction.hpp"

#include <cmath>

#include "collision/structure_field.hpp"
#include "constraint/friction_cone.hpp"
#include "kernels/contact_frame_kernel.hpp"

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
  // The per-contact frame is the kernel of kernels/contact_frame_kernel.hpp; the grains, looked up
  // in fields and textures, are the host's.
  const auto frame = [&]() -> ContactFrictionFrame {
    if (a.structure_field < 0 && b.structure_field < 0)  // the disc, exactly as before ch. 3
      return isotropic_friction_frame(c.normal, std::sqrt(a.friction * b.friction));
    const FrictionCoefficients k = combine_friction({a.friction, a.friction_major, a.friction_minor},
                                                    {b.friction, b.friction_major, b.friction_minor});
    Vec3 grain_a = Vec3::Zero(), grain_b = Vec3::Zero();
    if (friction_needs_grains(k)) {
      grain_a = object_grain(model, a, p_a, c.surface_a);
      grain_b = object_grain(model, b, p_b, c.surface_b);
    }
    return contact_friction_frame(c.normal, k, grain_a, grain_b);
  }();
  c.tangent1 = frame.tangent1;
  c.tangent2 = frame.tangent2;
  c.friction = frame.friction;
  c.friction_bitangent = frame.friction_bitangent;
  c.anisotropic = frame.anisotropic;
  c.grain_alignment = frame.grain_alignment;
}

}  // namespace sim::detail
