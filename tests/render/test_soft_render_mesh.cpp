// A soft body drawn as its embedded high-resolution render mesh (render_mesh=, issue 14 items 3
// and 6; render/src/particle_surfaces.hpp): the surface buffer holds the particles and the
// mesh's vertices, the body's tet boundary is left out, the skinned vertices follow an affine
// map of the particles (float, from the pose records) and the colour field is interpolated by
// the same weights (an affine field is reproduced at the vertices); drawn, the skinned ball
// covers the pixels a rigid body of the same mesh at the same place covers, and fewer than the
// coarse box of tets it is embedded in. Renders run under the validation layer; with
// COULOMB_TEST_PNG_DIR set the frames are written there to look at.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>

#include "particle_surfaces.hpp"
#include "render_test_support.hpp"
#include "sim/scene_io.hpp"
#include "sim/sdf.hpp"
#include "sim/soft_render_mesh.hpp"
#include "support/scene_builders.hpp"
#include "support/scratch_files.hpp"

using sim::Vec3;
using namespace render_test;

namespace {

const sim::TriangleMesh& ball_mesh() {
  static const sim::TriangleMesh ball = sim::make_sphere_mesh(0.2, 3);
  return ball;
}

// A scene beside ball.obj: a ground plane and `body`.
sim::SceneSpec scene_with(const std::string& name, const std::string& body) {
  const auto dir = test::scratch_dir("render_mesh_" + name);
  REQUIRE(sim::save_obj(ball_mesh(), (dir / "ball.obj").string()).empty());
  test::write_file(dir / "scene.xml", "<scene>\n  <world><plane/></world>\n  " + body + "\n</scene>\n");
  auto spec = sim::load_scene_file((dir / "scene.xml").string());
  INFO((spec.ok() ? "" : spec.error()));
  REQUIRE(spec.ok());
  return std::move(*spec);
}

const char* kSoftBall = R"(<softbody name="s" box="0.4 0.4 0.4" divisions="2 2 2" render_mesh="ball.obj" pos="0 0 0.5"/>)";

void maybe_write_png(const std::string& name, const std::vector<std::uint8_t>& rgba) {
  const char* dir = std::getenv("COULOMB_TEST_PNG_DIR");
  if (!dir || !*dir) return;
  std::filesystem::create_directories(dir);
  CHECK(render::write_png((std::filesystem::path(dir) / (name + ".png")).string(), kWidth, kHeight, rgba).ok());
}

}  // namespace

TEST_CASE("render_mesh: the surface buffer holds the skinned mesh in place of the tet boundary", "[render][render_mesh]") {
  const sim::Model model = test::compile(scene_with("buffer", kSoftBall));
  REQUIRE(model.soft_render_meshes.size() == 1);
  const sim::SoftRenderMesh& mesh = *model.soft_render_meshes[0];
  const render::ParticleSurfaces s = render::build_particle_surfaces(model);
  CHECK(s.vertex_count == model.particle_count + int(mesh.vertices.size()));
  CHECK(s.soft_index_count == 3 * mesh.triangles.size());  // no tet boundary face left
  std::uint32_t free = 0;
  for (const auto& run : s.free_runs) free += run.count;
  CHECK(free == 0);  // the body's particles (interior included) are drawn as the mesh, not as spheres

  // An affine map of the particles moves every skinned vertex as it moves the vertex's rest
  // position (to float precision); an affine field x -> 2x - 3y + z interpolates exactly too.
  const sim::State state = sim::make_initial_state(model);
  sim::Mat3 a;
  a << 1.2, 0.1, 0.0, -0.2, 0.9, 0.1, 0.05, 0.0, 1.3;
  const Vec3 b(0.1, -0.3, 0.2);
  std::vector<float> poses(4 * std::size_t(model.particle_count)), field(std::size_t(model.particle_count));
  for (int p = 0; p < model.particle_count; ++p) {
    const sim::Real* q = state.q.data() + model.particle_coord(p);
    const Vec3 x = a * Vec3(q[0], q[1], q[2]) + b;
    for (int k = 0; k < 3; ++k) poses[4 * std::size_t(p) + std::size_t(k)] = float(x[k]);
    field[std::size_t(p)] = float(2 * x.x() - 3 * x.y() + x.z());
  }
  std::vector<render::MeshVertex> vertices(std::size_t(s.vertex_count));
  render::write_surface_vertices(s, poses.data(), vertices.data());
  std::vector<float> values(mesh.vertices.size());
  render::interpolate_embedded_values(s, field, values);
  double off = 0, field_off = 0;
  for (std::size_t i = 0; i < mesh.vertices.size(); ++i) {
    const render::MeshVertex& v = vertices[std::size_t(model.particle_count) + i];
    const Vec3 expected = a * mesh.vertices[i] + b;
    off = std::max(off, (Vec3(v.position[0], v.position[1], v.position[2]) - expected).norm());
    field_off = std::max(field_off, std::abs(double(values[i]) - (2 * expected.x() - 3 * expected.y() + expected.z())));
    // Smooth outward normals: the ball is convex.
    const Vec3 n(v.normal[0], v.normal[1], v.normal[2]);
    CHECK(n.dot(expected - (a * Vec3(0, 0, 0.5) + b)) > 0);
  }
  std::printf("skinned ball: %zu vertices, %.2g m from the affine map, field %.2g off\n", mesh.vertices.size(), off, field_off);
  CHECK(off < 2e-6);
  CHECK(field_off < 1e-5);
}

