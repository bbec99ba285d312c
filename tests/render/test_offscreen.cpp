// The Vulkan renderer, offscreen on whatever device exists (Mesa's lavapipe here), with the
// Khronos validation layer on: any validation error fails the test. Skips when no device exists.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>

#include "render/offscreen_renderer.hpp"
#include "support/scene_builders.hpp"

using sim::Vec3;

namespace {

std::shared_ptr<render::VulkanContext> context_or_skip() {
  static auto context = render::create_headless_context(true);
  if (!context) {
    WARN("skipped: no Vulkan device with validation: " << context.error());
    return nullptr;
  }
  return *context;
}

sim::SceneSpec box_scene(bool with_box) {
  sim::SceneSpec spec;
  spec.world_shapes.push_back(test::ground_plane());
  if (with_box) test::add_body(spec, "box", Vec3(0.3, -0.2, 0.25), 1.0, test::box_shape(Vec3(0.25, 0.25, 0.25)));
  else test::add_body(spec, "box", Vec3(50, 50, 0.25), 1.0, test::box_shape(Vec3(0.25, 0.25, 0.25)));
  return spec;
}

int pixel_difference(const std::vector<std::uint8_t>& a, const std::vector<std::uint8_t>& b) {
  int differing = 0;
  for (std::size_t i = 0; i + 3 < a.size(); i += 4)
    if (std::abs(a[i] - b[i]) + std::abs(a[i + 1] - b[i + 1]) + std::abs(a[i + 2] - b[i + 2]) > 30) ++differing;
  return differing;
}

const render::Camera kCamera = [] {
  render::Camera c;
  c.target = glm::vec3(0, 0, 0.25f);
  c.distance = 3;
  return c;
}();

}  // namespace

TEST_CASE("offscreen frames are correctly sized, not constant, and free of validation errors", "[render]") {
  auto ctx = context_or_skip();
  if (!ctx) return;
  const sim::Model model = test::compile(box_scene(true));
  auto renderer = render::OffscreenRenderer::create(ctx, 160, 120);
  REQUIRE(renderer.ok());
  sim::State state = sim::make_initial_state(model);
  const auto& pixels = (*renderer)->render(model, state, nullptr, kCamera, {});
  REQUIRE(pixels.size() == 160u * 120u * 4u);
  const auto [lo, hi] = std::minmax_element(pixels.begin(), pixels.end());
  CHECK(int(*hi) - int(*lo) > 50);
  const std::string path = (std::filesystem::temp_directory_path() / "coulomb_render_test.png").string();
  REQUIRE(render::write_png(path, 160, 120, pixels).ok());
  CHECK(std::filesystem::file_size(path) > 500);
  std::filesystem::remove(path);
  CHECK(ctx->validation_errors == 0);
}

TEST_CASE("a body appears where it projects", "[render]") {
  auto ctx = context_or_skip();
  if (!ctx) return;
  auto renderer = render::OffscreenRenderer::create(ctx, 160, 120);
  REQUIRE(renderer.ok());
  const sim::Model with = test::compile(box_scene(true)), without = test::compile(box_scene(false));
  const sim::State s_with = sim::make_initial_state(with), s_without = sim::make_initial_state(without);
  (*renderer)->set_model(with);
  const std::vector<std::uint8_t> a = (*renderer)->render(with, s_with, nullptr, kCamera, {});
  (*renderer)->set_model(without);
  const std::vector<std::uint8_t> b = (*renderer)->render(without, s_without, nullptr, kCamera, {});
  glm::vec2 pixel;
  REQUIRE(kCamera.project(glm::vec3(0.3f, -0.2f, 0.25f), 160, 120, pixel));
  const int x = int(pixel.x), y = int(pixel.y);
  REQUIRE((x >= 0 && x < 160 && y >= 0 && y < 120));
  const std::size_t i = (std::size_t(y) * 160 + x) * 4;
  const int diff = std::abs(a[i] - b[i]) + std::abs(a[i + 1] - b[i + 1]) + std::abs(a[i + 2] - b[i + 2]);
  CHECK(diff > 30);  // the box covers its projected centre
  // ... and a far corner of the image (ground or sky only) is the same in both.
  const std::size_t corner = (std::size_t(2) * 160 + 2) * 4;
  CHECK(a[corner] == b[corner]);
  CHECK(ctx->validation_errors == 0);
}

TEST_CASE("the contact overlay changes the image; equal states render identically", "[render]") {
  auto ctx = context_or_skip();
  if (!ctx) return;
  const sim::Model model = test::compile(box_scene(true));
  sim::State state = sim::make_initial_state(model);
  sim::Workspace ws;
  test::run_steps(model, state, sim::make_initial_control(model), ws, 5);
  REQUIRE(ws.contacts.size() == 4);
  auto renderer = render::OffscreenRenderer::create(ctx, 320, 240);
  REQUIRE(renderer.ok());
  const std::vector<std::uint8_t> plain = (*renderer)->render(model, state, &ws, kCamera, {});
  const std::vector<std::uint8_t> again = (*renderer)->render(model, state, &ws, kCamera, {});
  CHECK(plain == again);
  render::Overlays overlays;
  overlays.contacts = overlays.normals = overlays.forces = true;
  const std::vector<std::uint8_t> with_overlay = (*renderer)->render(model, state, &ws, kCamera, overlays);
  // The corners' crosses and the force vectors show where the box does not hide them.
  CHECK(pixel_difference(plain, with_overlay) > 5);
  CHECK(ctx->validation_errors == 0);
}
