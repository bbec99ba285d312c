#include "gui/target_gizmo.hpp"

#include <cmath>
#include <limits>

namespace coulomb::gui {

namespace {

constexpr double kPi = 3.14159265358979323846;

sim::Vec3 unit(int axis) { return sim::Vec3::Unit(axis); }

GizmoHandle move_handle(int axis) { return static_cast<GizmoHandle>(static_cast<int>(GizmoHandle::MoveX) + axis); }
GizmoHandle rotate_handle(int axis) { return static_cast<GizmoHandle>(static_cast<int>(GizmoHandle::RotateX) + axis); }

// Distance from (px, py) to the segment (ax, ay)–(bx, by) in pixels.
double segment_distance(double px, double py, double ax, double ay, double bx, double by) {
  const double dx = bx - ax, dy = by - ay;
  const double len2 = dx * dx + dy * dy;
  double t = len2 > 0 ? ((px - ax) * dx + (py - ay) * dy) / len2 : 0.0;
  t = std::fmin(1.0, std::fmax(0.0, t));
  const double cx = ax + t * dx - px, cy = ay + t * dy - py;
  return std::sqrt(cx * cx + cy * cy);
}

}  // namespace

int gizmo_axis(GizmoHandle h) {
  switch (h) {
    case GizmoHandle::MoveX: case GizmoHandle::RotateX: return 0;
    case GizmoHandle::MoveY: case GizmoHandle::RotateY: return 1;
    case GizmoHandle::MoveZ: case GizmoHandle::RotateZ: return 2;
    case GizmoHandle::None: break;
  }
  return -1;
}

bool gizmo_rotates(GizmoHandle h) {
  return h == GizmoHandle::RotateX || h == GizmoHandle::RotateY || h == GizmoHandle::RotateZ;
}

double TargetGizmo::world_size(const GizmoView& v, const sim::Vec3& centre) {
  const double depth = std::fmax((centre - v.camera.eye()).dot(v.camera.forward()), 1e-3);
  const double metres_per_pixel = 2.0 * depth * std::tan(0.5 * v.camera.fov_y) / std::max(v.height, 1);
  return kArrowPixels * metres_per_pixel;
}

void TargetGizmo::lines(const GizmoView& v, const sim::Vec3& c, bool rotations, std::vector<GizmoLine>& out) {
  out.clear();
  const auto L = static_cast<sim::Real>(world_size(v, c));
  for (int axis = 0; axis < 3; ++axis) {
    const sim::Vec3 a = unit(axis);
    const sim::Vec3 tip = c + L * a;
    const GizmoHandle h = move_handle(axis);
    out.push_back({c, tip, h});
    // The head: four short lines back from the tip, in the two planes containing the axis.
    const sim::Vec3 p = unit((axis + 1) % 3), q = unit((axis + 2) % 3);
    const sim::Vec3 back = tip - sim::Real(0.18) * L * a;
    for (const sim::Vec3& side : {p, sim::Vec3(-p), q, sim::Vec3(-q)}) out.push_back({tip, back + sim::Real(0.07) * L * side, h});
  }
  if (!rotations) return;
  const sim::Real R = static_cast<sim::Real>(kRingFraction) * L;
  for (int axis = 0; axis < 3; ++axis) {
    const sim::Vec3 p = unit((axis + 1) % 3), q = unit((axis + 2) % 3);
    const GizmoHandle h = rotate_handle(axis);
    for (int k = 0; k < kRingSegments; ++k) {
      const double t0 = 2 * kPi * k / kRingSegments, t1 = 2 * kPi * (k + 1) / kRingSegments;
      out.push_back({c + R * (sim::Real(std::cos(t0)) * p + sim::Real(std::sin(t0)) * q),
                     c + R * (sim::Real(std::cos(t1)) * p + sim::Real(std::sin(t1)) * q), h});
    }
  }
}

GizmoHandle TargetGizmo::pick(const GizmoView& v, const sim::Vec3& c, bool rotations, double x, double y,
                              double tolerance) {
  std::vector<GizmoLine> segments;
  lines(v, c, rotations, segments);
  GizmoHandle best = GizmoHandle::None;
  double best_distance = tolerance;
  for (const GizmoLine& s : segments) {
    double ax, ay, bx, by;
    if (!v.camera.project(s.a, v.width, v.height, ax, ay) || !v.camera.project(s.b, v.width, v.height, bx, by)) continue;
    const double d = segment_distance(x, y, ax, ay, bx, by);
    if (d <= best_distance) {
      best_distance = d;
      best = s.handle;
    }
  }
  return best;
}

bool TargetGizmo::plane_hit(double x, double y, sim::Vec3& hit) const {
  sim::Vec3 o, d;
  view_.camera.pixel_ray(x, y, view_.width, view_.height, o, d);
  const sim::Real denom = d.dot(plane_normal_);
  if (std::abs(denom) < sim::Real(1e-6)) return false;
  const sim::Real s = (start_position_ - o).dot(plane_normal_) / denom;
  if (s <= 0) return false;  // behind the eye
  hit = o + s * d;
  return true;
}

bool TargetGizmo::begin_drag(GizmoHandle handle, const GizmoView& view, const sim::Vec3& position,
                             const sim::Quat& orientation, double x, double y) {
  handle_ = GizmoHandle::None;
  const int axis = gizmo_axis(handle);
  if (axis < 0) return false;
  view_ = view;
  start_position_ = position;
  start_orientation_ = orientation;
  axis_ = unit(axis);
  if (gizmo_rotates(handle)) {
    plane_normal_ = axis_;
  } else {
    // The plane containing the axis that faces the camera best.
    const sim::Vec3 f = view.camera.forward();
    const sim::Vec3 n = f - f.dot(axis_) * axis_;
    if (n.norm() < sim::Real(1e-3)) return false;  // looking down the axis
    plane_normal_ = n.normalized();
  }
  if (!plane_hit(x, y, start_hit_)) return false;
  if (gizmo_rotates(handle) && (start_hit_ - position).norm() < sim::Real(1e-9)) return false;
  handle_ = handle;
  return true;
}

bool TargetGizmo::drag(double x, double y, sim::Vec3& position, sim::Quat& orientation) const {
  if (handle_ == GizmoHandle::None) return false;
  sim::Vec3 hit;
  if (!plane_hit(x, y, hit)) return false;
  if (!gizmo_rotates(handle_)) {
    position = start_position_ + (hit - start_hit_).dot(axis_) * axis_;
    orientation = start_orientation_;
    return true;
  }
  const sim::Vec3 r0 = start_hit_ - start_position_, r1 = hit - start_position_;
  if (r1.norm() < sim::Real(1e-9)) return false;
  const sim::Real angle = std::atan2(axis_.dot(r0.cross(r1)), r0.dot(r1));
  position = start_position_;
  orientation = (sim::Quat(Eigen::AngleAxis<sim::Real>(angle, axis_)) * start_orientation_).normalized();
  return true;
}

}  // namespace coulomb::gui
