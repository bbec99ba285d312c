// Mesh import isolated from Assimp's failures (io/assimp_mesh_read.hpp): the fuzzing reproducers
// of issue 13 (tests/data/bad-inputs/) that hung, aborted, crashed or allocated 6 GB inside
// Assimp are errors naming the file and what happened, through both loaders (the SDF baker's
// load_triangle_mesh and the robot importers' load_mesh_file); special files are refused before
// Assimp opens them; a good file still loads the same through the child process.
#include <catch2/catch.hpp>

#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include "support/sanitizer.hpp"
#include "io/assimp_mesh_read.hpp"
#include "io/mesh_import.hpp"
#include "sdf/mesh_io.hpp"
#include "sim/sdf.hpp"
#include "support/scratch_files.hpp"

namespace {

const std::string kBad = std::string(COULOMB_SOURCE_DIR) + "/tests/data/bad-inputs/";

// The error of both loaders for `file`; each must fail and name the file.
std::string both_fail(const std::string& file) {
  const std::string path = kBad + file;
  auto baked = sim::load_triangle_mesh(path);
  REQUIRE_FALSE(baked.ok());
  CHECK(baked.error().rfind(path + ": ", 0) == 0);
  auto robot = sim::io::load_mesh_file(path, sim::Vec3::Ones());
  REQUIRE_FALSE(robot.ok());
  CHECK(robot.error().rfind(path + ": ", 0) == 0);
  return baked.error();
}

}  // namespace

TEST_CASE("Assimp's crash, abort, hang and runaway allocation on bad files are errors naming the file",
          "[unit][sdf][bad-inputs]") {
  SECTION("PLY: segmentation fault inside Assimp") {
    const std::string e = both_fail("assimp_ply_segv.ply");
    INFO(e);
    CHECK(e.find("the mesh importer (Assimp) crashed (SIGSEGV") != std::string::npos);
  }
  SECTION("PLY: Assimp's assertion (abort) in triangulation") {
    const std::string e = both_fail("assimp_ply_abort.ply");
    INFO(e);
    CHECK(e.find("the mesh importer (Assimp) crashed (SIGABRT") != std::string::npos);
    CHECK(e.find("ai_assert failure") != std::string::npos);  // Assimp's own message, from the child's stderr
  }
  SECTION("PLY without end_header: Assimp spins, the child is killed") {
    const std::string e = both_fail("assimp_ply_hang.ply");
    INFO(e);
    CHECK(e.find("did not finish within 5 s (killed)") != std::string::npos);
  }
  SECTION("DAE with an index of 1e-308: the runaway allocation is stopped (address-space limit or deadline)") {
    const std::string e = both_fail("assimp_dae_index_1e-308_6GB.dae");
    INFO(e);
    // Here Assimp keeps going inside the 1 GB allowance until the deadline; where its allocation
    // fails first, the error says out of memory.
    // Under AddressSanitizer the failed allocation aborts the child (SIGABRT) instead of throwing.
    const bool stopped = e.find("did not finish within 5 s (killed)") != std::string::npos ||
                         e.find("out of memory") != std::string::npos || e.find("bad_alloc") != std::string::npos ||
                         (test::kAddressSanitizer && e.find("SIGABRT") != std::string::npos);
    CHECK(stopped);
  }
}

TEST_CASE("special files and directories are refused before Assimp opens them", "[unit][sdf][bad-inputs]") {
  const std::filesystem::path dir = test::scratch_dir("mesh_special_files");
  const std::string fifo = (dir / "mesh.stl").string();
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);  // opening it for reading would block forever
  auto f = sim::load_triangle_mesh(fifo);
  REQUIRE_FALSE(f.ok());
  CHECK(f.error() == fifo + ": cannot read mesh: not a regular file");
  auto d = sim::io::load_mesh_file(dir.string(), sim::Vec3::Ones());
  REQUIRE_FALSE(d.ok());
  CHECK(d.error() == dir.string() + ": cannot read mesh: not a regular file");
}

