#include "gui/orbit_camera.hpp"

#include <algorithm>
#include <cmath>

namespace coulomb::gui {

namespace {
constexpr double kPi = 3.14159265358979323846;
constexpr double kMaxPitch = 0.5 * kPi - 0.01;
}  // namespace

sim::Vec3 OrbitCamera::eye() const {
  const sim::Vec3 offset(std::cos(pitch) * std::cos(yaw), std::cos(pitch) * std::sin(yaw), std::sin(pitch));
  return target + static_cast<sim::Real>(distance) * offset;
}

sim::Vec3 OrbitCamera::forward() const { return (target - eye()).normalized(); }

sim::Vec3 OrbitCamera::right() const {
  const sim::Vec3 r = forward().cross(sim::Vec3::UnitZ());
  return r.norm() > 1e-9 ? sim::Vec3(r.normalized()) : sim::Vec3::UnitX();
}

sim::Vec3 OrbitCamera::up() const { return right().cross(forward()).normalized(); }

void OrbitCamera::orbit(double dx, double dy, int height) {
  const double k = kPi / std::max(height, 1);
  yaw -= dx * k;
  pitch = std::clamp(pitch + dy * k, -kMaxPitch, kMaxPitch);
}

void OrbitCamera::pan(double dx, double dy, int height) {
  // One pixel at the target's depth is this many metres.
  const double metres = 2.0 * distance * std::tan(0.5 * fov_y) / std::max(height, 1);
  target += static_cast<sim::Real>(-dx * metres) * right() + static_cast<sim::Real>(dy * metres) * up();
}

void OrbitCamera::zoom(double steps) { distance = std::clamp(distance * std::pow(0.85, steps), 0.02, 1e5); }

void OrbitCamera::frame(const sim::Vec3& center, double radius) {
  target = center;
  // Some room around it: small scenes (a box on an incline) show their surroundings too.
  const double padded = 1.4 * std::max(radius, 0.05) + 0.1;
  distance = std::clamp(padded / std::sin(0.5 * fov_y), 0.05, 1e5);
}

void OrbitCamera::pixel_ray(double x, double y, int width, int height, sim::Vec3& origin, sim::Vec3& direction) const {
  const double w = std::max(width, 1), h = std::max(height, 1);
  const double t = std::tan(0.5 * fov_y);
  const double ndc_x = 2.0 * x / w - 1.0;  // continuous coordinates: 0 .. width
  const double ndc_y = 1.0 - 2.0 * y / h;
  origin = eye();
  direction = (forward() + static_cast<sim::Real>(ndc_x * t * w / h) * right() + static_cast<sim::Real>(ndc_y * t) * up())
                  .normalized();
}

bool OrbitCamera::project(const sim::Vec3& point, int width, int height, double& x, double& y) const {
  const double w = std::max(width, 1), h = std::max(height, 1);
  const double t = std::tan(0.5 * fov_y);
  const sim::Vec3 d = point - eye();
  const double depth = d.dot(forward());
  if (depth <= 1e-9) return false;
  const double ndc_x = d.dot(right()) / depth / (t * w / h);
  const double ndc_y = d.dot(up()) / depth / t;
  x = 0.5 * (ndc_x + 1.0) * w;
  y = 0.5 * (1.0 - ndc_y) * h;
  return true;
}

sim::Vec3 OrbitCamera::point_on_view_plane(double x, double y, int width, int height, const sim::Vec3& point) const {
  sim::Vec3 o, d;
  pixel_ray(x, y, width, height, o, d);
  const sim::Vec3 n = forward();
  const sim::Real denom = d.dot(n);
  if (std::abs(denom) < sim::Real(1e-9)) return point;
  return o + ((point - o).dot(n) / denom) * d;
}

}  // namespace coulomb::gui
