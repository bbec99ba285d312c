// Soft bodies and cloth drawn as surfaces over their particles (render/src/particle_surfaces.hpp)
// and the soft-body colour fields (render/src/tet_fields.hpp): the surface covers the object
// where the particles alone left gaps, vertex normals of a closed box point outward, the
// per-tet measures match their closed forms under a piecewise affine stretch (J − 1, the largest
// principal stretch, Neo-Hookean von Mises μ(a² − 1)/a, the Kuhn tets' 45° dihedral), and the
// strain colour differs from the rest colour only where the block is stretched. Renders run under
// the validation layer; with COULOMB_TEST_PNG_DIR set the frames are written there to look at.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdlib>
#include <filesystem>

#include "particle_surfaces.hpp"
#include "render/element_field.hpp"
#include "render_test_support.hpp"
#include "sim/scene_io.hpp"
#include "sim/soft_body.hpp"
#include "support/scene_builders.hpp"
#include "support/shipped_scenes.hpp"
#include "tet_fields.hpp"

using sim::Vec3;
using namespace render_test;

namespace {

void maybe_write_png(const std::string& name, const std::vector<std::uint8_t>& rgba) {
  const char* dir = std::getenv("COULOMB_TEST_PNG_DIR");
  if (!dir || !*dir) return;
  std::filesystem::create_directories(dir);
  CHECK(render::write_png((std::filesystem::path(dir) / (name + ".png")).string(), kWidth, kHeight, rgba).ok());
}

// A 1 x 0.5 x 0.5 m Neo-Hookean block of 4 x 2 x 2 Kuhn cells at the origin (x in [-0.5, 0.5]).
sim::SceneSpec block_spec() {
  sim::SceneSpec spec;
  spec.world_shapes.push_back(test::ground_plane());
  sim::SoftMaterialSpec material;
  material.youngs_modulus = 1e5;
  material.poisson_ratio = 0.3;
  sim::SoftBodyPlacement placement;
  placement.pose.pos = Vec3(0, 0, 0.5);
  std::string error;
  REQUIRE(sim::add_soft_body(spec, sim::box_tet_mesh(Vec3(1, 0.5, 0.5), 4, 2, 2), material, placement, "block", error) >= 0);
  return spec;
}

// Stretches the half x > 0 by `a` along x (x' = a x there): every tet there has F = diag(a, 1, 1),
// every tet of the other half F = I (the cells do not straddle x = 0).
void stretch_right_half(const sim::Model& model, sim::State& state, double a) {
  for (int p = 0; p < model.particle_count; ++p) {
    const auto c = std::size_t(model.particle_coord(p));
    if (state.q[c] > 0) state.q[c] *= a;
  }
}

sim::Real particle_x(const sim::Model& model, const sim::State& state, int p) {
  return state.q[std::size_t(model.particle_coord(p))];
}

}  // namespace

TEST_CASE("particle surfaces: soft faces first, free particles in runs, outward vertex normals", "[render]") {
  sim::SceneSpec spec = block_spec();
  sim::ParticleSpec loose;  // on no surface: its sphere stays drawn
  loose.position = Vec3(3, 0, 1);
  loose.mass = 0.1;
  spec.particles.push_back(loose);
  const sim::Model model = test::compile(spec);
  const render::ParticleSurfaces s = render::build_particle_surfaces(model);
  CHECK(s.soft_index_count == 3 * model.particle_triangles.size());
  CHECK(s.cloth_index_count == 0);
  // Free: the block's 3 x 1 x 1 interior nodes and the loose particle, which ends the last run.
  std::uint32_t free = 0;
  for (const auto& run : s.free_runs) free += run.count;
  CHECK(free == 3 + 1);
  REQUIRE(!s.free_runs.empty());
  CHECK(s.free_runs.back().first + s.free_runs.back().count == std::uint32_t(model.particle_count));

  // Vertex normals of the closed box point away from its centre (boundary faces are CCW from
  // outside); a face-centre particle's normal is its face's normal exactly.
  const sim::State state = sim::make_initial_state(model);
  std::vector<float> poses(4 * std::size_t(model.particle_count));
  for (int p = 0; p < model.particle_count; ++p)
    for (int k = 0; k < 3; ++k) poses[4 * std::size_t(p) + std::size_t(k)] = float(state.q[std::size_t(model.particle_coord(p)) + std::size_t(k)]);
  std::vector<render::MeshVertex> vertices(std::size_t(model.particle_count));
  render::write_surface_vertices(s, poses.data(), vertices.data());
  int checked = 0, face_centres = 0;
  for (int p = 0; p + 1 < model.particle_count; ++p) {
    const render::MeshVertex& v = vertices[std::size_t(p)];
    const Vec3 x(v.position[0], v.position[1], v.position[2] - 0.5);
    const Vec3 n(v.normal[0], v.normal[1], v.normal[2]);
    const bool on_boundary = std::abs(std::abs(x.x()) - 0.5) < 1e-6 || std::abs(std::abs(x.y()) - 0.25) < 1e-6 ||
                             std::abs(std::abs(x.z()) - 0.25) < 1e-6;
    if (!on_boundary) continue;
    CHECK(n.norm() == Approx(1.0).margin(1e-6));
    CHECK(n.dot(x) > 0);
    ++checked;
    if (std::abs(x.x() - 0.5) < 1e-6 && std::abs(x.y()) < 1e-6 && std::abs(x.z()) < 1e-6) {  // centre of the +x face
      CHECK(n.x() == Approx(1.0).margin(1e-6));
      ++face_centres;
    }
  }
  CHECK(checked > 20);
  CHECK(face_centres == 1);
}

