// The Vulkan renderer drawing offscreen on whatever device exists (Mesa's lavapipe here), with
// the validation layer on: frames are sized and not blank, bodies land where the camera math
// projects them, overlays and selection change the image, equal input renders equal pixels, and
// the pose buffer the simulation writes is what gets drawn. Skips when no Vulkan device exists.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "render/offscreen.hpp"
#include "render_test_support.hpp"
#include "sim/scene_io.hpp"
#include "support/scene_builders.hpp"

using sim::Vec3;
using namespace render_test;

namespace {

sim::SceneSpec box_on_ground(const Vec3& box_position) {
  sim::SceneSpec spec;
  spec.world_shapes.push_back(test::ground_plane());
  test::add_body(spec, "box", box_position, 1.0, test::box_shape(Vec3(0.2, 0.2, 0.2)));
  return spec;
}

render::OrbitCamera test_camera() {
  render::OrbitCamera c;
  c.target = glm::vec3(0.0f, 0.0f, 0.2f);
  c.distance = 2.5f;
  return c;
}

render::FrameInput frame_of(const sim::State& state, const render::OrbitCamera& camera) {
  render::FrameInput input;
  input.camera = camera;
  input.q = state.q;
  return input;
}

// Width and height from a PNG's IHDR chunk (big-endian at bytes 16..23).
std::pair<int, int> png_size(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::vector<unsigned char> head(24);
  in.read(reinterpret_cast<char*>(head.data()), 24);
  REQUIRE(in.gcount() == 24);
  REQUIRE(head[1] == 'P');
  REQUIRE(head[2] == 'N');
  REQUIRE(head[3] == 'G');
  auto be = [&](int o) { return (head[o] << 24) | (head[o + 1] << 16) | (head[o + 2] << 8) | head[o + 3]; };
  return {be(16), be(20)};
}

}  // namespace

TEST_CASE("offscreen frames of a shipped scene are sized, not constant, and written as PNG", "[render]") {
  auto* ctx = context_or_skip();
  if (!ctx) return;
  const int errors_before = ctx->validation_counts().errors;
  auto spec = sim::load_scene_file(std::string(COULOMB_SOURCE_DIR) + "/assets/scenes/heavy_stack.xml");
  REQUIRE(spec.ok());
  const sim::Model model = test::compile(*spec);
  sim::State state = sim::make_initial_state(model);
  sim::Workspace ws;
  test::run_steps(model, state, sim::make_initial_control(model), ws, 3);

  auto renderer = make_renderer(*ctx);
  REQUIRE(renderer->set_model(model).ok());
  render::ContactOverlay contacts;
  render::copy_contacts(model, state, ws, contacts);
  CHECK(contacts.size() > 0);
  render::FrameInput input = frame_of(state, render::frame_all(model, state, renderer->aspect()));
  input.overlays.contact_points = input.overlays.normal_forces = true;
  input.contacts = &contacts;
  const std::vector<std::uint8_t> pixels = render_frame(*renderer, input);

  // Not blank: a spread of values, and more than a handful of distinct colours.
  const auto [lo, hi] = std::minmax_element(pixels.begin(), pixels.end());
  CHECK(int(*hi) - int(*lo) > 80);
  std::vector<std::uint32_t> colours;
  for (std::size_t i = 0; i < pixels.size(); i += 4)
    colours.push_back(std::uint32_t(pixels[i]) | std::uint32_t(pixels[i + 1]) << 8 | std::uint32_t(pixels[i + 2]) << 16);
  std::sort(colours.begin(), colours.end());
  CHECK(std::unique(colours.begin(), colours.end()) - colours.begin() > 100);
  // Opaque everywhere.
  for (std::size_t i = 3; i < pixels.size(); i += 4) REQUIRE(pixels[i] == 255);

  const std::string path = (std::filesystem::temp_directory_path() / "coulomb_render_test.png").string();
  REQUIRE(render::write_png(path, kWidth, kHeight, pixels).ok());
  CHECK(png_size(path) == std::pair<int, int>(kWidth, kHeight));
  CHECK(std::filesystem::file_size(path) > 1000);
  std::filesystem::remove(path);
  check_no_new_validation_errors(*ctx, errors_before);
}

