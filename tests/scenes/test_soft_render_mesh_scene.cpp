// Soft bodies' scene attributes of issue 14 items 3 and 4, through the scene XML:
//   - render_mesh="ball.obj": the surface file placed with the body's own transform and skinned
//     to its tets (sim/soft_render_mesh.hpp); under an affine map of the particles every skinned
//     vertex moves exactly as the map moves its rest position; the writer saves the attribute and
//     reading back gives the same placement; a missing file is an error at file:line.
//   - self_collision="true|false" on <softbody> and <cloth>: the spec's flag and ranges, the
//     Model's particle ranges, the writer's round trip. (The folded bar through the XML is in
//     test_soft_contacts.cpp.)
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>

#include "sim/scene_io.hpp"
#include "sim/sdf.hpp"
#include "sim/soft_body.hpp"
#include "sim/soft_render_mesh.hpp"
#include "sim/tet_embedding.hpp"
#include "sim/tet_mesh.hpp"
#include "sim/tet_mesh_io.hpp"
#include "support/scene_builders.hpp"
#include "support/scratch_files.hpp"

using sim::Real;
using sim::Vec3;

namespace {

// The rest positions of the particles, as the skinning reads them.
std::vector<Vec3> particle_positions(const sim::Model& m, const sim::State& s) {
  std::vector<Vec3> x(static_cast<std::size_t>(m.particle_count));
  for (int p = 0; p < m.particle_count; ++p) {
    const Real* q = s.q.data() + m.particle_coord(p);
    x[static_cast<std::size_t>(p)] = Vec3(q[0], q[1], q[2]);
  }
  return x;
}

// An affine map x -> A x + b with shear, stretch and rotation.
struct Affine {
  sim::Mat3 a;
  Vec3 b;
  Vec3 operator()(const Vec3& x) const { return a * x + b; }
};

Affine some_affine() {
  Affine f;
  f.a << 1.3, 0.2, -0.1, 0.05, 0.8, 0.3, -0.2, 0.1, 1.1;
  f.b = Vec3(0.3, -0.2, 0.05);
  return f;
}

}  // namespace

TEST_CASE("render_mesh on <softbody>: placed with the body, skinned vertices follow an affine map exactly",
          "[scene][fem][io][render_mesh]") {
  const auto dir = test::scratch_dir("soft_render_mesh");
  const sim::TriangleMesh ball = sim::make_sphere_mesh(0.22, 2);  // pokes out of the 0.4 m box's faces
  REQUIRE(sim::save_obj(ball, (dir / "ball.obj").string()).empty());
  REQUIRE(sim::write_gmsh_msh(sim::box_tet_mesh(Vec3(0.2, 0.2, 0.2), 2, 2, 2), (dir / "cube.msh").string()).empty());
  test::write_file(dir / "scene.xml",
                   "<scene>\n"
                   "  <softbody name=\"box\" box=\"0.4 0.4 0.4\" divisions=\"2 2 2\" render_mesh=\"ball.obj\"\n"
                   "            pos=\"0.1 0.2 0.5\" euler=\"10 20 30\" E=\"1e5\"/>\n"
                   "  <softbody name=\"msh\" mesh=\"cube.msh\" scale=\"2\" render_mesh=\"ball.obj\" pos=\"1 0 0.5\"/>\n"
                   "</scene>\n");
  auto loaded = sim::load_scene_file((dir / "scene.xml").string());
  INFO((loaded.ok() ? "" : loaded.error()));
  REQUIRE(loaded.ok());
  REQUIRE(loaded->soft_bodies.size() == 2);
  auto file = sim::load_triangle_mesh((dir / "ball.obj").string());
  REQUIRE(file.ok());
  const sim::Model m = test::compile(*loaded);
  REQUIRE(m.soft_render_meshes.size() == 2);
  for (std::size_t b = 0; b < 2; ++b) {
    INFO("soft body " << b);
    const sim::SoftRenderMesh& r = *loaded->soft_bodies[b].render_mesh;
    CHECK(m.soft_render_meshes[b].get() == &r);  // shared with the spec
    CHECK(r.file == "ball.obj");
    REQUIRE(r.vertices.size() == file->vertices.size());
    CHECK(r.triangles == file->triangles);
    // Placed like the body: the euler pose of the first, the msh body's scale 2 for the second.
    const Real scale = b == 0 ? 1 : 2;
    CHECK(r.scale == Vec3::Constant(scale));
    Real placed = 0;
    for (std::size_t i = 0; i < r.vertices.size(); ++i)
      placed = std::max(placed, (r.pose.apply(file->vertices[i] * scale) - r.vertices[i]).norm());
    CHECK(placed < 1e-15);
    CHECK(r.pose.pos == (b == 0 ? Vec3(0.1, 0.2, 0.5) : Vec3(1, 0, 0.5)));
    // Bound to the body's own particles; some vertices of the ball stick out of the box.
    for (const auto& nodes : r.embedding.nodes)
      for (int p : nodes) CHECK(std::binary_search(r.particles.begin(), r.particles.end(), p));
    CHECK(r.particles.size() == 27);
    CHECK(r.particles.front() == (b == 0 ? 0 : 27));
    if (b == 0) CHECK(r.embedding.outside > 0);
  }
  // At rest the skinned vertices are the placed ones; under an affine map of every particle they
  // are the map of their rest positions (the oracle), to round-off.
  const sim::State rest = sim::make_initial_state(m);
  const Affine f = some_affine();
  std::vector<Vec3> moved = particle_positions(m, rest), skinned;
  for (Vec3& x : moved) x = f(x);
  for (const auto& rm : m.soft_render_meshes) {
    sim::deform_embedded(rm->embedding, particle_positions(m, rest), skinned);
    Real at_rest = 0, affine = 0, size = 0;
    for (std::size_t i = 0; i < rm->vertices.size(); ++i) at_rest = std::max(at_rest, (skinned[i] - rm->vertices[i]).norm());
    sim::deform_embedded(rm->embedding, moved, skinned);
    for (std::size_t i = 0; i < rm->vertices.size(); ++i) {
      affine = std::max(affine, (skinned[i] - f(rm->vertices[i])).norm());
      size = std::max(size, skinned[i].norm());
    }
    std::printf("render mesh (%zu vertices, %zu outside the tets): at rest %.2g m, affine map %.2g m off\n",
                rm->vertices.size(), rm->embedding.outside, at_rest, affine);
    CHECK(at_rest < 1e-13);
    CHECK(affine < 1e-13 * size);
  }
}

