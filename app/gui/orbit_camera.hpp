// The viewport's camera as the mouse moves it: orbit about a target (yaw about z, pitch above the
// horizon; z up), pan in the view plane, zoom by distance; rays through pixels for picking and
// dragging. Matches render::Camera's parameters (target, distance, yaw, pitch, fov_y), which the
// viewport copies into the renderer every frame. No Qt here.
#pragma once

#include "sim/math.hpp"

namespace coulomb::gui {

struct OrbitCamera {
  sim::Vec3 target = sim::Vec3(0, 0, 0.5);
  double distance = 4.0;   // [m]
  double yaw = 0.6;        // about z [rad]
  double pitch = 0.45;     // elevation [rad]
  double fov_y = 0.8;      // vertical field of view [rad]

  sim::Vec3 eye() const;
  sim::Vec3 forward() const;  // unit, from the eye to the target
  sim::Vec3 right() const;    // unit, screen right
  sim::Vec3 up() const;       // unit, screen up

  // Left drag: dx, dy in pixels; one viewport height turns by about π.
  void orbit(double dx_pixels, double dy_pixels, int viewport_height);
  // Middle (or shift+left) drag: the target point follows the cursor.
  void pan(double dx_pixels, double dy_pixels, int viewport_height);
  // Wheel: `steps` notches (positive: closer), 15 % per notch.
  void zoom(double steps);
  // Looks at a sphere so that it fills the view.
  void frame(const sim::Vec3& center, double radius);

  // The ray from the eye through pixel (x right, y down) of a width × height viewport.
  void pixel_ray(double x, double y, int width, int height, sim::Vec3& origin, sim::Vec3& direction) const;
  // The pixel (x right, y down) a world point projects to, the inverse of pixel_ray; false when
  // the point is not in front of the eye.
  bool project(const sim::Vec3& point, int width, int height, double& x, double& y) const;
  // Where the ray through the pixel meets the plane through `point` facing the camera.
  sim::Vec3 point_on_view_plane(double x, double y, int width, int height, const sim::Vec3& point) const;
};

}  // namespace coulomb::gui
