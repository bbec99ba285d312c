#include "render/camera.hpp"

#include <algorithm>
#include <cmath>
#include <glm/gtc/matrix_transform.hpp>

namespace render {

glm::vec3 Camera::eye() const {
  return target + distance * glm::vec3(std::cos(pitch) * std::cos(yaw), std::cos(pitch) * std::sin(yaw), std::sin(pitch));
}

glm::mat4 Camera::view() const { return glm::lookAt(eye(), target, glm::vec3(0, 0, 1)); }

glm::mat4 Camera::projection(float aspect) const {
  glm::mat4 p = glm::perspectiveRH_ZO(fov_y, aspect, std::max(0.01f, distance * 0.01f), distance * 100.0f);
  p[1][1] *= -1.0f;  // Vulkan's y points down
  return p;
}

bool Camera::project(const glm::vec3& world, int width, int height, glm::vec2& pixel) const {
  const glm::vec4 clip = view_projection(float(width) / float(height)) * glm::vec4(world, 1.0f);
  if (clip.w <= 0) return false;
  const glm::vec3 ndc = glm::vec3(clip) / clip.w;
  pixel = glm::vec2((ndc.x * 0.5f + 0.5f) * width, (ndc.y * 0.5f + 0.5f) * height);
  return true;
}

Camera frame_all(const sim::Model& m, const sim::State& s) {
  glm::vec3 lo(1e30f), hi(-1e30f);
  int count = 0;
  auto grow = [&](const sim::Vec3& p, float r) {
    const glm::vec3 g(float(p.x()), float(p.y()), float(p.z()));
    lo = glm::min(lo, g - r);
    hi = glm::max(hi, g + r);
    ++count;
  };
  for (int b = 0; b < m.body_count; ++b) grow(s.body_position(b), float(m.body_bound_radius[b]));
  for (int p = 0; p < m.particle_count; ++p)
    grow(sim::Vec3(s.q[m.particle_coord(p)], s.q[m.particle_coord(p) + 1], s.q[m.particle_coord(p) + 2]), 0.0f);
  Camera c;
  if (count == 0) return c;
  c.target = 0.5f * (lo + hi);
  const float radius = std::max(0.1f, 0.5f * glm::length(hi - lo));
  c.distance = radius / std::sin(0.5f * c.fov_y) * 0.9f;
  return c;
}

}  // namespace render