TEST_CASE("particle surfaces: a rope's links are drawn as lines, links into a soft body or a cloth are not", "[render]") {
  sim::SceneSpec spec = block_spec();
  const int block_particles = static_cast<int>(spec.particles.size());
  auto parsed = sim::parse_scene_xml(R"(<scene><rope start="2 0 1" end="2 0.6 1" segments="3"/>
                                           <cloth pos="4 0 1" size="0.4 0.4" segments="1 1"/></scene>)",
                                     "links.xml");
  INFO((parsed.ok() ? std::string() : parsed.error()));
  REQUIRE(parsed.ok());
  const int rope = block_particles;
  const int cloth = rope + 4;
  for (sim::ParticleSpec p : parsed->particles) spec.particles.push_back(p);
  for (sim::DistanceSpec d : parsed->distances) {
    d.particle_a += block_particles, d.particle_b += block_particles;
    spec.distances.push_back(d);
  }
  REQUIRE(parsed->distances.size() == 3 + 4 + 2);  // the rope's links, the cloth's edges and diagonals
  // The cloth's two faces: drawn as a surface, its links not as lines.
  spec.particle_triangles.push_back({cloth, cloth + 1, cloth + 3});
  spec.particle_triangles.push_back({cloth, cloth + 3, cloth + 2});
  sim::DistanceSpec into_block;                  // from the rope's end to a block corner
  into_block.particle_a = rope + 3;
  into_block.particle_b = 0;
  spec.distances.push_back(into_block);
  const sim::Model model = test::compile(spec);
  const render::ParticleSurfaces s = render::build_particle_surfaces(model);
  REQUIRE(s.links.size() == 3);
  for (int k = 0; k < 3; ++k) {
    CHECK(s.links[std::size_t(k)][0] == rope + k);
    CHECK(s.links[std::size_t(k)][1] == rope + k + 1);
  }
  // A line per link between the particles' positions in the pose records.
  std::vector<float> poses(4 * std::size_t(model.particle_count), 0.0f);
  for (int p = 0; p < model.particle_count; ++p) poses[4 * std::size_t(p)] = float(p);
  std::vector<render::LineVertex> lines;
  render::append_link_lines(s, poses.data(), 0xff000000u, lines);
  REQUIRE(lines.size() == 6);
  for (std::size_t v = 0; v < lines.size(); ++v) CHECK(lines[v].position[0] == float(rope + int(v / 2) + int(v % 2)));
}

