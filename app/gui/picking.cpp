#include "gui/picking.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <span>

namespace coulomb::gui {

namespace {

using sim::Real;
using sim::Vec3;

constexpr Real kMiss = -1;

// Smallest t >= 0 with |o + t d - c| = r (d unit), or kMiss.
Real ray_sphere(const Vec3& o, const Vec3& d, const Vec3& c, Real r) {
  const Vec3 m = o - c;
  const Real b = m.dot(d);
  const Real cc = m.squaredNorm() - r * r;
  if (cc > 0 && b > 0) return kMiss;
  const Real disc = b * b - cc;
  if (disc < 0) return kMiss;
  const Real t = -b - std::sqrt(disc);
  return t >= 0 ? t : Real(0);  // origin inside: hit at once
}

// Triangle (a, b, c), either side (Möller–Trumbore), or kMiss.
Real ray_triangle(const Vec3& o, const Vec3& d, const Vec3& a, const Vec3& b, const Vec3& c) {
  const Vec3 e1 = b - a, e2 = c - a;
  const Vec3 p = d.cross(e2);
  const Real det = e1.dot(p);
  if (std::abs(det) <= std::numeric_limits<Real>::epsilon() * e1.norm() * e2.norm()) return kMiss;  // edge-on
  const Vec3 s = o - a;
  const Real u = s.dot(p) / det;
  if (u < 0 || u > 1) return kMiss;
  const Vec3 q = s.cross(e1);
  const Real v = d.dot(q) / det;
  if (v < 0 || u + v > 1) return kMiss;
  const Real t = e2.dot(q) / det;
  return t >= 0 ? t : kMiss;
}

// Box |x_i| <= h_i in its frame (o, d local), slab method.
Real ray_box(const Vec3& o, const Vec3& d, const Vec3& h) {
  Real t0 = 0, t1 = std::numeric_limits<Real>::infinity();
  for (int i = 0; i < 3; ++i) {
    if (std::abs(d[i]) < Real(1e-15)) {
      if (std::abs(o[i]) > h[i]) return kMiss;
      continue;
    }
    Real a = (-h[i] - o[i]) / d[i];
    Real b = (h[i] - o[i]) / d[i];
    if (a > b) std::swap(a, b);
    t0 = std::max(t0, a);
    t1 = std::min(t1, b);
    if (t0 > t1) return kMiss;
  }
  return t0;
}

// Capsule: segment z in [-h, h] on the local z axis swept by r.
Real ray_capsule(const Vec3& o, const Vec3& d, Real r, Real h) {
  Real best = std::numeric_limits<Real>::infinity();
  // Side: x² + y² = r² with |z| <= h.
  const Real a = d.x() * d.x() + d.y() * d.y();
  const Real b = o.x() * d.x() + o.y() * d.y();
  const Real c = o.x() * o.x() + o.y() * o.y() - r * r;
  if (a > Real(1e-15)) {
    const Real disc = b * b - a * c;
    if (disc >= 0) {
      Real t = (-b - std::sqrt(disc)) / a;
      if (t < 0 && c <= 0) t = 0;
      if (t >= 0 && std::abs(o.z() + t * d.z()) <= h) best = t;
    }
  }
  for (const Real z : {-h, h}) {
    const Real t = ray_sphere(o, d, Vec3(0, 0, z), r);
    if (t >= 0) best = std::min(best, t);
  }
  return std::isfinite(best) ? best : kMiss;
}

// Convex polyhedron given by outward face planes n·x = offset.
Real ray_hull(const Vec3& o, const Vec3& d, const sim::Model::Hull& hull) {
  Real t0 = 0, t1 = std::numeric_limits<Real>::infinity();
  for (int f = 0; f < hull.face_count(); ++f) {
    const Vec3& n = hull.face_normal[static_cast<std::size_t>(f)];
    const Real dist = hull.face_offset[static_cast<std::size_t>(f)] - n.dot(o);  // >= 0 inside
    const Real nd = n.dot(d);
    if (std::abs(nd) < Real(1e-15)) {
      if (dist < 0) return kMiss;
      continue;
    }
    const Real t = dist / nd;
    if (nd < 0) t0 = std::max(t0, t);
    else t1 = std::min(t1, t);
    if (t0 > t1) return kMiss;
  }
  return t0;
}

}  // namespace

Real intersect_shape(const sim::Model& model, const sim::State& state, int s, const Ray& ray) {
  if (s < 0 || s >= model.shape_count) return kMiss;
  const auto i = static_cast<std::size_t>(s);
  const int body = model.shape_body[i];
  const sim::Pose owner = body >= 0 ? state.body_pose(body) : sim::Pose{};
  const sim::Pose pose = owner * model.shape_local[i];
  const Vec3 o = pose.apply_inverse(ray.origin);
  const Vec3 d = pose.rot.conjugate() * ray.direction;
  switch (model.shape_type[i]) {
    case sim::ShapeType::Plane: return kMiss;
    case sim::ShapeType::Sphere: return ray_sphere(o, d, Vec3::Zero(), model.shape_radius[i]);
    case sim::ShapeType::Capsule: return ray_capsule(o, d, model.shape_radius[i], model.shape_half_length[i]);
    case sim::ShapeType::Box: return ray_box(o, d, model.shape_half_extents[i]);
    case sim::ShapeType::ConvexMesh:
    case sim::ShapeType::Cylinder:   // their hulls (points on their surfaces)
    case sim::ShapeType::Ellipsoid: {
      const int h = model.shape_hull[i];
      if (h < 0 || h >= static_cast<int>(model.hulls.size())) return kMiss;
      return ray_hull(o, d, model.hulls[static_cast<std::size_t>(h)]);
    }
  }
  return kMiss;
}

Vec3 skinned_vertex(const sim::Model& model, const sim::State& state, const sim::SoftRenderMesh& mesh, int v) {
  Vec3 x = Vec3::Zero();
  if (v < 0 || static_cast<std::size_t>(v) >= mesh.embedding.nodes.size()) return x;
  for (std::size_t k = 0; k < 4; ++k) {
    const int p = mesh.embedding.nodes[static_cast<std::size_t>(v)][k];
    if (p < 0 || p >= model.particle_count) continue;
    const auto c = static_cast<std::size_t>(model.particle_coord(p));
    x += mesh.embedding.weights[static_cast<std::size_t>(v)][k] * Vec3(state.q[c], state.q[c + 1], state.q[c + 2]);
  }
  return x;
}

PickHit pick(const sim::Model& model, const sim::State& state, const Ray& ray, Real particle_scale) {
  PickHit best;
  best.distance = std::numeric_limits<Real>::infinity();
  if (static_cast<int>(state.q.size()) != model.coord_count()) return PickHit{};
  // Shapes per body, culled by the body's bounding sphere about its com.
  std::vector<std::vector<int>> body_shapes(static_cast<std::size_t>(model.body_count));
  for (int s = 0; s < model.shape_count; ++s)
    if (model.shape_body[static_cast<std::size_t>(s)] >= 0)
      body_shapes[static_cast<std::size_t>(model.shape_body[static_cast<std::size_t>(s)])].push_back(s);
  for (int b = 0; b < model.body_count; ++b) {
    const Real bound = model.body_bound_radius[static_cast<std::size_t>(b)];
    if (ray_sphere(ray.origin, ray.direction, state.body_position(b), bound) < 0) continue;
    for (int s : body_shapes[static_cast<std::size_t>(b)]) {
      const Real t = intersect_shape(model, state, s, ray);
      if (t >= 0 && t < best.distance) {
        best.kind = PickHit::Body;
        best.index = b;
        best.shape = s;
        best.distance = t;
      }
    }
  }
  // Particles on a drawn surface are picked through it (their spheres are hidden by default).
  std::vector<char> on_surface(static_cast<std::size_t>(model.particle_count), 0);
  for (const std::array<int, 3>& tri : model.particle_triangles)
    for (int p : tri)
      if (p >= 0 && p < model.particle_count) on_surface[static_cast<std::size_t>(p)] = 1;
  // A body drawn as a render mesh: neither its tet boundary nor its particles' spheres are drawn.
  std::vector<char> skinned(static_cast<std::size_t>(model.particle_count), 0);
  for (const auto& mesh : model.soft_render_meshes)
    if (mesh)
      for (int p : mesh->particles)
        if (p >= 0 && p < model.particle_count) skinned[static_cast<std::size_t>(p)] = on_surface[static_cast<std::size_t>(p)] = 1;
  for (int p = 0; p < model.particle_count; ++p) {
    if (on_surface[static_cast<std::size_t>(p)]) continue;
    const auto c = static_cast<std::size_t>(model.particle_coord(p));
    const Vec3 x(state.q[c], state.q[c + 1], state.q[c + 2]);
    const Real t = ray_sphere(ray.origin, ray.direction, x, particle_scale * model.particle_radius[static_cast<std::size_t>(p)]);
    if (t >= 0 && t < best.distance) {
      best.kind = PickHit::Particle;
      best.index = p;
      best.shape = -1;
      best.distance = t;
    }
  }
  auto position = [&](int p) {
    const auto c = static_cast<std::size_t>(model.particle_coord(p));
    return Vec3(state.q[c], state.q[c + 1], state.q[c + 2]);
  };
  // The face hit: `candidates` are the particles that move it; the nearest to the hit is picked.
  auto take_face = [&](Real t, int face, int render_mesh, std::span<const int> candidates) {
    const Vec3 hit = ray.origin + t * ray.direction;
    int nearest = -1;
    for (int p : candidates)
      if (p >= 0 && p < model.particle_count &&
          (nearest < 0 || (position(p) - hit).squaredNorm() < (position(nearest) - hit).squaredNorm()))
        nearest = p;
    if (nearest < 0) return;
    best.kind = PickHit::Particle;
    best.index = nearest;
    best.shape = -1;
    best.face = face;
    best.render_mesh = render_mesh;
    best.distance = t;
  };
  for (std::size_t f = 0; f < model.particle_triangles.size(); ++f) {
    const std::array<int, 3>& tri = model.particle_triangles[f];
    if (tri[0] < 0 || tri[1] < 0 || tri[2] < 0 || std::max({tri[0], tri[1], tri[2]}) >= model.particle_count) continue;
    if (skinned[static_cast<std::size_t>(tri[0])] && skinned[static_cast<std::size_t>(tri[1])] &&
        skinned[static_cast<std::size_t>(tri[2])])
      continue;  // a render mesh body's boundary: not drawn
    const Real t = ray_triangle(ray.origin, ray.direction, position(tri[0]), position(tri[1]), position(tri[2]));
    if (t >= 0 && t < best.distance) take_face(t, static_cast<int>(f), -1, tri);
  }
  std::vector<Vec3> vertices;
  for (std::size_t m = 0; m < model.soft_render_meshes.size(); ++m) {
    const sim::SoftRenderMesh* mesh = model.soft_render_meshes[m].get();
    if (!mesh) continue;
    vertices.resize(mesh->vertices.size());
    for (std::size_t v = 0; v < vertices.size(); ++v) vertices[v] = skinned_vertex(model, state, *mesh, static_cast<int>(v));
    for (std::size_t f = 0; f < mesh->triangles.size(); ++f) {
      const std::array<int, 3>& tri = mesh->triangles[f];
      if (std::min({tri[0], tri[1], tri[2]}) < 0 || std::max({tri[0], tri[1], tri[2]}) >= static_cast<int>(vertices.size()))
        continue;
      const Real t = ray_triangle(ray.origin, ray.direction, vertices[static_cast<std::size_t>(tri[0])],
                                  vertices[static_cast<std::size_t>(tri[1])], vertices[static_cast<std::size_t>(tri[2])]);
      if (t < 0 || t >= best.distance) continue;
      std::array<int, 12> nodes{};
      for (std::size_t k = 0; k < 3; ++k)
        for (std::size_t j = 0; j < 4; ++j)
          nodes[4 * k + j] = mesh->embedding.nodes[static_cast<std::size_t>(tri[k])][j];
      take_face(t, static_cast<int>(f), static_cast<int>(m), nodes);
    }
  }
  if (!best.hit()) return PickHit{};
  best.point = ray.origin + best.distance * ray.direction;
  return best;
}

}  // namespace coulomb::gui
