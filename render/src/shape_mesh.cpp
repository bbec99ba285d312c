#include "render/shape_mesh.hpp"

#include <cmath>
#include <numbers>

namespace render {

namespace {

using V3 = sim::Vec3;

void push(std::vector<Vertex>& out, const V3& p, const V3& n) {
  out.push_back(Vertex{{float(p.x()), float(p.y()), float(p.z())}, {float(n.x()), float(n.y()), float(n.z())}});
}

void triangle(std::vector<Vertex>& out, const V3& a, const V3& b, const V3& c, const V3& n) {
  push(out, a, n);
  push(out, b, n);
  push(out, c, n);
}

void box(const V3& h, std::vector<Vertex>& out) {
  for (int axis = 0; axis < 3; ++axis) {
    for (int sign : {-1, 1}) {
      V3 n = V3::Zero();
      n[axis] = sign;
      const int u = (axis + 1) % 3, v = (axis + 2) % 3;
      V3 corner[4];
      const int su[4] = {-1, 1, 1, -1}, sv[4] = {-1, -1, 1, 1};
      for (int k = 0; k < 4; ++k) {
        corner[k][axis] = sign * h[axis];
        corner[k][u] = su[k] * h[u];
        corner[k][v] = sv[k] * h[v];
      }
      if (sign > 0) {
        triangle(out, corner[0], corner[1], corner[2], n);
        triangle(out, corner[0], corner[2], corner[3], n);
      } else {
        triangle(out, corner[0], corner[2], corner[1], n);
        triangle(out, corner[0], corner[3], corner[2], n);
      }
    }
  }
}

// A sphere of radius r around `centre`, optionally only the upper (+1) or lower (-1) half along z
// and split apart by `offset` (capsules).
void sphere(double r, const V3& centre, std::vector<Vertex>& out, int rings, int segments, int half = 0) {
  const double pi = std::numbers::pi;
  const int first = half > 0 ? rings / 2 : 0, last = half < 0 ? rings / 2 : rings;
  auto point = [&](int i, int j) {
    const double th = pi * i / rings, ph = 2 * pi * j / segments;
    return V3(std::sin(th) * std::cos(ph), std::sin(th) * std::sin(ph), std::cos(th));
  };
  for (int i = first; i < last; ++i) {
    for (int j = 0; j < segments; ++j) {
      const V3 a = point(i, j), b = point(i + 1, j), c = point(i + 1, j + 1), d = point(i, j + 1);
      push(out, centre + r * a, a);
      push(out, centre + r * b, b);
      push(out, centre + r * c, c);
      push(out, centre + r * a, a);
      push(out, centre + r * c, c);
      push(out, centre + r * d, d);
    }
  }
}

void capsule(double r, double l, std::vector<Vertex>& out) {
  const int rings = 12, segments = 16;
  sphere(r, V3(0, 0, l), out, rings, segments, 1);  // the +z cap is the θ < π/2 half
  sphere(r, V3(0, 0, -l), out, rings, segments, -1);
  const double pi = std::numbers::pi;
  for (int j = 0; j < segments; ++j) {
    const double a0 = 2 * pi * j / segments, a1 = 2 * pi * (j + 1) / segments;
    const V3 n0(std::cos(a0), std::sin(a0), 0), n1(std::cos(a1), std::sin(a1), 0);
    push(out, r * n0 + V3(0, 0, l), n0);
    push(out, r * n0 - V3(0, 0, l), n0);
    push(out, r * n1 - V3(0, 0, l), n1);
    push(out, r * n0 + V3(0, 0, l), n0);
    push(out, r * n1 - V3(0, 0, l), n1);
    push(out, r * n1 + V3(0, 0, l), n1);
  }
}

void hull(const sim::Model::Hull& h, std::vector<Vertex>& out) {
  for (int f = 0; f < h.face_count(); ++f) {
    const int first = h.face_first[f], count = h.face_first[f + 1] - first;
    const V3& a = h.vertices[h.face_vertices[first]];
    for (int k = 1; k + 1 < count; ++k)
      triangle(out, a, h.vertices[h.face_vertices[first + k]], h.vertices[h.face_vertices[first + k + 1]], h.face_normal[f]);
  }
}

}  // namespace

void tessellate_sphere(float radius, std::vector<Vertex>& out, int rings, int segments) {
  sphere(radius, V3::Zero(), out, rings, segments);
}

void tessellate_shape(const sim::Model& m, int s, std::vector<Vertex>& out) {
  switch (m.shape_type[s]) {
    case sim::ShapeType::Plane: {
      const double e = 20;  // a 40 m square stands in for the infinite plane
      triangle(out, V3(-e, -e, 0), V3(e, -e, 0), V3(e, e, 0), V3::UnitZ());
      triangle(out, V3(-e, -e, 0), V3(e, e, 0), V3(-e, e, 0), V3::UnitZ());
      break;
    }
    case sim::ShapeType::Sphere: sphere(m.shape_radius[s], V3::Zero(), out, 16, 24); break;
    case sim::ShapeType::Capsule: capsule(m.shape_radius[s], m.shape_half_length[s], out); break;
    case sim::ShapeType::Box: box(m.shape_half_extents[s], out); break;
    case sim::ShapeType::ConvexMesh: hull(m.hulls[m.shape_hull[s]], out); break;
  }
}

}  // namespace render
