#include "ui/contact_readout.hpp"

#include <imgui.h>

#include <algorithm>
#include <cmath>

#include "sim/contact_side_particles.hpp"
#include "ui/friction_ellipse.hpp"
#include "ui/plot_axis.hpp"

namespace ui {

sim::Vec3 contact_side_point(const sim::Model& m, const sim::State& s, const sim::ContactSide& side,
                             const sim::Vec3& outward) {
  if (side.kind == sim::ContactSide::Body) return s.body_pose(side.index).apply(side.local_point);
  if (side.kind == sim::ContactSide::World) return side.local_point;
  // A particle, face or segment: Σ w_k x_k over its particles, moved out of their radii.
  const sim::ContactSideParticles corners = sim::contact_side_particles(m, side);
  sim::Vec3 x = sim::Vec3::Zero();
  sim::Real radius = 0;
  for (int k = 0; k < corners.count; ++k) {
    const int p = corners.particle[static_cast<std::size_t>(k)], c = m.particle_coord(p);
    const sim::Real w = corners.weight[static_cast<std::size_t>(k)];
    x += w * sim::Vec3(s.q[c], s.q[c + 1], s.q[c + 2]);
    radius += w * m.particle_radius[static_cast<std::size_t>(p)];
  }
  return x - outward * radius;
}

sim::Vec3 contact_side_velocity(const sim::Model& m, const sim::State& s, const sim::ContactSide& side,
                                const sim::Vec3& point) {
  if (side.kind == sim::ContactSide::Body)
    return s.body_velocity(side.index) + s.body_angular_velocity(side.index).cross(point - s.body_position(side.index));
  const sim::ContactSideParticles corners = sim::contact_side_particles(m, side);
  sim::Vec3 v = sim::Vec3::Zero();
  for (int k = 0; k < corners.count; ++k) {
    const int d = m.particle_dof(corners.particle[static_cast<std::size_t>(k)]);
    v += corners.weight[static_cast<std::size_t>(k)] * sim::Vec3(s.u[d], s.u[d + 1], s.u[d + 2]);
  }
  return v;
}

std::string contact_side_name(const sim::Model& m, const sim::ContactSide& side) {
  switch (side.kind) {
    case sim::ContactSide::Body:
      return side.index < static_cast<int>(m.body_name.size()) ? "body '" + m.body_name[static_cast<std::size_t>(side.index)] + "'"
                                                               : "body " + std::to_string(side.index);
    case sim::ContactSide::Particle: return "particle " + std::to_string(side.index);
    case sim::ContactSide::ParticleFace: return "cloth face " + std::to_string(side.index);
    case sim::ContactSide::ParticleSegment: return "segment of distance " + std::to_string(side.index);
    case sim::ContactSide::World: break;
  }
  return "world";
}

double friction_cone_ratio(const sim::Contact& c, double normal_force, const sim::Vec2& f) {
  const double mu = static_cast<double>(c.friction), mu_b = static_cast<double>(c.anisotropic ? c.friction_bitangent : c.friction);
  if (!(normal_force > 0) || !(mu > 0) || !(mu_b > 0)) return 0;
  return std::hypot(static_cast<double>(f.x()) / mu, static_cast<double>(f.y()) / mu_b) / normal_force;
}

ContactReadout contact_readout(const sim::Model& m, const sim::State& s, const sim::Workspace& ws, int i) {
  ContactReadout r;
  if (i < 0 || i >= ws.contacts.size() || static_cast<int>(s.q.size()) != m.coord_count()) return r;
  const sim::Contact& c = ws.contacts.contacts[static_cast<std::size_t>(i)];
  r.contact = i;
  r.side_a = contact_side_name(m, c.a);
  r.side_b = contact_side_name(m, c.b);
  r.normal = c.normal;
  // The normal points from b to a: a's surface faces −n, b's +n.
  r.point_a = contact_side_point(m, s, c.a, c.normal);
  r.point_b = contact_side_point(m, s, c.b, -c.normal);
  r.gap = static_cast<double>(c.normal.dot(r.point_a - r.point_b) - c.thickness);
  r.initial_gap = static_cast<double>(c.initial_gap);
  r.mu = static_cast<double>(c.friction);
  r.mu_bitangent = static_cast<double>(c.anisotropic ? c.friction_bitangent : c.friction);
  r.anisotropic = c.anisotropic;
  r.tangent1 = c.tangent1;
  r.tangent2 = c.tangent2;
  if (ws.contact_normal_force.size() > static_cast<std::size_t>(i) && ws.contact_friction_force.size() > static_cast<std::size_t>(i)) {
    r.normal_force = static_cast<double>(ws.contact_normal_force[static_cast<std::size_t>(i)]);
    const sim::Vec2 f = ws.contact_friction_force[static_cast<std::size_t>(i)];
    r.friction_tangent = f;
    r.friction_force = f.x() * c.tangent1 + f.y() * c.tangent2;
    r.friction_magnitude = static_cast<double>(r.friction_force.norm());
    r.cone_ratio = friction_cone_ratio(c, r.normal_force, f);
  }
  const sim::Vec3 mid = 0.5 * (r.point_a + r.point_b);
  const sim::Vec3 dv = contact_side_velocity(m, s, c.a, mid) - contact_side_velocity(m, s, c.b, mid);
  r.slip_velocity = dv - c.normal.dot(dv) * c.normal;
  r.slip_speed = static_cast<double>(r.slip_velocity.norm());
  r.slip_tangent = sim::Vec2(r.slip_velocity.dot(c.tangent1), r.slip_velocity.dot(c.tangent2));
  return r;
}

bool contact_panel(const ContactReadout& r) {
  bool open = true;
  if (!ImGui::Begin("Contact", &open)) {
    ImGui::End();
    return open;
  }
  if (r.contact < 0) {
    ImGui::TextDisabled("the contact is gone (contacts are found again every step)");
    ImGui::End();
    return open;
  }
  const auto vec = [](const sim::Vec3& v) {
    return readout(v.x()) + ", " + readout(v.y()) + ", " + readout(v.z());
  };
  ImGui::TextWrapped("contact %d: %s on %s", r.contact, r.side_a.c_str(), r.side_b.c_str());
  ImGui::Separator();
  ImGui::Text("gap       %s m (step start: %s m)", readout(r.gap).c_str(), readout(r.initial_gap).c_str());
  ImGui::Text("normal    (%s)", vec(r.normal).c_str());
  ImGui::Text("force     %s N", readout(r.normal_force).c_str());
  ImGui::Text("friction  %s N", readout(r.friction_magnitude).c_str());
  ImGui::Text("          (%s)", vec(r.friction_force).c_str());
  if (r.anisotropic) ImGui::Text("mu        %s along the grain, %s across", readout(r.mu).c_str(), readout(r.mu_bitangent).c_str());
  else ImGui::Text("mu        %s", readout(r.mu).c_str());
  ImGui::Text("slip      %s m/s", readout(r.slip_speed).c_str());
  ImGui::Text("          (%s)", vec(r.slip_velocity).c_str());
  if (r.normal_force <= 0) {
    ImGui::TextDisabled("no load: the contact carries no force");
  } else {
    const bool sliding = r.cone_ratio > kSlidingConeRatio;
    ImGui::TextColored(sliding ? ImVec4(1.0f, 0.7f, 0.3f, 1.0f) : ImVec4(0.5f, 0.9f, 0.5f, 1.0f),
                       "%s: friction at %.0f %% of the cone's bound", sliding ? "sliding" : "sticking", 100.0 * r.cone_ratio);
    draw_friction_ellipse(r, sliding);
  }
  ImGui::End();
  return open;
}

}  // namespace ui
