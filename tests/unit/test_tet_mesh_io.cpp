// Tet-mesh readers and writer (sim/tet_mesh_io.hpp) on the cube of tests/data/tetmesh/
// (make_files.py: side 2, 6 tets, volume 8) in every format: the same mesh up to ordering, its
// volume the cube's, every tet positive, the boundary the cube's 12 triangles enclosing the same
// volume (divergence theorem); malformed files are errors naming file:line and what is wrong.
#include <catch2/catch.hpp>

#include <sys/stat.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>
#include <set>
#include <string>

#include "sim/load_limits.hpp"
#include "sim/tet_mesh_io.hpp"
#include "support/scratch_files.hpp"

namespace {

const std::string kDir = std::string(COULOMB_SOURCE_DIR) + "/tests/data/tetmesh/";

using Corner = std::array<double, 3>;
// The mesh as a set of tets, each the sorted list of its corner positions: equal for two files
// holding the same geometry whatever their node and tet order.
std::set<std::array<Corner, 4>> canonical(const sim::TetMesh& m) {
  std::set<std::array<Corner, 4>> out;
  for (const auto& t : m.tets) {
    std::array<Corner, 4> c;
    for (int k = 0; k < 4; ++k) c[k] = {m.points[t[k]].x(), m.points[t[k]].y(), m.points[t[k]].z()};
    std::sort(c.begin(), c.end());
    out.insert(c);
  }
  return out;
}

// Volume enclosed by the boundary triangles (divergence theorem): equals the tets' volume only
// when the boundary is closed and every face is counter-clockwise seen from outside.
double surface_volume(const sim::TetMesh& m) {
  double v = 0;
  for (const auto& f : m.surface)
    v += m.points[f[0]].dot(m.points[f[1]].cross(m.points[f[2]])) / 6.0;
  return v;
}

void check_cube(const sim::TetMesh& m) {
  CHECK(m.points.size() == 8);
  REQUIRE(m.tets.size() == 6);
  for (const auto& t : m.tets)
    CHECK(sim::tet_signed_volume(m.points[t[0]], m.points[t[1]], m.points[t[2]], m.points[t[3]]) > 0);
  CHECK(sim::tet_mesh_volume(m) == Approx(8.0).epsilon(1e-12));
  CHECK(m.surface.size() == 12);  // 6 square faces, 2 triangles each
  CHECK(surface_volume(m) == Approx(8.0).epsilon(1e-12));
}

std::string error_of(const std::string& file) {
  auto r = sim::read_tet_mesh(kDir + file);
  REQUIRE_FALSE(r.ok());
  return r.error();
}

}  // namespace

TEST_CASE("every tet-mesh format reads the same cube: 6 positive tets, volume 8, a closed outward boundary",
          "[unit][tetmesh]") {
  sim::TetMeshReadReport ref_report;
  auto ref = sim::read_tet_mesh(kDir + "cube_v2.msh", &ref_report);
  REQUIRE(ref.ok());
  check_cube(*ref);
  CHECK(ref_report.format == "Gmsh MSH 2.2 ASCII");
  CHECK(ref_report.skipped_elements == 3);  // a point and two triangles
  CHECK(ref_report.inverted_tets == 0);
  const auto expected = canonical(*ref);
  for (const char* file : {"cube_v2_binary.msh", "cube_v41.msh", "cube_v41_binary.msh", "cube.node", "cube.ele",
                           "cube0.ele", "cube.vtk", "cube_v51.vtk", "cube.vtu"}) {
    INFO(file);
    sim::TetMeshReadReport report;
    auto m = sim::read_tet_mesh(kDir + file, &report);
    INFO((m.ok() ? std::string() : m.error()));
    REQUIRE(m.ok());
    check_cube(*m);
    CHECK(canonical(*m) == expected);
    CHECK_FALSE(report.format.empty());
  }
}

TEST_CASE("files written by TetGen 1.5 itself read back (its VTK output's off-by-one is refused)", "[unit][tetmesh]") {
  // `tetgen -pq1.5a0.05kgQ cube.off` on cube_surface.obj's cube (side 2), Debian's tetgen 1.5.
  sim::TetMeshReadReport report;
  auto m = sim::read_tet_mesh(kDir + "tetgen_cube.1.ele", &report);
  REQUIRE(m.ok());
  CHECK(m->tets.size() == 548);
  CHECK(m->points.size() == 205);
  CHECK(report.notes.empty());  // TetGen's files list tets positively: nothing swapped
  CHECK(sim::tet_mesh_volume(*m) == Approx(8.0).epsilon(1e-12));
  CHECK(surface_volume(*m) == Approx(8.0).epsilon(1e-12));
  // Its .vtk of the same mesh numbers the points from 1 (TetGen 1.5 with a 0-based input): the
  // last point's number is out of range, and the reader says where.
  const std::string e = error_of("tetgen_cube_1based.vtk");
  CHECK(e == kDir + "tetgen_cube_1based.vtk:219: CELLS: point 205 is out of range (0..204)");
}

