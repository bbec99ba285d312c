#include "gui/face_probe.hpp"

#include <cmath>
#include <cstdio>

namespace coulomb::gui {

FaceProbe probe_face(const sim::Model& m, const sim::State& s, int face, const sim::Vec3& point,
                     std::span<const float> values) {
  FaceProbe out;
  if (face < 0 || face >= static_cast<int>(m.particle_triangles.size())) return out;
  const auto& t = m.particle_triangles[static_cast<std::size_t>(face)];
  sim::Vec3 x[3];
  for (int k = 0; k < 3; ++k) {
    if (t[k] < 0 || t[k] >= m.particle_count) return out;
    const auto c = static_cast<std::size_t>(m.particle_coord(t[k]));
    if (c + 2 >= s.q.size()) return out;
    x[k] = sim::Vec3(s.q[c], s.q[c + 1], s.q[c + 2]);
  }
  out.face = face;
  out.particles = {t[0], t[1], t[2]};
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
    out.has_value = true;
    double v = 0;
    for (int k = 0; k < 3; ++k) {
      out.corner_values[static_cast<std::size_t>(k)] = values[first + static_cast<std::size_t>(t[k])];
      v += out.weights[static_cast<std::size_t>(k)] * static_cast<double>(out.corner_values[static_cast<std::size_t>(k)]);
    }
    out.value = static_cast<float>(v);
  }
  return out;
}

std::string describe_face_probe(const FaceProbe& p, const char* field_name, const char* unit) {
  if (p.face < 0) return {};
  char text[256];
  int n = std::snprintf(text, sizeof text, "face %d: particles %d %d %d", p.face, p.particles[0], p.particles[1],
                        p.particles[2]);
  if (p.has_value && n > 0 && n < static_cast<int>(sizeof text)) {
    const char* space = unit && *unit ? " " : "";
    std::snprintf(text + n, sizeof text - static_cast<std::size_t>(n), "\n%s %.4g%s%s at the pick (corners %.4g %.4g %.4g)",
                  field_name, static_cast<double>(p.value), space, unit ? unit : "", static_cast<double>(p.corner_values[0]),
                  static_cast<double>(p.corner_values[1]), static_cast<double>(p.corner_values[2]));
  }
  return text;
}

}  // namespace coulomb::gui