TEST_CASE("render_mesh: saved by the writer and read back the same, errors name file:line", "[scene][fem][io][render_mesh]") {
  const auto dir = test::scratch_dir("soft_render_mesh_io");
  REQUIRE(sim::save_obj(sim::make_sphere_mesh(0.15, 1), (dir / "ball.obj").string()).empty());
  test::write_file(dir / "scene.xml",
                   "<scene>\n"
                   "  <softbody box=\"0.4 0.4 0.4\" divisions=\"1 1 1\" render_mesh=\"ball.obj\" render_scale=\"1 1.2 0.8\"\n"
                   "            pos=\"0 0 0.5\" euler=\"0 0 35\"/>\n"
                   "</scene>\n");
  auto loaded = sim::load_scene_file((dir / "scene.xml").string());
  INFO((loaded.ok() ? "" : loaded.error()));
  REQUIRE(loaded.ok());
  const sim::SoftRenderMesh& r = *loaded->soft_bodies[0].render_mesh;
  CHECK(r.scale == Vec3(1, 1.2, 0.8));
  const std::string saved = sim::write_scene_xml(*loaded);
  UNSCOPED_INFO(saved);
  CHECK(saved.find("render_mesh=\"ball.obj\"") != std::string::npos);
  CHECK(saved.find("render_scale=\"1 1.2 0.8\"") != std::string::npos);
  // Saved as <softbody tets=...> with the placement in render_pos and render_quat; read back
  // beside the mesh, the same vertices and weights; written again, the same bytes.
  REQUIRE(sim::save_scene_file(*loaded, (dir / "saved.xml").string()).ok());
  auto back = sim::load_scene_file((dir / "saved.xml").string());
  INFO((back.ok() ? "" : back.error()));
  REQUIRE(back.ok());
  REQUIRE(back->soft_bodies.size() == 1);
  REQUIRE(back->soft_bodies[0].render_mesh);
  const sim::SoftRenderMesh& b = *back->soft_bodies[0].render_mesh;
  CHECK(b.file == "ball.obj");
  CHECK(b.scale == r.scale);
  REQUIRE(b.vertices.size() == r.vertices.size());
  REQUIRE(b.particles == r.particles);
  // The same rest vertices, and the same skinned vertices under a non-affine deformation of the
  // particles (a vertex on a face shared by two tets may bind to either: the map is continuous).
  std::vector<Vec3> bent(loaded->particles.size()), from_saved, from_loaded;
  for (std::size_t p = 0; p < bent.size(); ++p) {
    const Vec3 x = loaded->particles[p].position;
    bent[p] = x + Vec3(0.1 * x.z() * x.z(), 0.05 * std::sin(7 * x.x()), 0.2 * x.x() * x.y());
  }
  sim::deform_embedded(r.embedding, bent, from_loaded);
  sim::deform_embedded(b.embedding, bent, from_saved);
  Real off = 0, skinned = 0;
  for (std::size_t i = 0; i < b.vertices.size(); ++i) {
    off = std::max(off, (b.vertices[i] - r.vertices[i]).norm());
    skinned = std::max(skinned, (from_saved[i] - from_loaded[i]).norm());
  }
  CHECK(off < 1e-12);
  CHECK(skinned < 1e-12);
  CHECK(sim::write_scene_xml(*back) == saved);
  // Saved elsewhere (the folder above, where the mesh stays within reach), the file is written
  // relative to the new scene.
  const auto above = dir.parent_path() / "coulomb_test_soft_render_mesh_io_above.xml";
  const auto moved_saved = sim::save_scene_file(*loaded, above.string());
  INFO((moved_saved.ok() ? std::string() : moved_saved.error()));
  REQUIRE(moved_saved.ok());
  auto moved = sim::load_scene_file(above.string());
  INFO((moved.ok() ? "" : moved.error()));
  REQUIRE(moved.ok());
  CHECK(moved->soft_bodies[0].render_mesh->file == "coulomb_test_soft_render_mesh_io/ball.obj");
  std::filesystem::remove(above);

  // Errors at the attribute's line: a missing file, render_pos on a generated body, render_scale alone.
  for (const auto& [body, expected] :
       {std::pair{std::string("<softbody box=\"1 1 1\"\n render_mesh=\"missing.obj\"/>"), std::string("scene.xml:3")},
        std::pair{std::string("<softbody box=\"1 1 1\" render_mesh=\"ball.obj\"\n render_pos=\"0 0 1\"/>"), std::string("scene.xml:3")},
        std::pair{std::string("<softbody box=\"1 1 1\"\n render_scale=\"2\"/>"), std::string("scene.xml:3")}}) {
    test::write_file(dir / "scene.xml", "<scene>\n  " + body + "\n</scene>\n");
    auto bad = sim::load_scene_file((dir / "scene.xml").string());
    INFO(body);
    REQUIRE_FALSE(bad.ok());
    INFO(bad.error());
    CHECK(bad.error().find(expected) != std::string::npos);
    CHECK(bad.error().find("render_") != std::string::npos);
  }
}

