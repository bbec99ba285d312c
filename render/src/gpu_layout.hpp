// C++ mirrors of the shader-side structures in shaders/scene_layout.glsl (std140 / std430, all
// members 16-byte aligned so the two layouts agree). Change both together.
#pragma once

#include <glm/glm.hpp>

#include <cstdint>

namespace render {

struct FrameUniforms {
  glm::mat4 view_proj;
  glm::mat4 light_view_proj;
  glm::vec4 eye;         // xyz
  glm::vec4 light_dir;   // xyz: travel direction (unit), w: ambient strength
  glm::vec4 background;  // linear RGB
  glm::vec4 grid;        // minor cell, major cell, fade start, fade end [m]
  glm::ivec4 info;       // selected body, encode sRGB, shadow map size (0: none), first particle vec4
  glm::ivec4 field;      // x: 1 = colour elements from ElementColors, y: first particle's entry
};
static_assert(sizeof(FrameUniforms) == 2 * 64 + 6 * 16);

struct ShapeInstance {
  glm::vec4 local_pos;   // xyz
  glm::vec4 local_rot;   // quaternion x y z w
  glm::vec4 color;       // linear RGB
  glm::ivec4 ids;        // body (-1: world), shape, flags, unused
};
static_assert(sizeof(ShapeInstance) == 64);

inline constexpr int kInstanceFlagGrid = 1;

struct DrawConstants {
  std::int32_t mode = 0;  // 0: shape instances, 1: particles, 2: hidden lines, 3: particle surfaces
  std::int32_t pad[3] = {0, 0, 0};
  glm::vec4 particle_color{0.0f};
};
static_assert(sizeof(DrawConstants) == 32);

struct LineVertex {
  float position[3];     // world [m]
  std::uint32_t color;   // RGBA8, R in the lowest byte (VK_FORMAT_R8G8B8A8_UNORM)
};
static_assert(sizeof(LineVertex) == 16);

// LineVertex::color from linear RGB and an alpha in [0, 1] (the overlay fill and on-top lines
// blend with it).
inline std::uint32_t pack_rgba(const glm::vec3& rgb, float alpha = 1.0f) {
  auto byte = [](float v) { return std::uint32_t(glm::clamp(v, 0.0f, 1.0f) * 255.0f + 0.5f); };
  return byte(rgb.r) | (byte(rgb.g) << 8) | (byte(rgb.b) << 16) | (byte(alpha) << 24);
}

}  // namespace render
