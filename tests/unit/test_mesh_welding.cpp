// Welding a mesh file's vertices by position (sdf/mesh_io.hpp weld_vertices), so that a
// closed surface read from STL is closed by index. STL gives every facet its own normal, and
// Assimp's vertex joining keeps vertices whose normals differ apart: before 29 Nov a closed STL
// part read with ~3 vertices per triangle, `coulomb bake` made it an unsigned field (no inside)
// and `coulomb tetmesh` refused it as open. Oracles: a cube written as a binary STL reads as the
// cube (8 vertices, 12 triangles, watertight, volume a³), it tetrahedralises to that volume, and
// collapsed triangles go with their texture corners, near-duplicates (1e-20 against 0) within the
// tolerance are one vertex; every one of the Allegro hand's STL parts reads watertight.
#include <catch2/catch.hpp>

#include <array>
#include <cstdint>
#include <filesystem>
#include <fstream>

#include "sdf/mesh_io.hpp"
#include "sim/sdf.hpp"
#include "sim/tet_mesh_generate.hpp"
#include "support/shared_robots.hpp"

using sim::Real;
using sim::Vec3;

namespace {

// Signed volume of a triangle surface (divergence theorem): a³ for an outward cube.
Real enclosed_volume(const sim::TriangleMesh& m) {
  Real v = 0;
  for (const auto& t : m.triangles) v += m.vertices[t[0]].dot(m.vertices[t[1]].cross(m.vertices[t[2]])) / 6;
  return v;
}

// A binary STL of `mesh`: every facet with its own three vertices and its face normal.
void write_binary_stl(const sim::TriangleMesh& mesh, const std::filesystem::path& path) {
  std::ofstream out(path, std::ios::binary);
  const char header[80] = "coulomb test cube";
  out.write(header, 80);
  const std::uint32_t count = static_cast<std::uint32_t>(mesh.triangles.size());
  out.write(reinterpret_cast<const char*>(&count), 4);
  for (const auto& t : mesh.triangles) {
    const Vec3 a = mesh.vertices[t[0]], b = mesh.vertices[t[1]], c = mesh.vertices[t[2]];
    const Vec3 n = (b - a).cross(c - a).normalized();
    for (const Vec3& v : {n, a, b, c})
      for (int k = 0; k < 3; ++k) {
        const float f = static_cast<float>(v[k]);
        out.write(reinterpret_cast<const char*>(&f), 4);
      }
    const std::uint16_t attributes = 0;
    out.write(reinterpret_cast<const char*>(&attributes), 2);
  }
}

}  // namespace

TEST_CASE("a closed surface read from a binary STL is closed by index: its bake is signed and it tetrahedralises",
          "[unit][sdf][tetmesh]") {
  const Real a = 0.25;
  const std::filesystem::path dir = std::filesystem::temp_directory_path() / "coulomb_test_mesh_welding";
  std::filesystem::create_directories(dir);
  const std::filesystem::path path = dir / "cube.stl";
  write_binary_stl(sim::make_box_mesh(Vec3::Constant(a / 2)), path);
  auto mesh = sim::load_triangle_mesh(path.string());
  REQUIRE(mesh.ok());
  CHECK(mesh->vertices.size() == 8u);
  CHECK(mesh->triangles.size() == 12u);
  const sim::MeshDiagnostics d = sim::check_mesh(*mesh);
  CHECK(d.boundary_edges == 0);
  CHECK(d.watertight());
  CHECK(enclosed_volume(*mesh) == Approx(a * a * a).epsilon(1e-6));
  CHECK(sim::check_closed_surface(*mesh).empty());
  // Baked signed: the centre is a/2 deep (negative), a point a/4 outside a face is a/4 out.
  sim::SdfBakeOptions bake;
  bake.use_cache = false;
  bake.resolution = 32;
  sim::SdfBakeReport report;
  auto grid = sim::bake_sdf(*mesh, bake, &report);
  REQUIRE(grid.ok());
  CHECK(report.signed_field);
  const Real voxel = a / 32;
  CHECK((*grid)->sample(Vec3::Zero()) == Approx(-a / 2).margin(voxel));
  CHECK((*grid)->sample(Vec3(a / 2 + a / 16, 0, 0)) == Approx(a / 16).margin(voxel));
  sim::TetGenOptions options;
  options.max_volume = a * a * a / 50;
  auto tets = sim::tetrahedralize_surface(*mesh, options, path.string());
  INFO((tets.ok() ? std::string() : tets.error()));
  REQUIRE(tets.ok());
  Real volume = 0;
  for (const auto& t : tets->tets) {
    const Vec3& p0 = tets->points[t[0]];
    volume += std::abs((tets->points[t[1]] - p0).dot((tets->points[t[2]] - p0).cross(tets->points[t[3]] - p0))) / 6;
  }
  CHECK(volume == Approx(a * a * a).epsilon(1e-9));
  std::filesystem::remove_all(dir);
}