TEST_CASE("tet-mesh readers report what they skip and repair", "[unit][tetmesh]") {
  sim::TetMeshReadReport report;
  auto m = sim::read_tet_mesh(kDir + "cube0.node", &report);
  REQUIRE(m.ok());
  // One tet of cube0.ele is listed inverted: turned positive by a swap, and said with its line.
  CHECK(report.inverted_tets == 1);
  REQUIRE(report.notes.size() == 1);
  CHECK(report.notes[0].find("cube0.ele:4: tet 2 (element 2): inverted; 1 of 6 tets") != std::string::npos);
  sim::TetMeshReadReport v41;
  REQUIRE(sim::read_tet_mesh(kDir + "cube_v41.msh", &v41).ok());
  REQUIRE(v41.notes.size() == 1);
  CHECK(v41.notes[0] == kDir + "cube_v41.msh: skipped elements of other types: 2 3-node triangle (type 2)");
  sim::TetMeshReadReport ten;
  auto quadratic = sim::read_tet_mesh(kDir + "cube10.ele", &ten);
  REQUIRE(quadratic.ok());
  check_cube(*quadratic);
  REQUIRE(ten.notes.size() == 1);
  CHECK(ten.notes[0] == kDir + "cube10.ele:1: header: 10-node tetrahedra: their 4 corner nodes are used, the 6 edge nodes dropped");
  sim::TetMeshReadReport vtk;
  REQUIRE(sim::read_tet_mesh(kDir + "cube.vtk", &vtk).ok());
  CHECK(vtk.skipped_elements == 1);
}

TEST_CASE("malformed tet-mesh files are errors naming file:line and what is wrong", "[unit][tetmesh][bad-inputs]") {
  const std::pair<const char*, const char*> cases[] = {
      {"bad_truncated.msh",
       "bad_truncated.msh:19: $Elements: element count 9 cannot fit in the 29 bytes left in the file (truncated or corrupt)"},
      {"bad_truncated_tail.msh", "bad_truncated_tail.msh:28: $Elements: unexpected end of file (truncated?)"},
      {"bad_index.msh", "bad_index.msh:28: $Elements: element 9: node tag 990 is not in $Nodes"},
      {"bad_nan.msh", "bad_nan.msh:14: $Nodes: y = nan is not finite"},
      {"bad_huge_count.msh", "bad_huge_count.msh:8: $Nodes: node count 1000000000000 is above the limit of 16777216"},
      {"bad_triangles_only.msh",
       "bad_triangles_only.msh:18: $Elements: no tetrahedra (element type 4) in the file; it has 2 3-node triangle (type 2)"},
      {"bad_degenerate.msh", "bad_degenerate.msh:23: tet 0 (element 4): degenerate (volume 0 m^3, its nodes are coplanar)"},
      {"bad_v4_block_count.msh", "bad_v4_block_count.msh:32: $Elements: numElementsInBlock 7 is above the limit of 6"},
      {"bad_index.ele", "bad_index.ele:5: tetrahedron: node 9 is not in bad_index.node"},
      {"bad_nan.ele", "bad_nan.node:7: node: y = inf is not finite"},
      {"bad_truncated.vtk",
       "bad_truncated.vtk:14: CELLS: cell count 7 cannot fit in the 23 bytes left in the file (truncated or corrupt)"},
      {"bad_huge_count.vtk", "bad_huge_count.vtk:5: POINTS: point count 99999999 is above the limit of 16777216"},
      {"bad_index.vtk", "bad_index.vtk:18: CELLS: point 8 is out of range (0..7)"},
      // Binary data counts as one line: errors in it name the section's line and the byte.
      {"bad_truncated_binary.msh",
       "bad_truncated_binary.msh:8: $Elements: numElementsInBlock 6 at byte 504 cannot fit in the 230 bytes left in the file "
       "(truncated or corrupt)"},
      {"bad_nan_binary.msh", "bad_nan_binary.msh:6: $Nodes: binary node x coordinate is not finite (nan) at byte 53"},
      {"bad_index.vtu", "bad_index.vtu:24: connectivity: point 9 is out of range (0..7)"},
      {"bad_binary_array.vtu", "bad_binary_array.vtu:29: <DataArray>: format 'binary' is not read (only format=\"ascii\" "
                               "is; binary, appended and compressed arrays are not)"},
      {"bad_triangles_only.vtk", "bad_triangles_only.vtk:17: no tetrahedra (cell type 10) in the file; it has 2 of type 5"},
  };
  for (const auto& [file, expected] : cases) {
    const std::string e = error_of(file);
    INFO(e);
    CHECK(e == kDir + expected);
  }
}

