#include "grain_glyphs.hpp"

#include <algorithm>
#include <cmath>

#include "sim/structure_texture.hpp"

namespace render {

namespace {

std::uint32_t glyph_color(float strength) {
  // Magenta, paler where the filtered grain is weak (strength ½ .. 1).
  const float s = std::clamp((strength - 0.5f) * 2.0f, 0.0f, 1.0f);
  auto byte = [](float v) { return std::uint32_t(std::lround(std::clamp(v, 0.0f, 1.0f) * 255.0f)); };
  return byte(0.95f) | (byte(0.7f - 0.65f * s) << 8) | (byte(0.95f - 0.15f * s) << 16) | (255u << 24);
}

// The texture field covering shape s (its body's, else its material's), or null.
const sim::StructureTexture* shape_texture(const sim::Model& m, int s) {
  const int body = m.shape_body[std::size_t(s)];
  int field = body >= 0 && body < int(m.body_structure_field.size()) ? m.body_structure_field[std::size_t(body)] : -1;
  const int material = s < int(m.shape_material.size()) ? m.shape_material[std::size_t(s)] : -1;
  if (field < 0 && material >= 0 && material < int(m.material_structure_field.size()))
    field = m.material_structure_field[std::size_t(material)];
  if (field < 0 || field >= int(m.structure_fields.size())) return nullptr;
  const sim::StructureField& f = m.structure_fields[std::size_t(field)];
  return f.kind == sim::StructureFieldKind::Texture ? f.texture.get() : nullptr;
}

}  // namespace

void append_grain_glyphs(const sim::Model& model, const PoseView& poses, int target, std::vector<LineVertex>& out) {
  struct Item {
    int shape;
    const sim::MeshSurface* surface;
    const sim::StructureTexture* texture;
  };
  std::vector<Item> items;
  double area = 0;
  for (int s = 0; s < model.shape_count && s < int(model.shape_surface.size()); ++s) {
    const int k = model.shape_surface[std::size_t(s)];
    if (k < 0 || k >= int(model.surfaces.size())) continue;
    const sim::StructureTexture* texture = shape_texture(model, s);
    if (!texture) continue;
    const sim::MeshSurface& surface = *model.surfaces[std::size_t(k)];
    items.push_back({s, &surface, texture});
    for (int t : surface.order) {
      const auto& tri = surface.triangles[std::size_t(t)];
      area += 0.5 * (surface.vertices[tri[1]] - surface.vertices[tri[0]]).cross(surface.vertices[tri[2]] - surface.vertices[tri[0]]).norm();
    }
  }
  if (items.empty() || !(area > 0) || target <= 0) return;
  const double spacing = std::sqrt(area / target);
  double carry = 0;
  for (const Item& it : items) {
    const int body = model.shape_body[std::size_t(it.shape)];
    const sim::Pose& local = model.shape_local[std::size_t(it.shape)];
    glm::vec3 origin(float(local.pos.x()), float(local.pos.y()), float(local.pos.z()));
    glm::quat rotation(float(local.rot.w()), float(local.rot.x()), float(local.rot.y()), float(local.rot.z()));
    if (body >= 0) {
      const glm::quat body_rot = poses.rotation(body);
      origin = poses.position(body) + body_rot * origin;
      rotation = body_rot * rotation;
    }
    const auto to_world = [&](const sim::Vec3& p) { return origin + rotation * glm::vec3(float(p.x()), float(p.y()), float(p.z())); };
    const auto dir_world = [&](const sim::Vec3& d) { return rotation * glm::vec3(float(d.x()), float(d.y()), float(d.z())); };
    const sim::MeshSurface& surface = *it.surface;
    for (int t : surface.order) {
      const auto& tri = surface.triangles[std::size_t(t)];
      const sim::Vec3 &a = surface.vertices[tri[0]], &b = surface.vertices[tri[1]], &c = surface.vertices[tri[2]];
      const sim::Vec3 normal = (b - a).cross(c - a).normalized();
      const double longest = std::max({(b - a).norm(), (c - b).norm(), (a - c).norm()});
      // Triangles smaller than a glyph's share of the area take turns (one glyph at the centroid
      // whenever their accumulated share reaches one), so a fine mesh gets `target` glyphs too.
      const double share = 0.5 * (b - a).cross(c - a).norm() / (spacing * spacing);
      if (share < 1) {
        carry += share;
        if (carry < 1) continue;
        carry -= 1;
      }
      const int n = share < 1 ? 1 : std::clamp(int(std::ceil(longest / spacing)), 1, 64);
      // Sub-triangle centroids of an n × n barycentric grid (the upward ones: n(n+1)/2 points).
      for (int i = 0; i < n; ++i)
        for (int j = 0; i + j < n; ++j) {
          const float b1 = float((i + 1.0 / 3.0) / n), b2 = float((j + 1.0 / 3.0) / n);
          const sim::SurfacePoint at{t, b1, b2};
          const sim::Vec2 doubled = sim::sample_structure_texture(*it.texture, surface.uv(at));
          const sim::Vec3 grain = sim::surface_grain(*it.texture, surface, at);
          if (!(grain.norm() > 0)) continue;
          // The grain in the triangle's plane (a UV frame need not be orthogonal to the normal).
          sim::Vec3 g = grain - grain.dot(normal) * normal;
          if (!(g.norm() > 0)) continue;
          g = g.normalized() * (0.35 * spacing);
          const sim::Vec3 p = surface.position(at) + normal * (0.02 * spacing);
          const glm::vec3 centre = to_world(p), half = dir_world(g);
          const std::uint32_t color = glyph_color(float(doubled.norm()));
          out.push_back(LineVertex{{centre.x - half.x, centre.y - half.y, centre.z - half.z}, color});
          out.push_back(LineVertex{{centre.x + half.x, centre.y + half.y, centre.z + half.z}, color});
        }
    }
  }
}

}  // namespace render
