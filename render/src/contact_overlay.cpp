#include <algorithm>

#include "render/frame_input.hpp"
#include "sim/contact_side_particles.hpp"

namespace render {

namespace {

glm::vec3 to_glm(const sim::Vec3& v) { return glm::vec3(float(v.x()), float(v.y()), float(v.z())); }

// World position of a contact side's point.
glm::vec3 side_point(const sim::Model& model, const sim::State& state, const sim::ContactSide& side,
                     const glm::vec3& normal_out) {
  switch (side.kind) {
    case sim::ContactSide::Body:
      return to_glm(state.body_pose(side.index).apply(side.local_point));
    case sim::ContactSide::Particle:
    case sim::ContactSide::ParticleFace:
    case sim::ContactSide::ParticleSegment: {  // Σ w_k x_k over its particles, moved out of their radii
      const sim::ContactSideParticles corners = sim::contact_side_particles(model, side);
      glm::vec3 x{0.0f};
      float radius = 0;
      for (int k = 0; k < corners.count; ++k) {
        const int p = corners.particle[std::size_t(k)];
        const int c = model.particle_coord(p);
        const float w = float(corners.weight[std::size_t(k)]);
        x += w * glm::vec3{float(state.q[c]), float(state.q[c + 1]), float(state.q[c + 2])};
        radius += w * float(model.particle_radius[std::size_t(p)]);
      }
      return x - normal_out * radius;
    }
    case sim::ContactSide::World:
      break;
  }
  return to_glm(side.local_point);
}

}  // namespace

void copy_contacts(const sim::Model& model, const sim::State& state, const sim::Workspace& workspace,
                   ContactOverlay& out) {
  copy_contacts(model, state, workspace.contacts.contacts, workspace.contact_normal_force,
                workspace.contact_friction_force, out);
}

void copy_contacts(const sim::Model& model, const sim::State& state, std::span<const sim::Contact> contacts,
                   std::span<const sim::Real> normal_force, std::span<const sim::Vec2> friction_force,
                   ContactOverlay& out) {
  out.clear();
  const int n = static_cast<int>(contacts.size());
  const bool have_forces = normal_force.size() >= std::size_t(n) && friction_force.size() >= std::size_t(n);
  for (int i = 0; i < n; ++i) {
    const sim::Contact& c = contacts[std::size_t(i)];
    const glm::vec3 normal = to_glm(c.normal);
    // The normal points from b to a: a's surface faces -n, b's faces +n.
    const glm::vec3 pa = side_point(model, state, c.a, normal);
    const glm::vec3 pb = side_point(model, state, c.b, -normal);
    out.point.push_back(0.5f * (pa + pb));
    out.normal.push_back(normal);
    out.sdf_feature.push_back(c.sdf_feature);
    out.sdf_iterations.push_back(c.sdf_iterations);
    if (have_forces) {
      const float ln = float(normal_force[std::size_t(i)]);
      const sim::Vec2 lf = friction_force[std::size_t(i)];
      out.normal_force.push_back(ln * normal);
      out.friction_force.push_back(float(lf.x()) * to_glm(c.tangent1) + float(lf.y()) * to_glm(c.tangent2));
      const float loaded = std::max(ln, 0.0f);
      out.friction_axis_t.push_back(float(c.friction) * loaded * to_glm(c.tangent1));
      out.friction_axis_b.push_back(float(c.anisotropic ? c.friction_bitangent : c.friction) * loaded * to_glm(c.tangent2));
    } else {
      out.normal_force.emplace_back(0.0f);
      out.friction_force.emplace_back(0.0f);
      out.friction_axis_t.emplace_back(0.0f);
      out.friction_axis_b.emplace_back(0.0f);
    }
  }
}

}  // namespace render