TEST_CASE("a mesh read through the child process keeps its vertices, triangles and corner UVs", "[unit][sdf]") {
  // Two triangles sharing an edge, with UVs: welded by the robot loader (4 vertices), kept per
  // file vertex by the baker's loader; UVs per corner in both.
  const std::filesystem::path dir = test::scratch_dir("mesh_child_roundtrip");
  const std::string obj = (dir / "quad.obj").string();
  test::write_file(obj,
                   "v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\n"
                   "vt 0 0\nvt 1 0\nvt 1 1\nvt 0 1\n"
                   "f 1/1 2/2 3/3\nf 1/1 3/3 4/4\n");
  auto robot = sim::io::load_mesh_file(obj, sim::Vec3(2, 2, 2));
  REQUIRE(robot.ok());
  CHECK(robot->vertices.size() == 4u);
  REQUIRE(robot->triangles.size() == 2u);
  REQUIRE(robot->corner_uvs.size() == 6u);
  for (std::size_t t = 0; t < 2; ++t)
    for (int k = 0; k < 3; ++k) {
      // OBJ's vt equals the vertex's x, y here: each corner's UV is its position / 2 (the scale).
      const sim::Vec3 p = robot->vertices[robot->triangles[t][k]];
      CHECK(robot->corner_uvs[3 * t + k].x() == p.x() / 2);
      CHECK(robot->corner_uvs[3 * t + k].y() == p.y() / 2);
    }
  auto baked = sim::load_triangle_mesh(obj);
  REQUIRE(baked.ok());
  REQUIRE(baked->triangles.size() == 2u);
  REQUIRE(baked->corner_uvs.size() == 6u);
  for (std::size_t t = 0; t < 2; ++t)
    for (int k = 0; k < 3; ++k) {
      const sim::Vec3 p = baked->vertices[baked->triangles[t][k]];
      CHECK(baked->corner_uvs[3 * t + k].x() == p.x());
      CHECK(baked->corner_uvs[3 * t + k].y() == p.y());
    }
}

TEST_CASE("the parent decodes replies with empty arrays and refuses inconsistent ones (fuzz_mesh_reply)",
          "[unit][sdf][bad-inputs]") {
  // fuzz_mesh_reply's first finding (UBSan): a reply with no vertices or no triangles passed a
  // null pointer to memcpy for the empty array. tests/data/bad-inputs/mesh_reply_empty.bin is it.
  std::ifstream in(kBad + "mesh_reply_empty.bin", std::ios::binary);
  const std::string empty((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  REQUIRE(empty.size() == 17u);
  sim::io::AssimpMesh mesh;
  CHECK(sim::io::decode_assimp_reply(empty, 100, mesh).empty());
  CHECK(mesh.vertices.empty());
  CHECK(mesh.triangles.empty());
  auto scene_mesh = sim::triangle_mesh_from_assimp(mesh, "r");
  REQUIRE_FALSE(scene_mesh.ok());
  CHECK(scene_mesh.error() == "r: the file holds no triangles");
  // The same through a file and the child: vertices and a line, no triangle (the reply's triangle
  // array is empty). The robot loader drops lines, and Assimp then has no mesh left.
  const std::string path = kBad + "mesh_no_triangles.obj";
  auto baked = sim::load_triangle_mesh(path);
  REQUIRE_FALSE(baked.ok());
  CHECK(baked.error() == path + ": the file holds no triangles");
  auto robot = sim::io::load_mesh_file(path, sim::Vec3::Ones());
  REQUIRE_FALSE(robot.ok());
  CHECK(robot.error() == path + ": cannot read mesh: No meshes remaining");
  // A reply whose counts disagree with its length, or whose triangle names a vertex it lacks.
  std::string longer = empty;
  longer[1] = 1;  // one vertex named, no bytes for it
  CHECK(sim::io::decode_assimp_reply(longer, 100, mesh) == "the importer's reply has 17 bytes, not what its counts need");
  CHECK(sim::io::decode_assimp_reply(longer, 0, mesh) == "the importer's reply names 1 vertices and 0 triangles");
}
