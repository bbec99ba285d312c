// The SDF overlays (render/sdf_overlay.hpp): slice colours against the closed-form distance of a
// baked sphere and box (sign and magnitude through the colour map), the zero iso-line on the
// surface, and offscreen frames with the slice and the contact samples on, which differ from the
// plain frame where they should, with no validation errors.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>

#include "render/offscreen.hpp"
#include "render/sdf_overlay.hpp"
#include "render_test_support.hpp"
#include "support/scene_builders.hpp"

using sim::Real;
using sim::Vec3;
using namespace render_test;

namespace {

std::shared_ptr<const sim::SdfGrid> bake(const sim::TriangleMesh& mesh, Real voxel) {
  sim::SdfBakeOptions o;
  o.voxel_size = voxel;
  o.use_cache = false;
  auto g = sim::bake_sdf(mesh, o);
  INFO((g.ok() ? std::string() : g.error()));
  REQUIRE(g.ok());
  return g.value();
}

float box_distance(const glm::vec3& p, const glm::vec3& half) {
  const glm::vec3 q = glm::abs(p) - half;
  return glm::length(glm::max(q, glm::vec3(0.0f))) + std::min(std::max(q.x, std::max(q.y, q.z)), 0.0f);
}

// Every in-band sample's colour is the map's colour of the closed-form φ to within what a
// `tolerance` error in φ moves it; and the sign shows: blue over red inside, red over blue outside.
template <class Distance>
void check_slice_colours(const sim::SdfGrid& grid, const render::SdfSlice& slice, Distance&& exact, float tolerance) {
  const float band = float(grid.background() - grid.voxel_size());
  // The largest colour change per metre of φ (either side).
  const float slope = 0.95f / std::min(slice.range_inside, slice.range_outside);
  int checked = 0, inside = 0, outside = 0;
  for (int j = 0; j < slice.ny; ++j)
    for (int i = 0; i < slice.nx; ++i) {
      const float phi = exact(slice.point(i, j));
      if (phi > band) continue;  // outside the narrow band only the coarse far field is there
      const glm::vec3 drawn = slice.colour(i, j);
      const glm::vec3 expected = render::sdf_colour(phi, slice.range_inside, slice.range_outside);
      INFO("sample (" << i << ", " << j << "): exact φ " << phi << ", sampled " << slice.at(i, j));
      CHECK(std::abs(slice.at(i, j) - phi) <= tolerance);
      for (int c = 0; c < 3; ++c) CHECK(std::abs(drawn[c] - expected[c]) <= slope * tolerance + 1e-5f);
      if (phi < -tolerance) {
        CHECK(drawn.b > drawn.r);
        ++inside;
      }
      if (phi > tolerance) {
        CHECK(drawn.r > drawn.b);
        ++outside;
      }
      ++checked;
    }
  CHECK(checked > slice.nx * slice.ny / 3);
  CHECK(inside > 0);
  CHECK(outside > 0);
}

}  // namespace

TEST_CASE("the colour map is blue inside, white on the surface, red outside", "[render][sdf]") {
  const glm::vec3 deep = render::sdf_colour(-2.0f, 1.0f, 0.1f), zero = render::sdf_colour(0.0f, 1.0f, 0.1f),
                  far = render::sdf_colour(0.2f, 1.0f, 0.1f), half = render::sdf_colour(0.05f, 1.0f, 0.1f),
                  half_in = render::sdf_colour(-0.5f, 1.0f, 0.1f);
  CHECK(deep.b > 0.8f);
  CHECK(deep.r < 0.1f);
  CHECK(far.r > 0.8f);
  CHECK(far.b < 0.1f);
  CHECK(zero == glm::vec3(1.0f));
  CHECK(half.g == Approx(0.5f * (1.0f + 0.08f)));     // linear in φ between white and red ...
  CHECK(half_in.r == Approx(0.5f * (1.0f + 0.05f)));  // ... and, on its own scale, white and blue
  CHECK(render::iteration_colour(1, 32) != render::iteration_colour(32, 32));
}

TEST_CASE("slice colours match the closed-form distance of a baked sphere and box", "[render][sdf]") {
  SECTION("sphere, slices along each axis") {
    const float radius = 0.4f, voxel = 0.01f;
    const auto grid = bake(sim::make_sphere_mesh(radius, 4), voxel);
    for (int axis = 0; axis < 3; ++axis) {
      for (const float position : {0.5f, 0.3f}) {
        const render::SdfSlice slice = render::sample_sdf_slice(*grid, axis, position, 48);
        REQUIRE(slice.nx * slice.ny == int(slice.phi.size()));
        CHECK(std::abs(slice.offset) < radius);
        // The plane's deepest point is in range (to a voxel and the nearest sample's spacing).
        const float spacing = glm::length(slice.point(1, 1) - slice.point(0, 0));
        CHECK(slice.range_inside >= radius - std::abs(slice.offset) - voxel - spacing);
        CHECK(slice.range_outside <= float(grid->background()));  // the far field saturates
        // Tessellation (an icosphere of 5120 faces sits up to 0.3 mm inside the sphere) and
        // trilinear interpolation: half a voxel.
        check_slice_colours(*grid, slice, [&](const glm::vec3& p) { return glm::length(p) - radius; }, 0.5f * voxel);
        // The zero iso-line lies on the surface.
        std::vector<render::IsoSegment> iso;
        render::slice_iso_lines(slice, iso);
        int zero = 0;
        for (const render::IsoSegment& s : iso)
          if (s.level == 0) {
            CHECK(std::abs(glm::length(s.a) - radius) < 0.5f * voxel);
            ++zero;
          }
        CHECK(zero > 10);
      }
    }
  }
  SECTION("box") {
    const glm::vec3 half(0.3f, 0.2f, 0.15f);
    const float voxel = 0.01f;
    const auto grid = bake(sim::make_box_mesh(Vec3(half.x, half.y, half.z)), voxel);
    for (int axis = 0; axis < 3; ++axis) {
      const render::SdfSlice slice = render::sample_sdf_slice(*grid, axis, 0.4f, 48);
      // Trilinear interpolation rounds the field off near edges: 0.6 voxel there.
      check_slice_colours(*grid, slice, [&](const glm::vec3& p) { return box_distance(p, half); }, 0.6f * voxel);
    }
  }
}

