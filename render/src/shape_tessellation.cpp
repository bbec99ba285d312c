#include "shape_tessellation.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include <Eigen/Core>
#include <Eigen/Geometry>

namespace render {

namespace {

constexpr float kPi = 3.14159265358979f;

void add_vertex(MeshData& m, float px, float py, float pz, float nx, float ny, float nz) {
  m.vertices.push_back(MeshVertex{{px, py, pz}, {nx, ny, nz}});
}

// Smooth surface of revolution about z from a profile: ring i has radius r[i] at height z[i]
// with profile normal (nr[i], nz[i]); rings run from the bottom pole to the top pole.
void add_revolution(MeshData& m, const std::vector<float>& r, const std::vector<float>& z,
                    const std::vector<float>& nr, const std::vector<float>& nz, int segments) {
  const std::uint32_t base = static_cast<std::uint32_t>(m.vertices.size());
  const int rings = static_cast<int>(r.size());
  for (int i = 0; i < rings; ++i)
    for (int j = 0; j <= segments; ++j) {
      const float phi = 2.0f * kPi * float(j) / float(segments);
      const float c = std::cos(phi), s = std::sin(phi);
      add_vertex(m, r[i] * c, r[i] * s, z[i], nr[i] * c, nr[i] * s, nz[i]);
    }
  const std::uint32_t row = static_cast<std::uint32_t>(segments + 1);
  for (int i = 0; i + 1 < rings; ++i)
    for (int j = 0; j < segments; ++j) {
      const std::uint32_t a = base + std::uint32_t(i) * row + std::uint32_t(j), b = a + 1;
      const std::uint32_t c = a + row, d = c + 1;
      // Ring i is below ring i + 1; with phi increasing counter-clockwise about +z, (a, b, d)
      // and (a, d, c) face outwards. Degenerate triangles at the poles are harmless.
      m.indices.insert(m.indices.end(), {a, b, d, a, d, c});
    }
}

}  // namespace

MeshData tessellate_box(float hx, float hy, float hz) {
  MeshData m;
  const float h[3] = {hx, hy, hz};
  for (int axis = 0; axis < 3; ++axis)
    for (int sign : {-1, 1}) {
      // Face with outward normal sign * e_axis; u, v span it so that u x v = normal.
      const int u = (axis + 1) % 3, v = (axis + 2) % 3;
      const std::uint32_t base = static_cast<std::uint32_t>(m.vertices.size());
      const float corners[4][2] = {{-1, -1}, {1, -1}, {1, 1}, {-1, 1}};
      for (const auto& c : corners) {
        float p[3], n[3] = {0, 0, 0};
        p[axis] = float(sign) * h[axis];
        p[u] = c[0] * h[u];
        p[v] = c[1] * float(sign) * h[v];  // mirrored on the negative face to stay outward
        n[axis] = float(sign);
        add_vertex(m, p[0], p[1], p[2], n[0], n[1], n[2]);
      }
      m.indices.insert(m.indices.end(), {base, base + 1, base + 2, base, base + 2, base + 3});
    }
  return m;
}

MeshData tessellate_sphere(float radius, int rings, int segments) {
  std::vector<float> r, z, nr, nz;
  for (int i = 0; i <= rings; ++i) {
    const float theta = -0.5f * kPi + kPi * float(i) / float(rings);  // latitude, bottom to top
    nr.push_back(std::cos(theta));
    nz.push_back(std::sin(theta));
    r.push_back(radius * nr.back());
    z.push_back(radius * nz.back());
  }
  MeshData m;
  add_revolution(m, r, z, nr, nz, segments);
  return m;
}

MeshData tessellate_cylinder(float radius, float half_length, int segments) {
  // Profile bottom centre -> rim -> rim -> top centre, each rim twice (cap normal, side normal)
  // so the edges stay sharp.
  const std::vector<float> r = {0, radius, radius, radius, radius, 0};
  const std::vector<float> z = {-half_length, -half_length, -half_length, half_length, half_length, half_length};
  const std::vector<float> nr = {0, 0, 1, 1, 0, 0};
  const std::vector<float> nz = {-1, -1, 0, 0, 1, 1};
  MeshData m;
  add_revolution(m, r, z, nr, nz, segments);
  return m;
}

MeshData tessellate_ellipsoid(float rx, float ry, float rz, int rings, int segments) {
  // The unit sphere stretched: positions scale by the radii, normals by their inverses.
  MeshData m = tessellate_sphere(1.0f, rings, segments);
  for (MeshVertex& v : m.vertices) {
    v.position[0] *= rx, v.position[1] *= ry, v.position[2] *= rz;
    float n[3] = {v.normal[0] / rx, v.normal[1] / ry, v.normal[2] / rz};
    const float len = std::sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
    for (int k = 0; k < 3; ++k) v.normal[k] = len > 0 ? n[k] / len : 0.0f;
  }
  return m;
}

MeshData tessellate_capsule(float radius, float half_length, int rings, int segments) {
  // Bottom hemisphere, then the top one shifted up: the band between them is the cylinder.
  std::vector<float> r, z, nr, nz;
  const int half = rings / 2;
  for (int cap = 0; cap < 2; ++cap)
    for (int i = 0; i <= half; ++i) {
      const float theta = cap == 0 ? -0.5f * kPi + 0.5f * kPi * float(i) / float(half)
                                   : 0.5f * kPi * float(i) / float(half);
      nr.push_back(std::cos(theta));
      nz.push_back(std::sin(theta));
      r.push_back(radius * nr.back());
      z.push_back(radius * nz.back() + (cap == 0 ? -half_length : half_length));
    }
  MeshData m;
  add_revolution(m, r, z, nr, nz, segments);
  return m;
}

MeshData tessellate_hull(const sim::Model::Hull& hull) {
  MeshData m;
  for (int f = 0; f < hull.face_count(); ++f) {
    const sim::Vec3& n = hull.face_normal[std::size_t(f)];
    const std::uint32_t base = static_cast<std::uint32_t>(m.vertices.size());
    const int first = hull.face_first[std::size_t(f)], last = hull.face_first[std::size_t(f) + 1];
    for (int k = first; k < last; ++k) {
      const sim::Vec3& p = hull.vertices[std::size_t(hull.face_vertices[std::size_t(k)])];
      add_vertex(m, float(p.x()), float(p.y()), float(p.z()), float(n.x()), float(n.y()), float(n.z()));
    }
    // Faces are convex and counter-clockwise seen from outside: a fan keeps that winding.
    for (int k = 1; k + 1 < last - first; ++k)
      m.indices.insert(m.indices.end(), {base, base + std::uint32_t(k), base + std::uint32_t(k) + 1});
  }
  return m;
}

MeshData tessellate_triangle_mesh(const sim::TriangleMesh& mesh, float crease_degrees) {
  const std::size_t n = mesh.vertices.size(), triangles = mesh.triangles.size();
  auto vertex = [&](int i) { return mesh.vertices[std::size_t(i)].cast<float>().eval(); };
  // Face normals scaled by twice the face's area (area weighting), and each vertex's faces (CSR).
  std::vector<Eigen::Vector3f> area_normal(triangles);
  std::vector<std::uint32_t> first(n + 1, 0), faces(3 * triangles);
  for (std::size_t t = 0; t < triangles; ++t) {
    const auto& tri = mesh.triangles[t];
    area_normal[t] = (vertex(tri[1]) - vertex(tri[0])).cross(vertex(tri[2]) - vertex(tri[0]));
    for (int k : tri) ++first[std::size_t(k) + 1];
  }
  for (std::size_t v = 0; v < n; ++v) first[v + 1] += first[v];
  std::vector<std::uint32_t> fill(first.begin(), first.end() - 1);
  for (std::size_t t = 0; t < triangles; ++t)
    for (int k : mesh.triangles[t]) faces[fill[std::size_t(k)]++] = std::uint32_t(t);

  // A corner's normal averages the faces around its vertex that bend less than the crease angle
  // from its own face (a smoothing group per corner): flat faces stay flat, edges stay sharp.
  const float crease_cos = std::cos(crease_degrees * kPi / 180.0f);
  MeshData m;
  m.vertices.reserve(3 * triangles);
  m.indices.reserve(3 * triangles);
  for (std::size_t t = 0; t < triangles; ++t) {
    if (area_normal[t].squaredNorm() <= 0) continue;  // degenerate: nothing to draw
    const Eigen::Vector3f face = area_normal[t].normalized();
    for (int k : mesh.triangles[t]) {
      Eigen::Vector3f sum = Eigen::Vector3f::Zero();
      for (std::uint32_t i = first[std::size_t(k)]; i < first[std::size_t(k) + 1]; ++i) {
        const Eigen::Vector3f& other = area_normal[faces[i]];
        if (other.squaredNorm() > 0 && other.normalized().dot(face) >= crease_cos) sum += other;
      }
      const Eigen::Vector3f normal = sum.normalized();
      const Eigen::Vector3f p = vertex(k);
      m.indices.push_back(static_cast<std::uint32_t>(m.vertices.size()));
      add_vertex(m, p.x(), p.y(), p.z(), normal.x(), normal.y(), normal.z());
    }
  }
  return m;
}

MeshData tessellate_ground(float half_size) {
  MeshData m;
  const float s = half_size;
  add_vertex(m, -s, -s, 0, 0, 0, 1);
  add_vertex(m, s, -s, 0, 0, 0, 1);
  add_vertex(m, s, s, 0, 0, 0, 1);
  add_vertex(m, -s, s, 0, 0, 0, 1);
  m.indices = {0, 1, 2, 0, 2, 3};
  return m;
}

MeshData tessellate_shape(const sim::Model& model, int s, float ground_half_size) {
  switch (model.shape_type[std::size_t(s)]) {
    case sim::ShapeType::Plane:
      return tessellate_ground(ground_half_size);
    case sim::ShapeType::Sphere:
      return tessellate_sphere(float(model.shape_radius[std::size_t(s)]));
    case sim::ShapeType::Capsule:
      return tessellate_capsule(float(model.shape_radius[std::size_t(s)]), float(model.shape_half_length[std::size_t(s)]));
    case sim::ShapeType::Box: {
      const sim::Vec3& h = model.shape_half_extents[std::size_t(s)];
      return tessellate_box(float(h.x()), float(h.y()), float(h.z()));
    }
    case sim::ShapeType::Cylinder:
      return tessellate_cylinder(float(model.shape_radius[std::size_t(s)]), float(model.shape_half_length[std::size_t(s)]));
    case sim::ShapeType::Ellipsoid: {
      const sim::Vec3& a = model.shape_half_extents[std::size_t(s)];
      return tessellate_ellipsoid(float(a.x()), float(a.y()), float(a.z()));
    }
    case sim::ShapeType::ConvexMesh: {
      // A triangle mesh collided through its SDF is drawn as itself, not as its hull.
      const int mesh = s < int(model.shape_mesh.size()) ? model.shape_mesh[std::size_t(s)] : -1;
      if (mesh >= 0) return tessellate_triangle_mesh(model.meshes[std::size_t(mesh)]->mesh);
      const int h = model.shape_hull[std::size_t(s)];
      return h >= 0 ? tessellate_hull(model.hulls[std::size_t(h)]) : MeshData{};
    }
  }
  return MeshData{};
}

MeshData tessellate_visual(const sim::Model& model, int v, float ground_half_size) {
  const std::size_t i = std::size_t(v);
  const sim::Vec3& h = model.visual_half_extents[i];
  const float r = float(model.visual_radius[i]), l = float(model.visual_half_length[i]);
  switch (model.visual_geometry[i]) {
    case sim::VisualGeometry::Box: return tessellate_box(float(h.x()), float(h.y()), float(h.z()));
    case sim::VisualGeometry::Sphere: return tessellate_sphere(r);
    case sim::VisualGeometry::Capsule: return tessellate_capsule(r, l);
    case sim::VisualGeometry::Cylinder: return tessellate_cylinder(r, l);
    case sim::VisualGeometry::Ellipsoid: return tessellate_ellipsoid(float(h.x()), float(h.y()), float(h.z()));
    case sim::VisualGeometry::Plane: {
      const float half = float(std::max(h.x(), h.y()));
      return tessellate_ground(half > 0 ? half : ground_half_size);
    }
    case sim::VisualGeometry::Mesh:
      return model.visual_mesh[i] ? tessellate_triangle_mesh(*model.visual_mesh[i]) : MeshData{};
  }
  return MeshData{};
}

}  // namespace render