TEST_CASE("self_collision on <softbody>, <cloth> and <rope>: the flag, the model's particle ranges, the writer",
          "[scene][fem][io][softcontact]") {
  const std::string xml =
      "<scene>\n"
      "  <particle pos=\"0 0 3\" mass=\"1\"/>\n"
      "  <softbody name=\"a\" box=\"0.2 0.2 0.2\" divisions=\"1 1 1\" self_collision=\"true\"/>\n"
      "  <softbody name=\"b\" box=\"0.2 0.2 0.2\" divisions=\"1 1 1\" pos=\"1 0 0\"/>\n"
      "  <cloth name=\"c\" size=\"1 1\" segments=\"2 2\" pos=\"0 0 2\" self_collision=\"true\"/>\n"
      "  <cloth name=\"d\" size=\"1 1\" segments=\"2 2\" pos=\"0 0 2.5\" self_collision=\"false\"/>\n"
      "  <rope name=\"r\" start=\"0 0 4\" end=\"1 0 4\" segments=\"4\" self_collision=\"true\"/>\n"
      "</scene>\n";
  auto parsed = sim::parse_scene_xml(xml, "self.xml");
  INFO((parsed.ok() ? "" : parsed.error()));
  REQUIRE(parsed.ok());
  REQUIRE(parsed->soft_bodies.size() == 2);
  CHECK(parsed->soft_bodies[0].self_collision);
  CHECK_FALSE(parsed->soft_bodies[1].self_collision);
  // Particle 0 is loose, a: 1..8, b: 9..16, c: 17..25, d: 26..34, r: 35..39.
  CHECK(parsed->self_collision_particles == std::vector<std::array<int, 2>>{{17, 9}, {35, 5}});
  const sim::Model m = test::compile(*parsed);
  CHECK(m.self_collision_particles == std::vector<std::array<int, 2>>{{17, 9}, {35, 5}, {1, 8}});
  const std::string saved = sim::write_scene_xml(*parsed);
  INFO(saved);
  CHECK(saved.find("self_collision=\"true\"") != std::string::npos);
  CHECK(saved.find("<self_collision first=\"17\" count=\"9\"/>") != std::string::npos);
  auto back = sim::parse_scene_xml(saved, "saved.xml");
  REQUIRE(back.ok());
  CHECK(back->soft_bodies[0].self_collision);
  CHECK_FALSE(back->soft_bodies[1].self_collision);
  CHECK(back->self_collision_particles == parsed->self_collision_particles);
  CHECK(test::compile(*back).self_collision_particles == m.self_collision_particles);
  CHECK(sim::write_scene_xml(*back) == saved);
  for (const char* bad : {"<softbody box=\"1 1 1\" self_collision=\"maybe\"/>", "<self_collision first=\"0\" count=\"9\"/>",
                          "<cloth size=\"1 1\" segments=\"1 1\" self_collision=\"yes please\"/>",
                          "<rope start=\"0 0 0\" end=\"1 0 0\" segments=\"2\" self_collision=\"1.5\"/>"}) {
    auto r = sim::parse_scene_xml(std::string("<scene>\n<particle pos=\"0 0 0\" mass=\"1\"/>\n") + bad + "\n</scene>\n", "bad.xml");
    INFO(bad);
    REQUIRE_FALSE(r.ok());
    CHECK(r.error().find("bad.xml:3") != std::string::npos);
  }
}
