// Shared pieces of the renderer tests: one headless Vulkan context for the whole run (with the
// Khronos validation layer, so any validation error fails the test that caused it), skipping
// with a message when no Vulkan device exists, and small image comparisons.
#pragma once

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <vector>

#include "render/offscreen.hpp"
#include "render/orbit_camera.hpp"
#include "render/render_context.hpp"

namespace render_test {

// Small frames keep lavapipe (a CPU rasteriser) fast on two cores.
inline constexpr int kWidth = 160;
inline constexpr int kHeight = 120;

struct SharedContext {
  std::unique_ptr<render::HeadlessContext> context;
  std::string why_not;
};

// Validation on (synchronization checks too) when the layer is installed; without it the tests
// still run, and say so.
inline SharedContext& shared_context() {
  static SharedContext shared = [] {
    SharedContext s;
    render::HeadlessContextOptions options;
    options.validation = true;
    options.synchronization_validation = true;
    options.interop = true;  // the exported pose buffer's tests need it; harmless for the others
    auto c = render::create_headless_context(options);
    if (!c) {
      options.validation = options.synchronization_validation = false;
      auto plain = render::create_headless_context(options);
      if (!plain) {
        s.why_not = plain.error();
        return s;
      }
      s.why_not = "validation layer unavailable (" + c.error() + "): running without it";
      s.context = std::move(*plain);
      return s;
    }
    s.context = std::move(*c);
    return s;
  }();
  return shared;
}

// The context, or null after a WARN saying why the test is skipped.
inline render::HeadlessContext* context_or_skip() {
  SharedContext& s = shared_context();
  if (!s.context) {
    WARN("skipped: no Vulkan device: " << s.why_not);
    return nullptr;
  }
  if (!s.why_not.empty()) WARN(s.why_not);
  return s.context.get();
}

// Fails the current test if validation reported errors since `before`.
inline void check_no_new_validation_errors(const render::HeadlessContext& context, int before) {
  const render::ValidationCounts v = context.validation_counts();
  INFO("first validation error: " << v.first_error);
  CHECK(v.errors == before);
}

inline render::SceneRendererOptions test_options() {
  render::SceneRendererOptions o;
  o.shadow_map_size = 1024;
  return o;
}

inline std::unique_ptr<render::OffscreenRenderer> make_renderer(const render::HeadlessContext& context) {
  auto r = render::OffscreenRenderer::create(context.context(), kWidth, kHeight, 4, test_options());
  INFO((r ? std::string() : r.error()));
  REQUIRE(r.ok());
  return std::move(*r);
}

inline std::vector<std::uint8_t> render_frame(render::OffscreenRenderer& renderer, const render::FrameInput& input) {
  std::vector<std::uint8_t> rgba;
  auto done = renderer.render(input, rgba);
  INFO((done ? std::string() : done.error()));
  REQUIRE(done.ok());
  REQUIRE(rgba.size() == std::size_t(renderer.width()) * std::size_t(renderer.height()) * 4);
  return rgba;
}

// Sum of absolute RGB differences at pixel (x, y).
inline int pixel_difference(const std::vector<std::uint8_t>& a, const std::vector<std::uint8_t>& b, int x, int y,
                            int width = kWidth) {
  const std::size_t i = (std::size_t(y) * std::size_t(width) + std::size_t(x)) * 4;
  return std::abs(a[i] - b[i]) + std::abs(a[i + 1] - b[i + 1]) + std::abs(a[i + 2] - b[i + 2]);
}

// Pixels whose RGB differs by more than `threshold` in sum.
inline int differing_pixels(const std::vector<std::uint8_t>& a, const std::vector<std::uint8_t>& b,
                            int threshold = 24) {
  int n = 0;
  for (std::size_t i = 0; i + 3 < a.size(); i += 4)
    if (std::abs(a[i] - b[i]) + std::abs(a[i + 1] - b[i + 1]) + std::abs(a[i + 2] - b[i + 2]) > threshold) ++n;
  return n;
}

// Pixels of the 7x7 block around the projection of `world` (which must be on screen) whose RGB
// differs by more than 24 in sum between `a` and `b`.
inline int differing_pixels_near(const render::OrbitCamera& camera, const glm::vec3& world,
                                 const std::vector<std::uint8_t>& a, const std::vector<std::uint8_t>& b) {
  const auto p = render::project_to_pixel(camera, world, kWidth, kHeight);
  REQUIRE(p.has_value());
  int n = 0;
  for (int dy = -3; dy <= 3; ++dy)
    for (int dx = -3; dx <= 3; ++dx) {
      const int x = std::clamp(int(p->x) + dx, 0, kWidth - 1), y = std::clamp(int(p->y) + dy, 0, kHeight - 1);
      if (pixel_difference(a, b, x, y) > 24) ++n;
    }
  return n;
}

}  // namespace render_test
