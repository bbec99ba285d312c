// An orbit camera (target, distance, yaw, pitch; z up), as in MuJoCo's viewer, and the
// projection the renderer and picking share.
#pragma once

#include <glm/glm.hpp>

#include "sim/model.hpp"
#include "sim/state.hpp"

namespace render {

struct Camera {
  glm::vec3 target{0.0f, 0.0f, 0.5f};
  float distance = 4.0f;            // [m]
  float yaw = 0.6f;                 // about z [rad]
  float pitch = 0.45f;              // elevation [rad]
  float fov_y = 0.8f;               // vertical field of view [rad]

  glm::vec3 eye() const;
  glm::mat4 view() const;
  // Vulkan clip space (y down, depth 0..1).
  glm::mat4 projection(float aspect) const;
  glm::mat4 view_projection(float aspect) const { return projection(aspect) * view(); }
  // Pixel coordinates (x right, y down) of a world point; false if behind the camera.
  bool project(const glm::vec3& world, int width, int height, glm::vec2& pixel) const;
};

// A camera looking at the bodies and particles of the state from the default direction.
Camera frame_all(const sim::Model& model, const sim::State& state);

}  // namespace render
