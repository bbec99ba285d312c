// Robots' visual shapes in the renderer: drawn in their file's colour in place of the body's
// collision shapes, the collision shapes shown instead (visuals off) or under see-through visuals
// (collision overlay), all under the validation layer.
#include <catch2/catch.hpp>

#include "render/offscreen.hpp"
#include "render_test_support.hpp"
#include "sim/compile.hpp"
#include "sim/scene_io.hpp"
#include "support/scratch_files.hpp"

using namespace render_test;

namespace {

// A fixed base whose collision geometry is a small sphere and whose visual is a wide green slab
// above it (top at z = 0.1 m), in a colour no palette body has.
constexpr const char* kSlabUrdf = R"(<robot name="slab">
  <link name="base">
    <inertial><mass value="1"/><inertia ixx="0.01" iyy="0.01" izz="0.01"/></inertial>
    <visual><origin xyz="0 0 0.09"/><geometry><box size="0.4 0.4 0.02"/></geometry>
      <material name="signal_green"><color rgba="0.05 0.85 0.1 1"/></material></visual>
    <collision><geometry><sphere radius="0.04"/></geometry></collision>
  </link>
</robot>)";

struct Rgb {
  int r, g, b;
};
Rgb pixel(const std::vector<std::uint8_t>& image, int x, int y) {
  const std::size_t i = (std::size_t(y) * std::size_t(kWidth) + std::size_t(x)) * 4;
  return {image[i], image[i + 1], image[i + 2]};
}
bool green(const Rgb& c) { return c.g > c.r + 60 && c.g > c.b + 60; }

}  // namespace

TEST_CASE("visual shapes are drawn in the file's colour in place of collision shapes, which can be overlaid",
          "[render][visuals]") {
  auto* ctx = context_or_skip();
  if (!ctx) return;
  const int errors_before = ctx->validation_counts().errors;
  const auto dir = test::scratch_dir("render_visual_slab");
  test::write_file(dir / "slab.urdf", kSlabUrdf);
  auto spec = sim::load_description((dir / "slab.urdf").string());
  REQUIRE(spec.ok());
  auto model = sim::compile_model(spec.value());
  REQUIRE(model.ok());
  REQUIRE(model->visual_count == 1);
  const sim::State state = sim::make_initial_state(*model);
  const sim::Vec3 base = state.body_position(0);

  auto renderer = make_renderer(*ctx);
  REQUIRE(renderer->set_model(*model).ok());
  render::FrameInput input;
  input.q = state.q;
  input.camera.target = glm::vec3(float(base.x()), float(base.y()), float(base.z()));
  input.camera.distance = 1.2f;
  input.camera.pitch = 1.2f;  // from above: the slab hides the sphere under it
  const auto p = render::project_to_pixel(input.camera, input.camera.target + glm::vec3(0, 0, 0.1f), kWidth, kHeight);
  REQUIRE(p.has_value());
  const int x = int(p->x), y = int(p->y);

  const std::vector<std::uint8_t> visual = render_frame(*renderer, input);
  INFO("visual " << pixel(visual, x, y).r << " " << pixel(visual, x, y).g << " " << pixel(visual, x, y).b);
  CHECK(green(pixel(visual, x, y)));

  input.geometry.visuals = false;  // the collision sphere, in the body palette
  const std::vector<std::uint8_t> collision = render_frame(*renderer, input);
  INFO("collision " << pixel(collision, x, y).r << " " << pixel(collision, x, y).g << " " << pixel(collision, x, y).b);
  CHECK_FALSE(green(pixel(collision, x, y)));
  CHECK(differing_pixels(visual, collision) > 400);  // the slab covers a large part of the frame

  input.geometry.visuals = true;  // the sphere solid, the slab see-through over it
  input.geometry.collision = true;
  const std::vector<std::uint8_t> both = render_frame(*renderer, input);
  const Rgb overlaid = pixel(both, x, y), under = pixel(collision, x, y);
  INFO("both " << overlaid.r << " " << overlaid.g << " " << overlaid.b);
  CHECK(overlaid.g > under.g + 20);  // tinted towards the slab's green...
  CHECK(pixel_difference(both, visual, x, y) > 20);  // ...but not the opaque slab
  CHECK(renderer->scene().stats().visual_instances == 1);
  check_no_new_validation_errors(*ctx, errors_before);
}