TEST_CASE("a body appears where the camera projects it", "[render]") {
  auto* ctx = context_or_skip();
  if (!ctx) return;
  const int errors_before = ctx->validation_counts().errors;
  const Vec3 where(0.35, -0.25, 0.2);
  const sim::Model with = test::compile(box_on_ground(where));
  const sim::Model without = test::compile(box_on_ground(Vec3(80, 80, 0.2)));  // far out of view
  const render::OrbitCamera camera = test_camera();
  auto renderer = make_renderer(*ctx);
  REQUIRE(renderer->set_model(with).ok());
  const std::vector<std::uint8_t> a = render_frame(*renderer, frame_of(sim::make_initial_state(with), camera));
  REQUIRE(renderer->set_model(without).ok());
  const std::vector<std::uint8_t> b = render_frame(*renderer, frame_of(sim::make_initial_state(without), camera));

  const auto centre = render::project_to_pixel(camera, glm::vec3(0.35f, -0.25f, 0.2f), kWidth, kHeight);
  REQUIRE(centre.has_value());
  const int x = int(centre->x), y = int(centre->y);
  REQUIRE((x >= 2 && x < kWidth - 2 && y >= 2 && y < kHeight - 2));
  // The box covers its projected centre and the pixels around it...
  CHECK(pixel_difference(a, b, x, y) > 30);
  CHECK(pixel_difference(a, b, x + 2, y + 1) > 30);
  // ... and the opposite side of the image, ground or sky only, is unchanged.
  const int far_x = x < kWidth / 2 ? kWidth - 3 : 2;
  CHECK(pixel_difference(a, b, far_x, 2) == 0);
  check_no_new_validation_errors(*ctx, errors_before);
}

TEST_CASE("overlays and selection change the image, equal input renders equal pixels", "[render]") {
  auto* ctx = context_or_skip();
  if (!ctx) return;
  const int errors_before = ctx->validation_counts().errors;
  const sim::Model model = test::compile(box_on_ground(Vec3(0, 0, 0.2)));
  sim::State state = sim::make_initial_state(model);
  sim::Workspace ws;
  test::run_steps(model, state, sim::make_initial_control(model), ws, 5);
  REQUIRE(ws.contacts.size() == 4);
  render::ContactOverlay contacts;
  render::copy_contacts(model, state, ws, contacts);
  REQUIRE(contacts.size() == 4);
  for (const glm::vec3& f : contacts.normal_force) CHECK(f.z > 0.5f);  // the box's weight, shared

  auto renderer = make_renderer(*ctx);
  REQUIRE(renderer->set_model(model).ok());
  render::FrameInput input = frame_of(state, test_camera());
  input.contacts = &contacts;
  const std::vector<std::uint8_t> plain = render_frame(*renderer, input);
  const std::vector<std::uint8_t> again = render_frame(*renderer, input);
  CHECK(plain == again);

  SECTION("a second renderer gives the same bytes") {
    auto other = make_renderer(*ctx);
    REQUIRE(other->set_model(model).ok());
    CHECK(render_frame(*other, input) == plain);
  }
  SECTION("contact overlay") {
    input.overlays.contact_points = true;
    const std::vector<std::uint8_t> points = render_frame(*renderer, input);
    CHECK(differing_pixels(plain, points) > 8);
    // The change is at the contacts: around a projected contact point some pixel differs.
    CHECK(differing_pixels_near(input.camera, contacts.point[0], plain, points) > 0);
    input.overlays.normal_forces = input.overlays.friction_forces = input.overlays.contact_normals = true;
    CHECK(differing_pixels(points, render_frame(*renderer, input)) > 8);
  }
  SECTION("frames, joints and bounds overlays") {
    input.overlays.body_frames = input.overlays.bounding_boxes = input.overlays.joint_frames = true;
    CHECK(differing_pixels(plain, render_frame(*renderer, input)) > 20);
  }
  SECTION("selection highlight") {
    input.selected_body = 0;
    const std::vector<std::uint8_t> selected = render_frame(*renderer, input);
    const auto c = render::project_to_pixel(input.camera, glm::vec3(0.0f, 0.0f, 0.2f), kWidth, kHeight);
    REQUIRE(c.has_value());
    CHECK(pixel_difference(plain, selected, int(c->x), int(c->y)) > 20);
  }
  SECTION("shadows darken the ground beside the box") {
    input.shadows = false;
    CHECK(differing_pixels(plain, render_frame(*renderer, input)) > 20);
  }
  check_no_new_validation_errors(*ctx, errors_before);
}

TEST_CASE("frames draw the poses the simulation publishes into the pose buffer", "[render]") {
  auto* ctx = context_or_skip();
  if (!ctx) return;
  const int errors_before = ctx->validation_counts().errors;
  const sim::Model model = test::compile(box_on_ground(Vec3(-0.4, 0.3, 0.2)));
  const render::OrbitCamera camera = test_camera();
  auto renderer = make_renderer(*ctx);
  REQUIRE(renderer->set_model(model).ok());
  render::FrameInput from_buffer;  // no q: draw whatever was published
  from_buffer.camera = camera;
  const std::vector<std::uint8_t> initial = render_frame(*renderer, from_buffer);

  // The "simulation" moves the box by writing the shared buffer directly.
  sim::State moved = sim::make_initial_state(model);
  moved.set_body_pose(0, sim::Pose{Vec3(0.4, -0.3, 0.2), sim::Quat::Identity()});
  render::PoseSink* sink = renderer->scene().pose_sink();
  REQUIRE(sink != nullptr);
  render::write_state_poses(model, moved, *sink);
  sink->publish();
  const std::vector<std::uint8_t> after = render_frame(*renderer, from_buffer);

  // The same state passed through FrameInput::q renders the same pixels.
  CHECK(render_frame(*renderer, frame_of(moved, camera)) == after);
  const auto old_px = render::project_to_pixel(camera, glm::vec3(-0.4f, 0.3f, 0.2f), kWidth, kHeight);
  const auto new_px = render::project_to_pixel(camera, glm::vec3(0.4f, -0.3f, 0.2f), kWidth, kHeight);
  REQUIRE((old_px && new_px));
  CHECK(pixel_difference(initial, after, int(old_px->x), int(old_px->y)) > 30);
  CHECK(pixel_difference(initial, after, int(new_px->x), int(new_px->y)) > 30);
  check_no_new_validation_errors(*ctx, errors_before);
}

