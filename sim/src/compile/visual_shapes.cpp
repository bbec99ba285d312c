#include "compile/visual_shapes.hpp"

#include <cmath>

namespace sim::detail {

namespace {

bool finite(const Vec3& v) { return std::isfinite(v.x()) && std::isfinite(v.y()) && std::isfinite(v.z()); }

std::string check_visual(const VisualSpec& v) {
  std::string w = v.source.file.empty() ? std::string("<scene>") : v.source.file;
  if (v.source.line > 0) w += ":" + std::to_string(v.source.line);
  w += ": <visual>: ";
  if (!finite(v.local.pos) || !std::isfinite(v.local.rot.norm()) || !(v.local.rot.norm() > 0))
    return w + "non-finite pose";
  switch (v.geometry) {
    case VisualGeometry::Box:
    case VisualGeometry::Ellipsoid:
      if (!(v.half_extents.minCoeff() > 0) || !finite(v.half_extents)) return w + "sizes must be > 0";
      break;
    case VisualGeometry::Sphere:
      if (!(v.radius > 0) || !std::isfinite(v.radius)) return w + "radius must be > 0";
      break;
    case VisualGeometry::Cylinder:
    case VisualGeometry::Capsule:
      if (!(v.radius > 0) || !(v.half_length >= 0) || !std::isfinite(v.radius + v.half_length))
        return w + "radius must be > 0 and the length >= 0";
      break;
    case VisualGeometry::Plane: break;
    case VisualGeometry::Mesh:
      if (!v.mesh) return w + "a mesh visual without its mesh";
      break;
  }
  for (float c : v.rgba)
    if (!(c >= 0.0f && c <= 1.0f)) return w + "rgba components must be in [0, 1]";
  return {};
}

}  // namespace

std::string add_visual_shapes(const SceneSpec& spec, Model& m) {
  m.body_has_visuals.assign(std::size_t(m.body_count), 0);
  auto add = [&](const VisualSpec& v, int body, const Pose& frame_in_owner) -> std::string {
    if (std::string e = check_visual(v); !e.empty()) return e;
    Pose local = frame_in_owner * v.local;
    local.rot.normalize();
    m.visual_geometry.push_back(v.geometry);
    m.visual_body.push_back(body);
    m.visual_local.push_back(local);
    m.visual_radius.push_back(v.radius);
    m.visual_half_length.push_back(v.half_length);
    m.visual_half_extents.push_back(v.half_extents);
    m.visual_mesh.push_back(v.mesh);
    m.visual_rgba.push_back(v.rgba);
    ++m.visual_count;
    if (body >= 0) m.body_has_visuals[std::size_t(body)] = 1;
    return {};
  };
  for (const VisualSpec& v : spec.world_visuals)
    if (std::string e = add(v, -1, Pose{}); !e.empty()) return e;
  for (int b = 0; b < m.body_count && b < static_cast<int>(spec.bodies.size()); ++b)
    for (const VisualSpec& v : spec.bodies[std::size_t(b)].visuals)
      if (std::string e = add(v, b, m.body_frame_in_com[std::size_t(b)]); !e.empty()) return e;
  return {};
}

}  // namespace sim::detail