TEST_CASE("tet measures under a piecewise affine stretch match their closed forms", "[render]") {
  const sim::Model model = test::compile(block_spec());
  sim::State state = sim::make_initial_state(model);
  const double a = 1.5;
  stretch_right_half(model, state, a);
  const double mu = model.tet_mu[0];
  struct Expected {
    render::ElementField field;
    double left, right;
  } expected[] = {
      {render::ElementField::VolumetricStrain, 0.0, a - 1},
      {render::ElementField::MaxStretch, 1.0, a},
      // Neo-Hookean Cauchy stress (μ/J) F Fᵀ + λ(J − α) I with F = diag(a, 1, 1), J = a: its deviator
      // is (μ/a) dev diag(a², 1, 1), whose von Mises value is μ (a² − 1)/a.
      {render::ElementField::VonMises, 0.0, mu * (a * a - 1) / a},
      // Kuhn tets have dihedral angles of 45°, 60° and 90°; a stretch along x keeps those at
      // edges along x and lowers others (atan(1/1.5) = 33.7° at the x-y face diagonals).
      {render::ElementField::MinDihedral, 45.0, -1},
  };
  std::vector<float> values;
  for (const Expected& e : expected) {
    INFO(render::element_field_name(e.field));
    render::compute_element_field(model, state, nullptr, e.field, values);
    REQUIRE(values.size() == std::size_t(model.body_count + model.particle_count));
    int left = 0, right = 0, sharper = 0;
    for (int p = 0; p < model.particle_count; ++p) {
      const double x = particle_x(model, state, p);
      const float v = values[std::size_t(model.body_count + p)];
      // Particles whose tets all lie on one side: x <= -0.25 or x >= 0.25 a.
      if (x < -0.2) {
        CHECK(v == Approx(e.left).margin(1e-6 * std::max(1.0, std::abs(e.left))));
        ++left;
      } else if (x > 0.2) {
        if (e.right >= 0) CHECK(v == Approx(e.right).epsilon(1e-6));
        else {
          CHECK(v <= e.left + 1e-4);
          sharper += v < e.left - 5;
        }
        ++right;
      }
    }
    CHECK(left > 10);
    CHECK(right > 10);
    if (e.right < 0) CHECK(sharper > 0);
  }
  // Bodies (the ground has none here) and particles without tets are NaN.
  sim::SceneSpec with_loose = block_spec();
  sim::ParticleSpec loose;
  loose.position = Vec3(3, 0, 1);
  loose.mass = 0.1;
  with_loose.particles.push_back(loose);
  const sim::Model m2 = test::compile(with_loose);
  render::compute_element_field(m2, sim::make_initial_state(m2), nullptr, render::ElementField::VolumetricStrain, values);
  CHECK(std::isnan(values.back()));
  // At rest the strain is round-off: the colour map spans 0.02 about it, so the body is one colour.
  render::compute_element_field(m2, sim::make_initial_state(m2), nullptr, render::ElementField::VolumetricStrain, values);
  const render::FieldRange shown = render::display_range(render::ElementField::VolumetricStrain, values);
  CHECK(shown.hi - shown.lo == Approx(0.02f));
  CHECK(std::abs(shown.lo + 0.01f) < 1e-6f);
  CHECK(render::parse_element_field("volumetric_strain") == render::ElementField::VolumetricStrain);
  CHECK(render::parse_element_field("min_dihedral") == render::ElementField::MinDihedral);
}