TEST_CASE("every shape kind, particles and joints render without validation errors", "[render]") {
  auto* ctx = context_or_skip();
  if (!ctx) return;
  const int errors_before = ctx->validation_counts().errors;
  sim::SceneSpec spec;
  spec.world_shapes.push_back(test::ground_plane());
  sim::ShapeSpec capsule;
  capsule.type = sim::ShapeType::Capsule;
  capsule.radius = 0.08;
  capsule.half_length = 0.15;
  sim::ShapeSpec hull;
  hull.type = sim::ShapeType::ConvexMesh;
  hull.vertices = {Vec3(0, 0, 0.3), Vec3(0.2, 0, 0), Vec3(-0.1, 0.17, 0), Vec3(-0.1, -0.17, 0), Vec3(0, 0, -0.1)};
  const int a = test::add_body(spec, "sphere", Vec3(-0.5, 0, 0.5), 1.0, test::sphere_shape(0.15));
  const int b = test::add_body(spec, "capsule", Vec3(0, 0, 0.5), 1.0, capsule);
  test::add_body(spec, "hull", Vec3(0.5, 0, 0.3), 1.0, hull);
  test::add_body(spec, "box", Vec3(0, 0.5, 0.2), 1.0, test::box_shape(Vec3(0.1, 0.2, 0.1)));
  sim::JointSpec joint;
  joint.type = sim::JointType::Revolute;
  joint.body_a = a;
  joint.body_b = b;
  joint.frame_a.pos = Vec3(0.25, 0, 0);
  joint.frame_b.pos = Vec3(-0.25, 0, 0);
  joint.axis = Vec3::UnitY();
  spec.joints.push_back(joint);
  for (int i = 0; i < 6; ++i) {
    sim::ParticleSpec p;
    p.position = Vec3(-0.3 + 0.12 * i, -0.5, 0.4);
    p.radius = 0.03;
    spec.particles.push_back(p);
  }
  const sim::Model model = test::compile(spec);
  sim::State state = sim::make_initial_state(model);
  sim::Workspace ws;
  test::run_steps(model, state, sim::make_initial_control(model), ws, 10);

  auto renderer = make_renderer(*ctx);
  REQUIRE(renderer->set_model(model).ok());
  CHECK(renderer->scene().stats().meshes == 5);  // plane, sphere, capsule, hull, box
  render::ContactOverlay contacts;
  render::copy_contacts(model, state, ws, contacts);
  render::FrameInput input = frame_of(state, render::frame_all(model, state, renderer->aspect()));
  input.contacts = &contacts;
  render::Overlays& o = input.overlays;
  o.contact_points = o.contact_normals = o.normal_forces = o.friction_forces = true;
  o.joint_frames = o.body_frames = o.bounding_boxes = true;
  input.selected_body = 1;
  const std::vector<std::uint8_t> pixels = render_frame(*renderer, input);
  CHECK(renderer->scene().stats().line_vertices > 0);
  // The particles are drawn: each projected particle centre differs from a frame without them.
  render::FrameInput no_particles = input;
  std::vector<sim::Real> q = state.q;
  for (int p = 0; p < model.particle_count; ++p) q[std::size_t(model.particle_coord(p)) + 2] = -50;  // under ground
  no_particles.q = q;
  const std::vector<std::uint8_t> hidden = render_frame(*renderer, no_particles);
  int seen = 0;
  for (int p = 0; p < model.particle_count; ++p) {
    const int c = model.particle_coord(p);
    const auto px = render::project_to_pixel(
        input.camera, glm::vec3(float(state.q[c]), float(state.q[c + 1]), float(state.q[c + 2])), kWidth, kHeight);
    if (px && pixel_difference(pixels, hidden, int(px->x), int(px->y)) > 20) ++seen;
  }
  CHECK(seen >= model.particle_count - 1);  // one may hide behind a body
  check_no_new_validation_errors(*ctx, errors_before);
}
