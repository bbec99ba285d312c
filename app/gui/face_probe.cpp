#include "gui/face_probe.hpp"

#include "gui/picking.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace coulomb::gui {

namespace {

const sim::SoftRenderMesh* render_mesh_of(const sim::Model& m, int render_mesh) {
  if (render_mesh < 0 || render_mesh >= static_cast<int>(m.soft_render_meshes.size())) return nullptr;
  return m.soft_render_meshes[static_cast<std::size_t>(render_mesh)].get();
}

// The face's corners (particles, or a render mesh's vertices); false when out of range.
bool face_corners(const sim::Model& m, int render_mesh, int face, std::array<int, 3>& corners) {
  if (render_mesh < 0) {
    if (face < 0 || face >= static_cast<int>(m.particle_triangles.size())) return false;
    corners = m.particle_triangles[static_cast<std::size_t>(face)];
    for (int p : corners)
      if (p < 0 || p >= m.particle_count) return false;
    return true;
  }
  const sim::SoftRenderMesh* mesh = render_mesh_of(m, render_mesh);
  if (!mesh || face < 0 || face >= static_cast<int>(mesh->triangles.size())) return false;
  corners = mesh->triangles[static_cast<std::size_t>(face)];
  for (int v : corners)
    if (v < 0 || v >= static_cast<int>(mesh->embedding.nodes.size())) return false;
  return true;
}

}  // namespace

bool face_moved_by(const sim::Model& m, int render_mesh, int face, int p) {
  std::array<int, 3> corners{};
  if (!face_corners(m, render_mesh, face, corners)) return false;
  if (render_mesh < 0) return std::find(corners.begin(), corners.end(), p) != corners.end();
  const sim::SoftRenderMesh& mesh = *render_mesh_of(m, render_mesh);
  for (int v : corners)
    for (int node : mesh.embedding.nodes[static_cast<std::size_t>(v)])
      if (node == p) return true;
  return false;
}

FaceProbe probe_face(const sim::Model& m, const sim::State& s, int render_mesh, int face, const sim::Vec3& point,
                     std::span<const float> values) {
  FaceProbe out;
  std::array<int, 3> corners{};
  if (!face_corners(m, render_mesh, face, corners) || static_cast<int>(s.q.size()) != m.coord_count()) return out;
  const sim::SoftRenderMesh* mesh = render_mesh_of(m, render_mesh);
  sim::Vec3 x[3];
  for (std::size_t k = 0; k < 3; ++k) {
    if (mesh) {
      x[k] = skinned_vertex(m, s, *mesh, corners[k]);
    } else {
      const auto c = static_cast<std::size_t>(m.particle_coord(corners[k]));
      x[k] = sim::Vec3(s.q[c], s.q[c + 1], s.q[c + 2]);
    }
  }
  out.face = face;
  out.render_mesh = mesh ? render_mesh : -1;
  if (mesh) out.render_file = mesh->file;
  out.particles = corners;
  // Barycentric weights of the point's projection onto the face's plane (least squares).
  const sim::Vec3 e1 = x[1] - x[0], e2 = x[2] - x[0], r = point - x[0];
  const double a = e1.dot(e1), b = e1.dot(e2), c = e2.dot(e2), d = e1.dot(r), e = e2.dot(r);
  const double det = a * c - b * b;
  if (det > 0) {
    const double w1 = (c * d - b * e) / det, w2 = (a * e - b * d) / det;
    out.weights = {1 - w1 - w2, w1, w2};
  } else {
    out.weights = {1.0 / 3, 1.0 / 3, 1.0 / 3};  // a collapsed face: its centroid
  }
  const std::size_t first = static_cast<std::size_t>(m.body_count);
  if (values.size() >= first + static_cast<std::size_t>(m.particle_count)) {
    auto particle_value = [&](int p) { return values[first + static_cast<std::size_t>(p)]; };
    out.has_value = true;
    double v = 0;
    for (std::size_t k = 0; k < 3; ++k) {
      float corner = 0.0f;  // as render::interpolate_embedded_values: NaN stays NaN
      if (mesh) {
        const auto vertex = static_cast<std::size_t>(corners[k]);
        for (std::size_t j = 0; j < 4; ++j)
          corner += float(mesh->embedding.weights[vertex][j]) * particle_value(mesh->embedding.nodes[vertex][j]);
      } else {
        corner = particle_value(corners[k]);
      }
      out.corner_values[k] = corner;
      v += out.weights[k] * static_cast<double>(corner);
    }
    out.value = static_cast<float>(v);
  }
  return out;
}

std::string describe_face_probe(const FaceProbe& p, const char* field_name, const char* unit) {
  if (p.face < 0) return {};
  char text[256];
  int n = p.render_mesh < 0 ? std::snprintf(text, sizeof text, "face %d: particles %d %d %d", p.face, p.particles[0],
                                            p.particles[1], p.particles[2])
                            : std::snprintf(text, sizeof text, "face %d of %s: vertices %d %d %d", p.face, p.render_file.c_str(),
                                            p.particles[0], p.particles[1], p.particles[2]);
  if (p.has_value && n > 0 && n < static_cast<int>(sizeof text)) {
    const char* space = unit && *unit ? " " : "";
    std::snprintf(text + n, sizeof text - static_cast<std::size_t>(n), "\n%s %.4g%s%s at the pick (corners %.4g %.4g %.4g)",
                  field_name, static_cast<double>(p.value), space, unit ? unit : "", static_cast<double>(p.corner_values[0]),
                  static_cast<double>(p.corner_values[1]), static_cast<double>(p.corner_values[2]));
  }
  return text;
}

}  // namespace coulomb::gui