TEST_CASE("welding merges positions within the tolerance and drops collapsed triangles with their texture corners",
          "[unit][sdf]") {
  // Two triangles sharing an edge through duplicated vertices, a sliver whose two corners are
  // copies of one point (it collapses), a triangle with a corner written 1e-20 off the origin (a
  // CAD export's 0 against 1e-20) and one at −0 (the same position as +0), and a triangle with a
  // corner 1e-6 off the origin (a real feature at this size, kept apart).
  auto make = [] {
    sim::TriangleMesh m;
    m.vertices = {Vec3(0, 0, 0), Vec3(1, 0, 0),      Vec3(0, 1, 0), Vec3(1, 0, 0), Vec3(1, 1, 0),    Vec3(0, 1, 0),
                  Vec3(2, 0, 0), Vec3(2, 0, 0),      Vec3(3, 0, 0), Vec3(1e-20, 0, 0), Vec3(0, 0, 1e-6), Vec3(1, 1, -0.0)};
    m.triangles = {{0, 1, 2}, {3, 4, 5}, {6, 7, 8}, {9, 8, 11}, {10, 1, 2}};
    for (int c = 0; c < 15; ++c) m.corner_uvs.emplace_back(Real(c), Real(-c));
    return m;
  };
  sim::TriangleMesh m = make();
  const Real tolerance = sim::weld_tolerance(m);
  CHECK(tolerance == Approx(3e-9));  // 1e-9 of the 3 m extent
  CHECK(sim::weld_vertices(m, tolerance) == 5);
  REQUIRE(m.vertices.size() == 7u);
  REQUIRE(m.triangles.size() == 4u);
  CHECK(m.triangles[0] == std::array<int, 3>{0, 1, 2});
  CHECK(m.triangles[1] == std::array<int, 3>{1, 3, 2});  // the shared edge now shares indices
  CHECK(m.triangles[2] == std::array<int, 3>{0, 5, 3});  // 1e-20 is the origin, −0 is +0
  CHECK(m.triangles[3] == std::array<int, 3>{6, 1, 2});  // 1e-6 off: its own vertex
  REQUIRE(m.corner_uvs.size() == 12u);
  CHECK(m.corner_uvs[3].x() == 3);    // the second triangle's corners unchanged
  CHECK(m.corner_uvs[6].x() == 9);    // the later triangles' corners moved up past the sliver's
  CHECK(m.corner_uvs[11].y() == -14);
  // Exact (the robot importer's): 1e-20 stays apart, −0 and +0 are still one position.
  sim::TriangleMesh e = make();
  CHECK(sim::weld_vertices(e, 0) == 4);
  CHECK(e.vertices.size() == 8u);
  CHECK(e.triangles.size() == 4u);
  CHECK(e.triangles[2] == std::array<int, 3>{6, 5, 3});
}

TEST_CASE("every STL part of the Allegro hand reads watertight", "[unit][sdf][robot]") {
  if (!test::shared_robots_available()) {
    WARN("skipped: " << test::shared_robots_dir().string() << " is absent (the shared robot descriptions)");
    return;
  }
  const std::filesystem::path dir = test::shared_robots_dir() / "allegro_hand_description" / "meshes";
  int parts = 0, watertight = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    if (entry.path().extension() != ".STL") continue;
    auto mesh = sim::load_triangle_mesh(entry.path().string());
    REQUIRE(mesh.ok());
    ++parts;
    const sim::MeshDiagnostics d = sim::check_mesh(*mesh);
    INFO(entry.path().filename().string() << ": " << mesh->vertices.size() << " vertices, " << mesh->triangles.size()
                                          << " triangles, " << d.boundary_edges << " boundary edges");
    // A closed triangle surface has V = T/2 + 2(1 − g) vertices; unwelded STL had ~3T/2.
    CHECK(static_cast<Real>(mesh->vertices.size()) < 0.6 * static_cast<Real>(mesh->triangles.size()));
    if (d.watertight()) {
      ++watertight;
      CHECK(enclosed_volume(*mesh) > 0);
    }
  }
  std::printf("Allegro STL parts: %d read, %d watertight after welding\n", parts, watertight);
  CHECK(parts >= 10);
  CHECK(watertight == parts);  // solid parts from CAD: every one closed (4 of 14 before the tolerance)
}