TEST_CASE("tet-mesh counts are checked against the bytes the file has left, and special files are refused",
          "[unit][tetmesh][bad-inputs]") {
  const auto dir = test::scratch_dir("tetmesh_limits");
  // A node count within the documented bound that the file cannot hold: refused before allocating.
  test::write_file(dir / "short.msh", "$MeshFormat\n2.2 0 8\n$EndMeshFormat\n$Nodes\n1000000\n1 0 0 0\n$EndNodes\n");
  auto r = sim::read_tet_mesh((dir / "short.msh").string());
  REQUIRE_FALSE(r.ok());
  CHECK(r.error() == (dir / "short.msh").string() +
                         ":5: $Nodes: node count 1000000 cannot fit in the 19 bytes left in the file (truncated or corrupt)");
  // Binary: a block's element count beyond the bytes left.
  REQUIRE(::mkfifo((dir / "fifo.msh").c_str(), 0600) == 0);
  auto f = sim::read_tet_mesh((dir / "fifo.msh").string());
  REQUIRE_FALSE(f.ok());
  CHECK(f.error() == (dir / "fifo.msh").string() + ": cannot read (not a regular file)");
  auto u = sim::read_tet_mesh((dir / "cube.obj").string());
  REQUIRE_FALSE(u.ok());
  CHECK(u.error().find("not a tet mesh file") != std::string::npos);
}

TEST_CASE("the .msh writer's output reads back as the same mesh", "[unit][tetmesh]") {
  auto m = sim::read_tet_mesh(kDir + "cube0.node");
  REQUIRE(m.ok());
  // Coordinates that need all 17 digits.
  for (auto& p : m->points) p = p * (1.0 / 3.0) + sim::Vec3(0.1, -1e-7, 12345.678901234567);
  const auto dir = test::scratch_dir("tetmesh_write");
  const std::string out = (dir / "cube.msh").string();
  REQUIRE(sim::write_gmsh_msh(*m, out).empty());
  auto back = sim::read_tet_mesh(out);
  REQUIRE(back.ok());
  CHECK(back->points == m->points);
  CHECK(back->tets == m->tets);
  CHECK(back->surface == m->surface);
  // A write into a folder that does not exist fails with a message and leaves nothing.
  CHECK_FALSE(sim::write_gmsh_msh(*m, (dir / "no" / "such.msh").string()).empty());
}

TEST_CASE("tet-mesh reader throughput on a 50k-tet file", "[unit][tetmesh]") {
  // A 20 x 20 x 25 grid of cubes, 6 Kuhn tets each: 60,000 tets, written by the writer.
  sim::TetMesh m;
  const int nx = 20, ny = 20, nz = 25;
  auto id = [&](int i, int j, int k) { return static_cast<std::int32_t>((k * (ny + 1) + j) * (nx + 1) + i); };
  for (int k = 0; k <= nz; ++k)
    for (int j = 0; j <= ny; ++j)
      for (int i = 0; i <= nx; ++i) m.points.push_back(sim::Vec3(0.1 * i, 0.1 * j, 0.1 * k));
  for (int k = 0; k < nz; ++k)
    for (int j = 0; j < ny; ++j)
      for (int i = 0; i < nx; ++i) {
        std::int32_t c[8];
        for (int b = 0; b < 8; ++b) c[b] = id(i + (b & 1), j + ((b >> 1) & 1), k + ((b >> 2) & 1));
        const int kuhn[6][4] = {{0, 1, 3, 7}, {0, 1, 7, 5}, {0, 2, 7, 3}, {0, 2, 6, 7}, {0, 4, 5, 7}, {0, 4, 7, 6}};
        for (const auto& t : kuhn) m.tets.push_back({c[t[0]], c[t[1]], c[t[2]], c[t[3]]});
      }
  REQUIRE(sim::compute_tet_mesh_boundary(m).empty());
  const auto dir = test::scratch_dir("tetmesh_throughput");
  const std::string out = (dir / "grid.msh").string();
  REQUIRE(sim::write_gmsh_msh(m, out).empty());
  const auto t0 = std::chrono::steady_clock::now();
  auto back = sim::read_tet_mesh(out);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  REQUIRE(back.ok());
  CHECK(back->tets.size() == 60000);
  CHECK(back->tets == m.tets);  // all positive already: nothing swapped
  CHECK(sim::tet_mesh_volume(*back) == Approx(2.0 * 2.0 * 2.5).epsilon(1e-9));
  CHECK(back->surface.size() == 2 * 2 * (20 * 20 + 20 * 25 + 20 * 25));
  WARN("read a 60,000-tet .msh (" << back->points.size() << " nodes) in " << seconds * 1e3 << " ms");
}
