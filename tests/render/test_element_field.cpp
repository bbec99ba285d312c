// The per-element colour field overlay: the values per body and particle (speed, contact force,
// mass) against their physical oracles, the colour map's ends against matplotlib's viridis, and
// the rendered image: each body takes its field colour (a heavy box reads yellow-green, a light
// one dark blue), with the validation layer on.
#include <catch2/catch.hpp>

#include <array>
#include <cmath>

#include "render/element_field.hpp"
#include "render_test_support.hpp"
#include "support/scene_builders.hpp"

using sim::Vec3;
using namespace render_test;

namespace {

// sRGB encode, to compare with the published sRGB colour map values.
float to_srgb(float c) { return c <= 0.0031308f ? 12.92f * c : 1.055f * std::pow(c, 1.0f / 2.4f) - 0.055f; }

}  // namespace

TEST_CASE("colour field values: speed, contact force and mass per body and particle", "[render]") {
  sim::SceneSpec spec;
  spec.world_shapes.push_back(test::ground_plane());
  test::add_body(spec, "resting", Vec3(0, 0, 0.1), 2.0, test::box_shape(Vec3(0.1, 0.1, 0.1)));
  test::add_body(spec, "flying", Vec3(3, 0, 2.0), 0.5, test::sphere_shape(0.1));
  sim::BodySpec wall;
  wall.name = "wall";
  wall.fixed = true;
  wall.pose.pos = Vec3(-3, 0, 1);
  wall.shapes.push_back(test::box_shape(Vec3(0.1, 1, 1)));
  spec.bodies.push_back(wall);
  sim::ParticleSpec p;
  p.position = Vec3(0, 3, 3);
  p.mass = 0.25;
  p.radius = 0.02;
  spec.particles.push_back(p);
  const sim::Model model = test::compile(spec);
  sim::State state = sim::make_initial_state(model);
  sim::Workspace ws;
  const sim::Control control = sim::make_initial_control(model);
  test::run_steps(model, state, control, ws, 60);  // the box settles; sphere and particle fall freely

  std::vector<float> v;
  render::compute_element_field(model, state, &ws, render::ElementField::Speed, v);
  REQUIRE(v.size() == 4);
  // Free fall for t: |v| = g t (gravity 9.81 along -z).
  CHECK(v[1] == Approx(9.81 * state.time).epsilon(0.01));
  CHECK(v[3] == Approx(9.81 * state.time).epsilon(0.01));
  CHECK(v[0] < 1e-3f);  // resting
  CHECK(v[2] == 0.0f);  // fixed

  render::compute_element_field(model, state, &ws, render::ElementField::ContactForce, v);
  // The resting box carries its weight m g through its contacts; nothing touches the others.
  CHECK(v[0] == Approx(2.0 * 9.81).epsilon(0.02));
  CHECK(v[1] == 0.0f);
  CHECK(v[3] == 0.0f);
  render::compute_element_field(model, state, nullptr, render::ElementField::ContactForce, v);
  CHECK(v[0] == 0.0f);  // no workspace, no forces

  render::compute_element_field(model, state, &ws, render::ElementField::Mass, v);
  CHECK(v[0] == Approx(2.0));
  CHECK(v[1] == Approx(0.5));
  CHECK(std::isnan(v[2]));  // a fixed body has no mass to show
  CHECK(v[3] == Approx(0.25));
  const render::FieldRange r = render::field_range(v);
  CHECK(r.lo == Approx(0.25));
  CHECK(r.hi == Approx(2.0));

  CHECK(render::parse_element_field("contact_force") == render::ElementField::ContactForce);
  CHECK_FALSE(render::parse_element_field("colour").has_value());
}

TEST_CASE("the colour map is viridis: dark purple to yellow, monotone in lightness", "[render]") {
  // matplotlib's viridis, sRGB: (0.267, 0.005, 0.329) at 0, (0.128, 0.567, 0.551) at 0.5, (0.993, 0.906, 0.144) at 1.
  const struct {
    float t;
    glm::vec3 srgb;
  } reference[] = {{0.0f, {0.267f, 0.005f, 0.329f}}, {0.5f, {0.128f, 0.567f, 0.551f}}, {1.0f, {0.993f, 0.906f, 0.144f}}};
  for (const auto& ref : reference) {
    const glm::vec3 c = render::viridis(ref.t);
    for (int i = 0; i < 3; ++i) CHECK(to_srgb(c[i]) == Approx(ref.srgb[i]).margin(0.02));
  }
  float last = -1;
  for (int k = 0; k <= 20; ++k) {
    const glm::vec3 c = render::viridis(float(k) / 20.0f);
    const float luminance = 0.2126f * c.r + 0.7152f * c.g + 0.0722f * c.b;
    CHECK(luminance > last);
    last = luminance;
  }
  CHECK(render::field_color(std::nanf(""), {0, 1}) == glm::vec3(0.35f));
  CHECK(render::field_color(5.0f, {0, 1}) == render::viridis(1.0f));  // clamped
}

