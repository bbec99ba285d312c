// The renderer's host-side pieces: camera math, scene bounds and framing, the pose layout and
// the pose buffer's slot ring (the simulation never writes a slot a frame in flight reads).
#include <catch2/catch.hpp>

#include <set>

#include "render/orbit_camera.hpp"
#include "render/shared_pose_buffer.hpp"
#include "render_test_support.hpp"
#include "support/scene_builders.hpp"

using sim::Vec3;

TEST_CASE("orbit camera: the target projects to the image centre, framing holds the scene", "[render]") {
  render::OrbitCamera c;
  c.target = glm::vec3(1.0f, 2.0f, 0.5f);
  const auto centre = render::project_to_pixel(c, c.target, 640, 480);
  REQUIRE(centre.has_value());
  CHECK(centre->x == Approx(320.0f).margin(1e-2));
  CHECK(centre->y == Approx(240.0f).margin(1e-2));
  // Up in the world is up in the image (rows grow downwards).
  const auto above = render::project_to_pixel(c, c.target + glm::vec3(0, 0, 0.1f), 640, 480);
  REQUIRE(above.has_value());
  CHECK(above->y < centre->y);
  // Behind the eye: nothing.
  CHECK_FALSE(render::project_to_pixel(c, c.eye() + (c.eye() - c.target), 640, 480).has_value());

  sim::SceneSpec spec;
  spec.world_shapes.push_back(test::ground_plane());
  test::add_body(spec, "a", Vec3(-2, 0, 0.5), 1.0, test::box_shape(Vec3(0.5, 0.5, 0.5)));
  test::add_body(spec, "b", Vec3(3, 1, 0.5), 1.0, test::sphere_shape(0.5));
  const sim::Model model = test::compile(spec);
  const sim::State state = sim::make_initial_state(model);
  const render::Bounds b = render::scene_bounds(model, state.q);
  CHECK(b.lo.x == Approx(-2.5f));
  CHECK(b.hi.x == Approx(3.5f));
  CHECK(b.lo.z == Approx(0.0f).margin(1e-5));  // the plane adds nothing
  const render::OrbitCamera framed = render::frame_all(model, state, 16.0f / 9.0f);
  for (const glm::vec3& corner : {b.lo, b.hi, glm::vec3(b.lo.x, b.hi.y, b.hi.z), glm::vec3(b.hi.x, b.lo.y, b.lo.z)}) {
    const auto p = render::project_to_pixel(framed, corner, 1280, 720);
    REQUIRE(p.has_value());
    CHECK((p->x >= 0 && p->x <= 1280 && p->y >= 0 && p->y <= 720));
  }
}

TEST_CASE("pose layout: com frames as (x y z 0, qx qy qz qw), particles as (x y z radius)", "[render]") {
  sim::SceneSpec spec;
  test::add_body(spec, "a", Vec3(1, 2, 3), 1.0, test::sphere_shape(0.1));
  sim::ParticleSpec p;
  p.position = Vec3(4, 5, 6);
  p.radius = 0.02;
  spec.particles.push_back(p);
  const sim::Model model = test::compile(spec);
  sim::State state = sim::make_initial_state(model);
  const sim::Quat q(Eigen::AngleAxis<sim::Real>(0.5, Vec3(0, 0, 1)));
  state.set_body_pose(0, sim::Pose{Vec3(1, 2, 3), q});
  std::vector<float> out(render::pose_float_count(model.body_count, model.particle_count));
  REQUIRE(out.size() == 12);
  render::write_poses(model, state.q, out.data());
  CHECK(out[0] == 1.0f);
  CHECK(out[2] == 3.0f);
  CHECK(out[3] == 0.0f);
  CHECK(out[6] == Approx(float(q.z())));
  CHECK(out[7] == Approx(float(q.w())));
  CHECK(out[8] == 4.0f);
  CHECK(out[10] == 6.0f);
  CHECK(out[11] == Approx(0.02f));
}

TEST_CASE("pose buffer ring: the producer never gets a slot a frame in flight holds", "[render]") {
  auto* ctx = render_test::context_or_skip();
  if (!ctx) return;
  constexpr int kFrames = 3;
  auto buffer = render::SharedPoseBuffer::create(ctx->context(), 2, 1, kFrames);
  REQUIRE(buffer.ok());
  render::SharedPoseBuffer& b = **buffer;
  CHECK(b.slot_count() == kFrames + 2);
  // Identity poses until the first publish.
  CHECK(b.slot_data(b.acquire(0))[7] == 1.0f);
  std::vector<int> held(kFrames, -1);
  std::uint64_t step = 0;
  for (int frame = 0; frame < 200; ++frame) {
    // The simulation publishes 0-3 times per frame; each write is tagged with its step.
    for (int k = 0; k < frame % 4; ++k) {
      float* data = b.data();
      for (int h : held)
        if (h >= 0) REQUIRE(data != b.slot_data(h));
      data[0] = float(++step);
      b.publish();
    }
    const int slot = frame % kFrames;
    held[std::size_t(slot)] = b.acquire(slot);
    // A frame sees the newest published state.
    if (step > 0) CHECK(b.slot_data(held[std::size_t(slot)])[0] == float(step));
  }
  CHECK(b.publish_count() == step);
  CHECK(b.slot_range() == 20 * sizeof(float));  // 2 bodies x 8 + 1 particle x 4
  CHECK(b.slot_offset(1) % ctx->context().properties.limits.minStorageBufferOffsetAlignment == 0);
}
