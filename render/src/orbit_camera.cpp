#include "render/orbit_camera.hpp"

#include <algorithm>
#include <cmath>
#include <glm/gtc/matrix_transform.hpp>

namespace render {

namespace {

// Looking straight down or up leaves lookAt without a horizon direction.
constexpr float kMaxPitch = 1.5533f;  // 89 degrees

glm::vec3 to_glm(const sim::Vec3& v) { return glm::vec3(float(v.x()), float(v.y()), float(v.z())); }
glm::quat to_glm(const sim::Quat& q) { return glm::quat(float(q.w()), float(q.x()), float(q.y()), float(q.z())); }

}  // namespace

glm::vec3 OrbitCamera::eye() const {
  const float p = std::clamp(pitch, -kMaxPitch, kMaxPitch);
  return target + distance * glm::vec3(std::cos(p) * std::cos(yaw), std::cos(p) * std::sin(yaw), std::sin(p));
}

glm::mat4 OrbitCamera::view() const { return glm::lookAtRH(eye(), target, glm::vec3(0.0f, 0.0f, 1.0f)); }

glm::mat4 OrbitCamera::projection(float aspect) const {
  // Depth is a 32-bit float in the offscreen target; near at 1 % of the distance keeps a close
  // orbit sharp and loses nothing visible at the usual distances.
  const float near_plane = std::max(distance * 0.01f, 1e-3f);
  const float far_plane = distance * 100.0f + 10.0f;
  glm::mat4 p = glm::perspectiveRH_ZO(fov_y, aspect, near_plane, far_plane);
  p[1][1] = -p[1][1];  // Vulkan's clip space has y pointing down
  return p;
}

std::optional<glm::vec2> project_to_pixel(const OrbitCamera& camera, const glm::vec3& world, int width, int height) {
  const glm::vec4 clip = camera.view_projection(float(width) / float(height)) * glm::vec4(world, 1.0f);
  if (clip.w <= 0.0f) return std::nullopt;
  const glm::vec2 ndc = glm::vec2(clip) / clip.w;
  return glm::vec2((ndc.x * 0.5f + 0.5f) * float(width), (ndc.y * 0.5f + 0.5f) * float(height));
}

Bounds shape_bounds(const sim::Model& model, int s, const glm::vec3& body_position, const glm::quat& body_rotation) {
  Bounds b;
  const bool on_body = model.shape_body[s] >= 0;
  const glm::quat rot = on_body ? body_rotation * to_glm(model.shape_local[s].rot) : to_glm(model.shape_local[s].rot);
  const glm::vec3 pos = on_body ? body_position + body_rotation * to_glm(model.shape_local[s].pos)
                                : to_glm(model.shape_local[s].pos);
  const float r = float(model.shape_radius[s]);
  switch (model.shape_type[s]) {
    case sim::ShapeType::Plane:
      break;
    case sim::ShapeType::Sphere:
      b.add(pos - glm::vec3(r)), b.add(pos + glm::vec3(r));
      break;
    case sim::ShapeType::Capsule: {
      const glm::vec3 axis = rot * glm::vec3(0.0f, 0.0f, float(model.shape_half_length[s]));
      for (const glm::vec3& end : {pos + axis, pos - axis}) b.add(end - glm::vec3(r)), b.add(end + glm::vec3(r));
      break;
    }
    case sim::ShapeType::Box: {
      const glm::mat3 m = glm::mat3_cast(rot);
      const glm::vec3 h = to_glm(model.shape_half_extents[s]);
      glm::vec3 extent(0.0f);
      for (int i = 0; i < 3; ++i) extent += glm::abs(m[i]) * h[i];  // |R| h
      b.add(pos - extent), b.add(pos + extent);
      break;
    }
    case sim::ShapeType::ConvexMesh:
    case sim::ShapeType::Cylinder:   // their hull points lie on them
    case sim::ShapeType::Ellipsoid: {
      const int h = model.shape_hull[s];
      if (h >= 0)
        for (const sim::Vec3& v : model.hulls[std::size_t(h)].vertices) b.add(pos + rot * to_glm(v));
      break;
    }
  }
  return b;
}

Bounds scene_bounds(const sim::Model& model, std::span<const sim::Real> q) {
  Bounds bounds;
  for (int s = 0; s < model.shape_count; ++s) {
    const int body = model.shape_body[s];
    glm::vec3 position(0.0f);
    glm::quat rotation(1.0f, 0.0f, 0.0f, 0.0f);
    if (body >= 0) {
      const sim::Real* c = q.data() + model.body_coord(body);
      position = glm::vec3(float(c[0]), float(c[1]), float(c[2]));
      rotation = glm::normalize(glm::quat(float(c[3]), float(c[4]), float(c[5]), float(c[6])));
    }
    bounds.add(shape_bounds(model, s, position, rotation));
  }
  for (int p = 0; p < model.particle_count; ++p) {
    const sim::Real* c = q.data() + model.particle_coord(p);
    const glm::vec3 x{float(c[0]), float(c[1]), float(c[2])};
    const float r = float(model.particle_radius[p]);
    bounds.add(x - glm::vec3(r)), bounds.add(x + glm::vec3(r));
  }
  if (bounds.empty()) bounds.add(glm::vec3(-1.0f)), bounds.add(glm::vec3(1.0f));
  return bounds;
}

OrbitCamera frame_bounds(const Bounds& bounds, float aspect, float yaw, float pitch, float fov_y) {
  OrbitCamera c;
  c.target = bounds.centre();
  c.yaw = yaw;
  c.pitch = pitch;
  c.fov_y = fov_y;
  const float radius = std::max(0.5f * glm::length(bounds.size()), 0.05f);
  const float fov_x = 2.0f * std::atan(std::tan(0.5f * fov_y) * aspect);
  c.distance = 1.05f * radius / std::sin(0.5f * std::min(fov_y, fov_x));
  return c;
}

OrbitCamera frame_all(const sim::Model& model, const sim::State& state, float aspect) {
  return frame_bounds(scene_bounds(model, state.q), aspect);
}

}  // namespace render