TEST_CASE("soft body and cloth scenes draw surfaces that cover more than their particles did", "[render]") {
  auto* ctx = context_or_skip();
  if (!ctx) return;
  const int errors_before = ctx->validation_counts().errors;
  auto renderer = make_renderer(*ctx);
  for (const char* name : {"soft_cube", "cloth"}) {
    INFO(name);
    auto spec = sim::load_scene_file(test::scene_path(name));
    REQUIRE(spec.ok());
    sim::SceneSpec particles_only = *spec;  // the spheres alone (without faces a cloth's links would be drawn)
    particles_only.particle_triangles.clear();
    particles_only.distances.clear();
    sim::SceneSpec world_only = *spec;  // the background alone
    world_only.particles.clear();
    world_only.distances.clear();
    world_only.particle_triangles.clear();
    world_only.soft_bodies.clear();
    const sim::Model model = test::compile(*spec);
    const sim::Model bare = test::compile(particles_only);
    const sim::Model background = test::compile(world_only);
    REQUIRE(!model.particle_triangles.empty());
    const sim::State state = sim::make_initial_state(model);
    render::FrameInput input;
    input.camera = render::frame_all(model, state, float(kWidth) / float(kHeight));
    input.q = state.q;

    REQUIRE(renderer->set_model(model).ok());
    const std::vector<std::uint8_t> surface = render_frame(*renderer, input);
    REQUIRE(renderer->set_model(background).ok());
    const sim::State background_state = sim::make_initial_state(background);
    input.q = background_state.q;
    const std::vector<std::uint8_t> empty = render_frame(*renderer, input);
    REQUIRE(renderer->set_model(bare).ok());
    input.q = state.q;
    const std::vector<std::uint8_t> spheres = render_frame(*renderer, input);
    maybe_write_png(std::string(name) + "_surface", surface);
    maybe_write_png(std::string(name) + "_particles_only", spheres);

    const int surface_pixels = differing_pixels(surface, empty);
    const int sphere_pixels = differing_pixels(spheres, empty);
    WARN(name << ": object pixels " << surface_pixels << " as a surface, " << sphere_pixels << " as particles");
    CHECK(surface_pixels > sphere_pixels + sphere_pixels / 2);
    CHECK(surface_pixels > kWidth * kHeight / 50);

    // The object's projected centre shows the surface colour (soft: coral, red above blue;
    // cloth: blue above red), lit.
    sim::Vec3 centre = sim::Vec3::Zero();
    for (int p = 0; p < model.particle_count; ++p)
      for (int k = 0; k < 3; ++k) centre[k] += state.q[std::size_t(model.particle_coord(p)) + std::size_t(k)];
    centre /= model.particle_count;
    const auto px = render::project_to_pixel(input.camera, glm::vec3(centre.x(), centre.y(), centre.z()), kWidth, kHeight);
    REQUIRE(px.has_value());
    const std::size_t i = (std::size_t(px->y) * kWidth + std::size_t(px->x)) * 4;
    INFO("centre pixel " << int(surface[i]) << " " << int(surface[i + 1]) << " " << int(surface[i + 2]));
    if (std::string(name) == "soft_cube") CHECK(int(surface[i]) > int(surface[i + 2]) + 20);
    else CHECK(int(surface[i + 2]) > int(surface[i]) + 20);
  }
  check_no_new_validation_errors(*ctx, errors_before);
}

TEST_CASE("the strain colour differs from the rest colour where the block is stretched", "[render]") {
  auto* ctx = context_or_skip();
  if (!ctx) return;
  const int errors_before = ctx->validation_counts().errors;
  const sim::Model model = test::compile(block_spec());
  const sim::State rest = sim::make_initial_state(model);
  sim::State stretched = rest;
  stretch_right_half(model, stretched, 1.5);
  auto renderer = make_renderer(*ctx);
  REQUIRE(renderer->set_model(model).ok());
  render::FrameInput input;
  input.camera.target = glm::vec3(0.2f, 0.0f, 0.5f);
  input.camera.distance = 2.6f;
  input.camera.yaw = -1.5708f;  // looking along +y: x to the right
  input.camera.pitch = 0.25f;
  input.overlays.element_field = render::ElementField::VolumetricStrain;
  input.element_range = {0.0f, 0.5f};
  std::vector<float> values;
  auto frame = [&](const sim::State& s) {
    render::compute_element_field(model, s, nullptr, render::ElementField::VolumetricStrain, values);
    input.q = s.q;
    input.element_values = values;
    return render_frame(*renderer, input);
  };
  const std::vector<std::uint8_t> at_rest = frame(rest);
  const std::vector<std::uint8_t> pulled = frame(stretched);
  maybe_write_png("block_strain_rest", at_rest);
  maybe_write_png("block_strain_stretched", pulled);
  // The front face (y = -0.25), left part unchanged, right part yellow (J − 1 = 0.5, the top of
  // the range) in place of dark purple (0).
  const glm::vec3 left(-0.4f, -0.25f, 0.5f), right(0.45f, -0.25f, 0.5f);
  CHECK(differing_pixels_near(input.camera, left, at_rest, pulled) == 0);
  CHECK(differing_pixels_near(input.camera, right, at_rest, pulled) >= 40);
  const auto px = render::project_to_pixel(input.camera, right, kWidth, kHeight);
  REQUIRE(px.has_value());
  const std::size_t i = (std::size_t(px->y) * kWidth + std::size_t(px->x)) * 4;
  INFO("stretched pixel " << int(pulled[i]) << " " << int(pulled[i + 1]) << " " << int(pulled[i + 2]) << ", at rest "
                          << int(at_rest[i]) << " " << int(at_rest[i + 1]) << " " << int(at_rest[i + 2]));
  CHECK(int(pulled[i + 1]) > int(at_rest[i + 1]) + 60);  // viridis' yellow end is bright green-red
  CHECK(int(pulled[i + 2]) < int(pulled[i + 1]));
  check_no_new_validation_errors(*ctx, errors_before);
}