TEST_CASE("the legend's colours are the map's, sRGB-encoded, and its bar is painted low to high", "[render][legend]") {
  // matplotlib's viridis ends, sRGB, as the legend shows them.
  const std::vector<glm::vec3> stops = render::field_map_srgb(16);
  REQUIRE(stops.size() == 16);
  for (int i = 0; i < 3; ++i) {
    CHECK(stops.front()[i] == Approx(std::array<float, 3>{0.267f, 0.005f, 0.329f}[std::size_t(i)]).margin(0.02));
    CHECK(stops.back()[i] == Approx(std::array<float, 3>{0.993f, 0.906f, 0.144f}[std::size_t(i)]).margin(0.02));
    CHECK(stops[7][i] == Approx(to_srgb(render::viridis(7.0f / 15.0f)[i])).margin(1e-5));
  }
  CHECK(render::field_none_srgb().r == Approx(to_srgb(0.35f)).margin(1e-5));
  // The bar in an image: its left end the map's low colour, its right end the high one, the
  // swatch beside it grey, the rest of the image untouched.
  const int w = 320, h = 240;
  std::vector<std::uint8_t> rgba(std::size_t(w) * h * 4, 200);
  render::draw_field_legend_bar(rgba, w, h);
  auto pixel = [&](int x, int y) {
    const std::size_t i = (std::size_t(y) * w + std::size_t(x)) * 4;
    return glm::vec3(rgba[i], rgba[i + 1], rgba[i + 2]) / 255.0f;
  };
  const int y = h - 6 - 3;  // inside the bar (margin 6, height 12)
  const glm::vec3 left = pixel(6, y), right = pixel(6 + 106 - 1, y), swatch = pixel(6 + 106 + 2 + 5, y);
  for (int i = 0; i < 3; ++i) {
    CHECK(left[i] == Approx(stops.front()[i]).margin(1.0 / 255));
    CHECK(right[i] == Approx(stops.back()[i]).margin(1.0 / 255));
    CHECK(swatch[i] == Approx(render::field_none_srgb()[i]).margin(1.0 / 255));
  }
  CHECK(pixel(w / 2, h / 2) == glm::vec3(200.0f / 255.0f));
  CHECK(pixel(6 - 1, y) == glm::vec3(0.0f));  // framed
}

TEST_CASE("the colour field overlay paints each body its field colour", "[render]") {
  auto* ctx = context_or_skip();
  if (!ctx) return;
  const int errors_before = ctx->validation_counts().errors;
  sim::SceneSpec spec;
  spec.world_shapes.push_back(test::ground_plane());
  test::add_body(spec, "light", Vec3(-0.3, 0, 0.2), 0.1, test::box_shape(Vec3(0.2, 0.2, 0.2)));
  test::add_body(spec, "heavy", Vec3(0.3, 0, 0.2), 10.0, test::box_shape(Vec3(0.2, 0.2, 0.2)));
  const sim::Model model = test::compile(spec);
  const sim::State state = sim::make_initial_state(model);
  auto renderer = make_renderer(*ctx);
  REQUIRE(renderer->set_model(model).ok());
  render::FrameInput input;
  input.camera.target = glm::vec3(0.0f, 0.0f, 0.2f);
  input.camera.distance = 2.2f;
  input.camera.yaw = -1.5708f;  // looking along +y: "light" on the left, "heavy" on the right
  input.camera.pitch = 0.3f;
  input.q = state.q;
  const std::vector<std::uint8_t> own = render_frame(*renderer, input);

  std::vector<float> values;
  render::compute_element_field(model, state, nullptr, render::ElementField::Mass, values);
  input.overlays.element_field = render::ElementField::Mass;
  input.element_values = values;
  const std::vector<std::uint8_t> coloured = render_frame(*renderer, input);
  CHECK(differing_pixels(own, coloured) > 200);

  auto pixel = [&](const std::vector<std::uint8_t>& img, const glm::vec3& world) {
    const auto p = render::project_to_pixel(input.camera, world, kWidth, kHeight);
    REQUIRE(p.has_value());
    const std::size_t i = (std::size_t(p->y) * kWidth + std::size_t(p->x)) * 4;
    return glm::ivec3(img[i], img[i + 1], img[i + 2]);
  };
  // The top faces' centres (lit the same way): the light box is viridis' dark blue-purple end
  // (blue above green), the heavy one its yellow end (red and green far above blue).
  const glm::ivec3 light = pixel(coloured, glm::vec3(-0.3f, 0.0f, 0.4f));
  const glm::ivec3 heavy = pixel(coloured, glm::vec3(0.3f, 0.0f, 0.4f));
  INFO("light " << light.r << " " << light.g << " " << light.b << ", heavy " << heavy.r << " " << heavy.g << " " << heavy.b);
  CHECK(light.b > light.g);
  CHECK(heavy.g > heavy.b + 60);
  CHECK(heavy.r > heavy.b + 60);
  // Switching the overlay off restores the bodies' own colours exactly.
  input.overlays.element_field = render::ElementField::None;
  CHECK(render_frame(*renderer, input) == own);
  check_no_new_validation_errors(*ctx, errors_before);
}
