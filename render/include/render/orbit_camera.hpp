// The orbit camera (target, distance, yaw, pitch; z up), as in MuJoCo's viewer, with the one
// projection the renderer, picking and the tests share, and framing from the scene's bounds.
#pragma once

#include <glm/glm.hpp>
#include <glm/gtc/quaternion.hpp>

#include <optional>
#include <span>

#include "sim/model.hpp"
#include "sim/state.hpp"

namespace render {

struct OrbitCamera {
  glm::vec3 target{0.0f, 0.0f, 0.5f};  // the point orbited and looked at [m]
  float distance = 4.0f;               // eye to target [m]
  float yaw = -2.2f;                   // azimuth of the eye about +z, 0 on +x [rad]
  float pitch = 0.5f;                  // elevation of the eye above the target's xy plane [rad]
  float fov_y = 0.75f;                 // vertical field of view [rad]

  glm::vec3 eye() const;
  glm::mat4 view() const;
  // Vulkan clip space: y down, depth 0 (near) .. 1 (far); near and far scale with distance.
  glm::mat4 projection(float aspect) const;
  glm::mat4 view_projection(float aspect) const { return projection(aspect) * view(); }
};

// Pixel coordinates (x right, y down, pixel centres at +0.5) of a world point in a width x height
// image; nothing when it is behind the camera.
std::optional<glm::vec2> project_to_pixel(const OrbitCamera& camera, const glm::vec3& world, int width, int height);

// Axis-aligned bounds in world coordinates.
struct Bounds {
  glm::vec3 lo{1e30f}, hi{-1e30f};
  bool empty() const { return lo.x > hi.x; }
  void add(const glm::vec3& p) { lo = glm::min(lo, p), hi = glm::max(hi, p); }
  void add(const Bounds& b) { if (!b.empty()) add(b.lo), add(b.hi); }
  glm::vec3 centre() const { return (lo + hi) * 0.5f; }
  glm::vec3 size() const { return hi - lo; }
};

// Bounds of shape `s` (planes give empty bounds: they are infinite) when its body's centre of
// mass frame is at `body_position`, `body_rotation` (ignored for world shapes).
Bounds shape_bounds(const sim::Model& model, int s, const glm::vec3& body_position, const glm::quat& body_rotation);
// Bounds of every body's shapes, world shapes other than planes, and particles, for
// generalized positions in State::q layout.
Bounds scene_bounds(const sim::Model& model, std::span<const sim::Real> q);

// A camera from direction (yaw, pitch) whose view holds the bounds (a sphere around them).
OrbitCamera frame_bounds(const Bounds& bounds, float aspect, float yaw = -2.2f, float pitch = 0.5f,
                         float fov_y = 0.75f);
// frame_bounds() of scene_bounds() of the state.
OrbitCamera frame_all(const sim::Model& model, const sim::State& state, float aspect);

}  // namespace render