TEST_CASE("the slice overlay picks the selected body's mesh shape", "[render][sdf]") {
  sim::SceneSpec spec;
  spec.world_shapes.push_back(test::ground_plane());
  test::add_body(spec, "ball", Vec3(0, 0, 0.5), 1.0, test::sphere_shape(0.1));
  sim::ShapeSpec mesh;
  mesh.type = sim::ShapeType::ConvexMesh;
  const sim::TriangleMesh m = sim::make_box_mesh(Vec3(0.1, 0.1, 0.1));
  mesh.vertices = m.vertices;
  mesh.triangles = m.triangles;
  mesh.sdf_voxel_size = 0.02;
  test::add_body(spec, "crate", Vec3(1, 0, 0.5), 1.0, mesh);
  const sim::Model model = test::compile(spec);
  CHECK(render::sdf_slice_shape(model, -1) == 2);  // no selection: the first mesh shape
  CHECK(render::sdf_slice_shape(model, 1) == 2);
  CHECK(render::sdf_slice_shape(model, 0) == -1);  // a body without a mesh: none
}

TEST_CASE("offscreen frames with the SDF slice and samples overlays", "[render][sdf]") {
  auto* ctx = context_or_skip();
  if (!ctx) return;
  const int errors_before = ctx->validation_counts().errors;
  // A meshed ball on a world box: its vertices, edges and faces meet the box's field.
  sim::SceneSpec spec;
  sim::ShapeSpec table = test::box_shape(Vec3(0.6, 0.6, 0.05));
  table.local.pos = Vec3(0, 0, -0.05);
  spec.world_shapes.push_back(table);
  test::add_body(spec, "ball", Vec3(0, 0, 0.2), 1.0, test::mesh_shape(sim::make_sphere_mesh(0.2, 3), 0.01));
  const sim::Model model = test::compile(spec);
  sim::State state = sim::make_initial_state(model);
  sim::Workspace ws;
  test::run_steps(model, state, sim::make_initial_control(model), ws, 3);
  render::ContactOverlay contacts;
  render::copy_contacts(model, state, ws, contacts);
  REQUIRE(contacts.size() > 0);
  int sdf_contacts = 0;
  for (sim::SdfFeature f : contacts.sdf_feature) sdf_contacts += f != sim::SdfFeature::None ? 1 : 0;
  CHECK(sdf_contacts == contacts.size());

  auto renderer = make_renderer(*ctx);
  REQUIRE(renderer->set_model(model).ok());
  render::FrameInput input;
  input.camera.target = glm::vec3(0.0f, 0.0f, 0.2f);
  input.camera.distance = 1.6f;
  input.q = state.q;
  input.contacts = &contacts;
  const std::vector<std::uint8_t> plain = render_frame(*renderer, input);

  SECTION("slice: a horizontal plane through the ball, blue at its centre") {
    input.overlays.sdf_slice = true;
    input.overlays.sdf_slice_axis = 2;
    const std::vector<std::uint8_t> slice = render_frame(*renderer, input);
    CHECK(differing_pixels(plain, slice) > 200);
    CHECK(renderer->scene().stats().top_vertices > 1000);
    const glm::vec3 centre(float(state.q[0]), float(state.q[1]), float(state.q[2]));
    const auto c = render::project_to_pixel(input.camera, centre, kWidth, kHeight);
    REQUIRE(c.has_value());
    const std::size_t i = (std::size_t(c->y) * kWidth + std::size_t(c->x)) * 4;
    CHECK(int(slice[i + 2]) > int(slice[i]) + 40);  // blue over red: deep inside
    // Another position along the axis changes the picture.
    input.overlays.sdf_slice_position = 0.8f;
    CHECK(differing_pixels(slice, render_frame(*renderer, input)) > 50);
  }
  SECTION("samples: markers at the SDF contacts") {
    input.overlays.sdf_samples = true;
    const std::vector<std::uint8_t> samples = render_frame(*renderer, input);
    CHECK(differing_pixels(plain, samples) > 8);
    CHECK(differing_pixels_near(input.camera, contacts.point[0], plain, samples) > 0);
  }
  check_no_new_validation_errors(*ctx, errors_before);
}