TEST_CASE("render_mesh: the skinned ball covers the pixels of the same mesh drawn rigid", "[render][render_mesh]") {
  auto* ctx = context_or_skip();
  if (!ctx) return;
  const int errors_before = ctx->validation_counts().errors;
  auto renderer = make_renderer(*ctx);
  const sim::Model soft = test::compile(scene_with("soft", kSoftBall));
  const sim::Model box = test::compile(
      scene_with("box", R"(<softbody name="s" box="0.4 0.4 0.4" divisions="2 2 2" pos="0 0 0.5"/>)"));
  const sim::Model rigid = test::compile(
      scene_with("rigid", R"(<body name="r" fixed="true" pos="0 0 0.5"><mesh file="ball.obj"/></body>)"));
  const sim::Model ground = test::compile(scene_with("ground", ""));
  render::FrameInput input;
  input.camera.target = glm::vec3(0.0f, 0.0f, 0.5f);
  input.camera.distance = 1.6f;
  input.camera.yaw = 0.6f;
  input.camera.pitch = 0.35f;
  auto draw = [&](const sim::Model& m) {
    REQUIRE(renderer->set_model(m).ok());
    const sim::State at_rest = sim::make_initial_state(m);  // FrameInput::q is a view: kept alive
    input.q = at_rest.q;
    return render_frame(*renderer, input);
  };
  const auto soft_frame = draw(soft);
  CHECK(renderer->scene().stats().surface_vertices == soft.particle_count + int(ball_mesh().vertices.size()));
  CHECK(renderer->scene().stats().surface_triangles == int(ball_mesh().triangles.size()));
  const auto box_frame = draw(box), rigid_frame = draw(rigid), empty = draw(ground);
  maybe_write_png("render_mesh_soft_ball", soft_frame);
  maybe_write_png("render_mesh_box", box_frame);
  maybe_write_png("render_mesh_rigid_ball", rigid_frame);
  const int soft_pixels = differing_pixels(soft_frame, empty), rigid_pixels = differing_pixels(rigid_frame, empty),
            box_pixels = differing_pixels(box_frame, empty);
  // The silhouettes: the same mesh at the same place; both differ from the background where the
  // other does (shadows included, which the same geometry casts alike).
  int only_one = 0;
  for (int y = 0; y < kHeight; ++y)
    for (int x = 0; x < kWidth; ++x)
      only_one += (pixel_difference(soft_frame, empty, x, y) > 24) != (pixel_difference(rigid_frame, empty, x, y) > 24);
  std::printf("render_mesh: skinned ball %d pixels, rigid ball %d, the tet box %d; %d differ in coverage\n", soft_pixels,
              rigid_pixels, box_pixels, only_one);
  CHECK(soft_pixels > kWidth * kHeight / 20);
  CHECK(std::abs(soft_pixels - rigid_pixels) <= rigid_pixels / 50);
  CHECK(only_one <= rigid_pixels / 30);
  CHECK(box_pixels > soft_pixels + soft_pixels / 10);
  check_no_new_validation_errors(*ctx, errors_before);
}
