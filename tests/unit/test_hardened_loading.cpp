// Hardened loading (issue 13): the reproducers of tests/data/bad-inputs/ (README there) and the
// bounds of sim/load_limits.hpp (docs/LIMITS.md). Each input is refused with an error naming the
// file and line or byte offset, before anything large is allocated; references outside the
// referencing file's folder tree are refused unless a package root or the policy allows them;
// a non-finite state or control never reaches collision detection.
#include <catch2/catch.hpp>

#include <sys/stat.h>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <string>

#include "collision/collide.hpp"
#include "sdf/sdf_band_estimate.hpp"
#include "sim/compile.hpp"
#include "sim/load_limits.hpp"
#include "sim/recording.hpp"
#include "sim/resource_policy.hpp"
#include "sim/scene_io.hpp"
#include "sim/state.hpp"
#include "sim/step.hpp"
#include "support/parse_checks.hpp"
#include "support/scene_builders.hpp"
#include "support/scratch_files.hpp"

namespace {

namespace fs = std::filesystem;
using sim::Real;

std::string bad_input(const std::string& name) {
  return (fs::path(COULOMB_SOURCE_DIR) / "tests" / "data" / "bad-inputs" / name).string();
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

}  // namespace

TEST_CASE("hardened loading: a recording's step count is checked against its bound and the bytes left",
          "[unit][io][limits]") {
  const std::string path = bad_input("rec_steps_2e28_badalloc.rec");
  const auto r = sim::load_recording(path);
  REQUIRE_FALSE(r.ok());
  INFO(r.error());
  CHECK(r.error().rfind(path + ": truncated or corrupt recording (steps: a step count of 268435456 at byte ", 0) == 0);
  // 2^28 is above the bound 2^24, and the reason says so.
  CHECK(contains(r.error(), "(at most 16777216)"));
}

TEST_CASE("hardened loading: a recorded vector's length is checked before it is allocated", "[unit][io][limits]") {
  // The reproducer's 2^28-element vector is a control's: its one step cannot fit in the 24 bytes
  // after the step count (a step holds at least four 8-byte lengths), refused before reading it.
  const std::string path = bad_input("rec_vector_2e28_badalloc.rec");
  const auto r = sim::load_recording(path);
  REQUIRE_FALSE(r.ok());
  INFO(r.error());
  CHECK(r.error() == path + ": truncated or corrupt recording (steps: a step count of 1 at byte 189 does not fit in "
                            "the 24 bytes left)");

  // A length within the bound but longer than the file: refused by the bytes left.
  const auto dir = test::scratch_dir("hardened_recording");
  sim::SceneSpec spec;
  spec.world_shapes.push_back(test::ground_plane());
  test::add_body(spec, "box", sim::Vec3(0, 0, 1), 1, test::box_shape(sim::Vec3(0.1, 0.1, 0.1)));
  const sim::Model model = test::compile(spec);
  sim::Recording rec;
  rec.begin("scene.xml", model, model.solver, sim::make_initial_state(model));
  rec.controls.push_back(sim::make_initial_control(model));
  const std::string good = (dir / "good.rec").string();
  REQUIRE(sim::save_recording(rec, good).ok());
  REQUIRE(sim::load_recording(good).ok());
  std::string bytes;
  {
    std::ifstream in(good, std::ios::binary);
    bytes.assign(std::istreambuf_iterator<char>(in), {});
  }
  // The first vector (q, 7 reals) follows the model counts; its length field is the 8 bytes
  // before q's first coordinate. Find it by its value.
  const std::uint64_t seven = 7;
  const auto at = bytes.find(std::string(reinterpret_cast<const char*>(&seven), 8));
  REQUIRE(at != std::string::npos);
  const std::uint64_t long_count = std::uint64_t(1) << 20;  // 8 MiB of reals, within 2^26, past the end
  bytes.replace(at, 8, std::string(reinterpret_cast<const char*>(&long_count), 8));
  const std::string damaged = (dir / "damaged.rec").string();
  test::write_file(damaged, bytes);
  const auto d = sim::load_recording(damaged);
  REQUIRE_FALSE(d.ok());
  INFO(d.error());
  CHECK(contains(d.error(), "(initial state: a vector of 1048576 elements at byte " + std::to_string(at) +
                                " runs past the end"));
  // Above the bound itself (2^28 > 2^26): refused by the bound, whatever the file's length.
  const std::uint64_t huge = std::uint64_t(1) << 28;
  bytes.replace(at, 8, std::string(reinterpret_cast<const char*>(&huge), 8));
  test::write_file(damaged, bytes);
  const auto h = sim::load_recording(damaged);
  REQUIRE_FALSE(h.ok());
  INFO(h.error());
  CHECK(contains(h.error(), "(initial state: a vector of 268435456 elements at byte " + std::to_string(at) +
                                " (at most 67108864))"));
}

TEST_CASE("hardened loading: a recording with a NaN initial state is refused, naming the entry",
          "[unit][io][limits][nonfinite]") {
  const std::string path = bad_input("asan_oob_face_contacts_workcell.rec");
  const auto r = sim::load_recording(path);
  REQUIRE_FALSE(r.ok());
  INFO(r.error());
  CHECK(r.error().rfind(path + ": the recorded initial state is not finite (q[", 0) == 0);
  CHECK(contains(r.error(), "] = nan)"));
}

TEST_CASE("hardened loading: substeps and iteration caps are bounded in files, --set and compile",
          "[unit][io][limits]") {
  const std::string path = bad_input("substeps_2e9.xml");
  test::check_error(sim::load_scene_file(path), path, 2, "solver",
                    "solver option 'substeps': bad value '2000000000' (expected an integer in 1..1000)");
  sim::SolverOptions o;
  CHECK(sim::set_solver_option(o, "substeps", "1000").empty());
  CHECK(o.substeps == 1000);
  CHECK_FALSE(sim::set_solver_option(o, "substeps", "1001").empty());
  CHECK_FALSE(sim::set_solver_option(o, "newton_iterations", "100001").empty());
  CHECK(sim::set_solver_option(o, "newton_iterations", "100000").empty());
  // Set in code (an edit): compile refuses it.
  sim::SceneSpec spec;
  spec.world_shapes.push_back(test::ground_plane());
  spec.solver.substeps = 2000000000;
  const auto m = sim::compile_model(spec);
  REQUIRE_FALSE(m.ok());
  CHECK(contains(m.error(), "<solver>: solver option 'substeps' = 2000000000 is out of range (1..1000)"));
}

TEST_CASE("hardened loading: an SDF band of 1e9 voxels is refused at its attribute and at compile",
          "[unit][io][limits][sdf]") {
  const std::string path = bad_input("sdf_band_1e9.xml");
  test::check_error(sim::load_scene_file(path), path, 3, "mesh", "attribute 'sdf_band': must be at most 256 voxels");
  // A spec built in code: compile checks the grid before the bake starts.
  sim::TriangleMesh tetra{{sim::Vec3(0, 0, 0), sim::Vec3(1, 0, 0), sim::Vec3(0, 1, 0), sim::Vec3(0, 0, 1)},
                          {{0, 2, 1}, {0, 1, 3}, {0, 3, 2}, {1, 2, 3}},
                          {}};
  sim::SceneSpec spec;
  spec.world_shapes.push_back(test::ground_plane());
  test::add_body(spec, "t", sim::Vec3(0, 0, 1), 1, test::mesh_shape(tetra));
  spec.bodies[0].shapes[0].sdf_band = 1e9;
  auto m = sim::compile_model(spec);
  REQUIRE_FALSE(m.ok());
  CHECK(contains(m.error(), "sdf_band 1e+09 voxels is above the limit of 256"));
  // A voxel of 0.1 mm on a 1 m mesh: 10,000 voxels along it, above 2,048.
  spec.bodies[0].shapes[0].sdf_band = 3;
  spec.bodies[0].shapes[0].sdf_voxel_size = 1e-4;
  m = sim::compile_model(spec);
  REQUIRE_FALSE(m.ok());
  CHECK(contains(m.error(), "gives 10000 voxels along the mesh's 1 m extent (at most 2048)"));
}

TEST_CASE("hardened loading: an SDF band whose voxels, estimated from the mesh's area, exceed the bound is refused",
          "[unit][io][limits][sdf]") {
  // sdf_grid_band_100.xml: a 4-triangle tetrahedron of 1 m with sdf_band 100 at the default
  // spacing (1/64 m). Its grid box (18.6 M voxels) is within 2^30, but the bake took 13 s.
  const Real area = Real(1.5) + std::sqrt(Real(3)) / 2, voxel = Real(1) / 64, band = 100;
  const sim::TriangleMesh tetra{{sim::Vec3(0, 0, 0), sim::Vec3(1, 0, 0), sim::Vec3(0, 1, 0), sim::Vec3(0, 0, 1)},
                                {{0, 2, 1}, {0, 1, 3}, {0, 3, 2}, {1, 2, 3}},
                                {}};
  // The estimate: both sides of the surface (2 area / voxel^2 x band) plus the ball of radius band.
  const double expected = 2 * area / (voxel * voxel) * band + 4.0 / 3.0 * M_PI * band * band * band;
  CHECK(sim::estimate_sdf_band_voxels(tetra.vertices, tetra.triangles, voxel, band) == Approx(expected).epsilon(1e-12));
  REQUIRE(expected > sim::limits::kMaxSdfBandVoxels);
  const std::string path = bad_input("sdf_grid_band_100.xml");
  const auto spec = sim::load_scene_file(path);  // within the attribute's own bound (256)
  REQUIRE(spec.ok());
  const auto m = sim::compile_model(spec.value());
  REQUIRE_FALSE(m.ok());
  INFO(m.error());
  CHECK(m.error().rfind(path + ":3: <mesh>: an SDF band of 100 voxels (sdf_band 100, spacing 0.01562 m) would hold about "
                        "6.127e+06 voxels around this mesh (at most 4.194e+06): lower sdf_band or raise sdf_voxel", 0) == 0);
  // bake_sdf (coulomb bake, the app's baker) refuses it before OpenVDB runs, too.
  sim::SdfBakeOptions o;
  o.use_cache = false;
  o.band = band;
  const auto baked = sim::bake_sdf(tetra, o);
  REQUIRE_FALSE(baked.ok());
  CHECK(contains(baked.error(), "sdf: a band of 100 voxels at 0.015625 m would hold about 6127038 voxels"));
  // The estimate against OpenVDB's own count on a band it bakes quickly (20 voxels, interior not
  // filled): the same order, so the bound means what it says.
  o.band = 20;
  o.fill_interior = false;
  sim::SdfBakeReport report;
  REQUIRE(sim::bake_sdf(tetra, o, &report).ok());
  const double estimate = sim::estimate_sdf_band_voxels(tetra.vertices, tetra.triangles, voxel, 20);
  INFO("band 20: " << report.active_voxels << " active voxels, estimated " << estimate);
  CHECK(double(report.active_voxels) > 0.5 * estimate);
  CHECK(double(report.active_voxels) < 3 * estimate);
  // The 256^3 SDF of the [sdf_bench] benchmark (a 20k-triangle sphere, band 3): ~1.1 M, within half the bound.
  const sim::TriangleMesh sphere = sim::make_sphere_mesh(0.5, 5);
  CHECK(sim::estimate_sdf_band_voxels(sphere.vertices, sphere.triangles, Real(1.04) / 256, 3) <
        sim::limits::kMaxSdfBandVoxels / 2);
  // Its filled interior: the sphere's volume over voxel³, (π/6) 256³ / 1.04³ ≈ 7.8e6, within 2^24.
  const double sphere_interior = sim::estimate_sdf_interior_voxels(sphere.vertices, sphere.triangles, Real(1.04) / 256);
  CHECK(sphere_interior == Approx(M_PI / 6 * std::pow(256 / 1.04, 3)).epsilon(0.01));
  CHECK(sphere_interior < sim::limits::kMaxSdfInteriorVoxels);
}

TEST_CASE("hardened loading: a filled SDF interior is bounded before the bake", "[unit][io][limits][sdf]") {
  // A closed 10 m cube at 330 voxels a side: its band (3 voxels, ~3.9e6 estimated) and its box
  // pass their bounds, but all 3.6e7 voxels inside would be filled (OpenVDB: over a minute and
  // GBs here). Refused before baking, by the scene's compile (with the line) and by bake_sdf;
  // without filling (--no-fill) the interior does not count.
  const sim::TriangleMesh cube = sim::make_box_mesh(sim::Vec3(5, 5, 5));
  const Real voxel = Real(10) / 330;
  const double inside = sim::estimate_sdf_interior_voxels(cube.vertices, cube.triangles, voxel);
  CHECK(inside == Approx(330.0 * 330 * 330).epsilon(1e-9));
  CHECK(sim::estimate_sdf_band_voxels(cube.vertices, cube.triangles, voxel, 3) < sim::limits::kMaxSdfBandVoxels);
  sim::SdfBakeOptions o;
  o.use_cache = false;
  o.voxel_size = voxel;
  o.band = 3;
  const auto baked = sim::bake_sdf(cube, o);
  REQUIRE_FALSE(baked.ok());
  CHECK(contains(baked.error(), "sdf: the filled interior at 0.030303 m would hold about 35937000 voxels (at most 16777216)"));
  const auto dir = test::scratch_dir("hardened_sdf_interior");
  test::write_file(dir / "cube.xml", "<scene>\n<body name=\"block\" pos=\"0 0 10\">\n"
                                     "  <mesh sdf_voxel=\"0.030303\" vertices=\"-5 -5 -5  5 -5 -5  5 5 -5  -5 5 -5  "
                                     "-5 -5 5  5 -5 5  5 5 5  -5 5 5\" triangles=\"0 2 1  0 3 2  4 5 6  4 6 7  "
                                     "0 1 5  0 5 4  1 2 6  1 6 5  2 3 7  2 7 6  3 0 4  3 4 7\"/>\n</body>\n</scene>\n");
  const std::string path = (dir / "cube.xml").string();
  const auto spec = sim::load_scene_file(path);
  INFO((spec.ok() ? std::string() : spec.error()));
  REQUIRE(spec.ok());
  const auto m = sim::compile_model(spec.value());
  REQUIRE_FALSE(m.ok());
  INFO(m.error());
  CHECK(m.error().rfind(path + ":3: <mesh>: the SDF's filled interior would hold about 3.594e+07 voxels", 0) == 0);
}

TEST_CASE("hardened loading: special files are refused before open, a FIFO without blocking",
          "[unit][io][limits]") {
  // /dev/zero: not a regular file (checked before containment, and whatever the policy).
  const std::string zero = bad_input("include_dev_zero.xml");
  for (const bool allow_outside : {false, true}) {
    const sim::ScopedResourcePolicy policy({allow_outside, {}});
    test::check_error(sim::load_scene_file(zero), zero, 2, "include",
                      "attribute 'file': cannot read '/dev/zero' (not a regular file)");
  }
  // A FIFO beside the scene: nobody writes to it, so an open() without O_NONBLOCK would block.
  const auto dir = test::scratch_dir("hardened_fifo");
  test::write_file(dir / "include_fifo.xml", "<scene>\n  <include file=\"fifo.xml\"/>\n</scene>\n");
  REQUIRE(::mkfifo((dir / "fifo.xml").c_str(), 0600) == 0);
  const std::string scene = (dir / "include_fifo.xml").string();
  test::check_error(sim::load_scene_file(scene), scene, 2, "include", "(not a regular file)");
  // The top-level file itself, too.
  const auto direct = sim::load_scene_file((dir / "fifo.xml").string());
  REQUIRE_FALSE(direct.ok());
  CHECK(contains(direct.error(), "not a regular file"));
  const auto rec = sim::load_recording((dir / "fifo.xml").string());
  REQUIRE_FALSE(rec.ok());
  CHECK(contains(rec.error(), "not a regular file"));
}

TEST_CASE("hardened loading: includes are bounded in number as well as depth", "[unit][io][limits]") {
  // a.xml includes b.xml twice, b.xml includes c.xml twice, ...: 2 + 4 + ... includes.
  const auto dir = test::scratch_dir("hardened_include_count");
  const int levels = 11;  // 2^11 - 2 = 2046 includes > 1024
  for (int k = 0; k < levels; ++k) {
    const std::string next = "l" + std::to_string(k + 1) + ".xml";
    const std::string body = k + 1 < levels ? "  <include file=\"" + next + "\"/>\n  <include file=\"" + next + "\"/>\n" : "";
    test::write_file(dir / ("l" + std::to_string(k) + ".xml"), "<scene>\n" + body + "</scene>\n");
  }
  const auto r = sim::load_scene_file((dir / "l0.xml").string());
  REQUIRE_FALSE(r.ok());
  INFO(r.error());
  CHECK(contains(r.error(), ": <include>: more than 1024 includes in one scene"));
}

TEST_CASE("hardened loading: a glTF's buffer uri out of its folder is refused before Assimp reads it",
          "[unit][io][containment]") {
  const std::string scene = bad_input("exfil_scene.xml");
  const auto r = sim::load_scene_file(scene);
  REQUIRE_FALSE(r.ok());
  INFO(r.error());
  CHECK(r.error().rfind(scene + ":1: <mesh>: attribute 'file': ", 0) == 0);
  CHECK(contains(r.error(), "exfil.gltf: buffer or image uri '/etc/passwd' is outside"));
  // A network URI is refused whatever the policy: nothing is fetched on load.
  const auto dir = test::scratch_dir("hardened_gltf_uri");
  test::write_file(dir / "net.gltf", R"({"buffers": [{"byteLength": 12, "uri": "https://example.com/b.bin"}]})");
  const sim::ScopedResourcePolicy allow({true, {}});
  const std::string why = sim::check_resource_path((dir / "scene.xml").string(), (dir / "net.gltf").string());
  CHECK(contains(why, "uri 'https://example.com/b.bin' is not a file (nothing is fetched on load); refused"));
  // An embedded buffer (data: URI) and a file beside it are fine.
  test::write_file(dir / "ok.gltf",
                   R"({"buffers": [{"uri": "data:application/octet-stream;base64,AAAA"}, {"uri" : "sub/b%20c.bin"}]})");
  const sim::ScopedResourcePolicy contained({false, {}});
  CHECK(sim::check_resource_path((dir / "scene.xml").string(), (dir / "ok.gltf").string()).empty());
}

TEST_CASE("hardened loading: an OBJ's mtllib out of its folder is refused before Assimp reads it",
          "[unit][io][containment]") {
  const std::string scene = bad_input("mtllib_scene.xml");
  const auto r = sim::load_scene_file(scene);
  REQUIRE_FALSE(r.ok());
  INFO(r.error());
  CHECK(r.error().rfind(scene + ":1: <mesh>: attribute 'file': ", 0) == 0);
  CHECK(contains(r.error(), "mtllib_outside.obj: mtllib '/etc/passwd' is outside"));
  const auto dir = test::scratch_dir("hardened_obj_mtllib");
  const std::string tet = "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\nf 1 3 2\nf 1 2 4\nf 1 4 3\nf 2 3 4\n";
  const std::string from = (dir / "scene.xml").string();
  const sim::ScopedResourcePolicy contained({false, {}});
  // An absolute name, and a "../" one as the second of several names after a Windows line end.
  test::write_file(dir / "abs.obj", "mtllib /etc/passwd\n" + tet);
  CHECK(contains(sim::check_resource_path(from, (dir / "abs.obj").string()), "abs.obj: mtllib '/etc/passwd' is outside"));
  test::write_file(dir / "second.obj", "  mtllib  a.mtl ../b.mtl\r\n" + tet);
  CHECK(contains(sim::check_resource_path(from, (dir / "second.obj").string()), "second.obj: mtllib '"));
  test::write_file(dir / "beside.obj", "mtllib beside.mtl\r\nusemtl m\n" + tet);
  CHECK(sim::check_resource_path(from, (dir / "beside.obj").string()).empty());
  // Not a directive: a word that only starts with mtllib, a comment.
  test::write_file(dir / "other.obj", "mtllibx ../x.mtl\n# mtllib ../y.mtl\n" + tet);
  CHECK(sim::check_resource_path(from, (dir / "other.obj").string()).empty());
  // The policy's escape hatch admits it.
  const sim::ScopedResourcePolicy allow({true, {}});
  CHECK(sim::check_resource_path(from, (dir / "second.obj").string()).empty());
}

TEST_CASE("hardened loading: references resolve inside the referencing file's tree or a package root",
          "[unit][io][containment]") {
  const auto dir = test::scratch_dir("hardened_containment");
  test::write_file(dir / "lib" / "part.xml",
                   "<scene>\n  <body name=\"p\" pos=\"0 0 1\"><sphere radius=\"0.1\"/></body>\n</scene>\n");
  test::write_file(dir / "scenes" / "inside" / "part.xml",
                   "<scene>\n  <body name=\"q\" pos=\"0 0 1\"><sphere radius=\"0.1\"/></body>\n</scene>\n");
  test::write_file(dir / "scenes" / "main.xml",
                   "<scene>\n  <include file=\"inside/part.xml\"/>\n  <include file=\"../lib/part.xml\"/>\n</scene>\n");
  const std::string main = (dir / "scenes" / "main.xml").string();
  const sim::ScopedResourcePolicy contained({false, {}});
  // Inside the folder tree: fine; ../lib: refused at its line, naming the path.
  test::check_error(sim::load_scene_file(main), main, 3, "include",
                    {"attribute 'file': '" + (dir / "lib" / "part.xml").generic_string() + "' is outside",
                     "--allow-outside-paths"});
  // A symbolic link inside the tree that leads out of it is followed before the check.
  fs::create_symlink(dir / "lib", dir / "scenes" / "link");
  test::write_file(dir / "scenes" / "via_link.xml", "<scene>\n  <include file=\"link/part.xml\"/>\n</scene>\n");
  test::check_error(sim::load_scene_file((dir / "scenes" / "via_link.xml").string()),
                    (dir / "scenes" / "via_link.xml").string(), 2, "include", "is outside");
  {
    const sim::ScopedResourcePolicy with_root({false, {(dir / "lib").string()}});
    const auto r = sim::load_scene_file(main);
    INFO((r.ok() ? std::string("ok") : r.error()));
    CHECK(r.ok());
  }
  {
    const sim::ScopedResourcePolicy allow({true, {}});
    CHECK(sim::load_scene_file(main).ok());
  }
}

TEST_CASE("hardened loading: a URDF's package:// mesh may not climb out of its package", "[unit][io][containment]") {
  const auto dir = test::scratch_dir("hardened_package");
  test::write_file(dir / "secret.stl", "solid x\nendsolid x\n");
  test::write_file(dir / "arm" / "meshes" / "link.stl", "solid x\nendsolid x\n");
  test::write_file(dir / "arm" / "urdf" / "arm.urdf",
                   "<robot name=\"arm\">\n"
                   "  <link name=\"base\"><visual><geometry><mesh filename=\"package://arm/../secret.stl\"/></geometry>"
                   "</visual></link>\n</robot>\n");
  const sim::ScopedResourcePolicy contained({false, {}});
  const std::string urdf = (dir / "arm" / "urdf" / "arm.urdf").string();
  const auto r = sim::load_description(urdf, {});
  REQUIRE_FALSE(r.ok());
  INFO(r.error());
  CHECK(contains(r.error(), "secret.stl' is outside"));
}

TEST_CASE("step entry: a NaN in the state or control is refused before collision, naming what and where",
          "[unit][step][nonfinite]") {
  sim::SceneSpec spec;
  spec.world_shapes.push_back(test::ground_plane());
  test::add_body(spec, "box", sim::Vec3(0, 0, 0.1), 1.0, test::box_shape(sim::Vec3(0.1, 0.1, 0.1)));
  test::add_body(spec, "ball", sim::Vec3(1, 0, 0.1), 1.0, test::sphere_shape(0.1));
  const sim::Model model = test::compile(spec);
  sim::Workspace ws;
  const sim::Control control = sim::make_initial_control(model);
  for (const bool velocity : {false, true}) {
    sim::State state = sim::make_initial_state(model);
    if (velocity) state.u[6 + 2] = std::numeric_limits<Real>::infinity();  // ball's v_z
    else state.q[7 + 1] = std::numeric_limits<Real>::quiet_NaN();          // ball's y
    const sim::State before = state;
    sim::StepReport report;
    REQUIRE_NOTHROW(report = sim::step(model, state, control, ws));
    CHECK((report.flags & sim::kStepNonFinite) != 0);
    CHECK((report.flags & sim::kStepInvalidInput) != 0);
    INFO(report.message);
    CHECK(contains(report.message, velocity ? "state u[8] = inf (body 'ball')" : "state q[8] = nan (body 'ball')"));
    CHECK(report.contact_count == 0);  // collision never ran
    CHECK(state.step_index == before.step_index);
    for (std::size_t k = 0; k < state.u.size(); ++k) CHECK(std::memcmp(&state.u[k], &before.u[k], sizeof(Real)) == 0);
  }
  sim::State state = sim::make_initial_state(model);
  sim::Control bad = control;
  bad.body_wrench[0][2] = std::numeric_limits<Real>::quiet_NaN();
  const sim::StepReport report = sim::step(model, state, bad, ws);
  CHECK(contains(report.message, "control body_wrench[0][2] = nan (body 'box')"));
  // The same scene steps normally with finite input.
  CHECK(sim::step(model, state, control, ws).ok());
}

TEST_CASE("narrowphase: polyhedra at a NaN pose make no contact and index no face", "[unit][collision][nonfinite]") {
  // Two convex hulls (not boxes: the hull path picks faces by comparing separations, which NaN
  // leaves at -1), one at a NaN position, given straight to collision detection (step() would
  // refuse the state first).
  sim::SceneSpec spec;
  sim::ShapeSpec hull;
  hull.type = sim::ShapeType::ConvexMesh;
  hull.vertices = {sim::Vec3(-0.1, -0.1, -0.1), sim::Vec3(0.1, -0.1, -0.1), sim::Vec3(0, 0.1, -0.1), sim::Vec3(0, 0, 0.1)};
  test::add_body(spec, "a", sim::Vec3(0, 0, 0), 1.0, hull);
  test::add_body(spec, "b", sim::Vec3(0, 0, 0.05), 1.0, hull);
  spec.gravity = sim::Vec3::Zero();
  const sim::Model model = test::compile(spec);
  sim::State state = sim::make_initial_state(model);
  sim::detail::CollisionScratch scratch;
  sim::ContactBuffer contacts;
  sim::generate_contacts(model, state, model.dt, Real(0.01), scratch, contacts);
  REQUIRE(contacts.size() > 0);  // overlapping: contacts at a finite pose
  for (int k = 0; k < 3; ++k) state.q[7 + k] = std::numeric_limits<Real>::quiet_NaN();
  REQUIRE_NOTHROW(sim::generate_contacts(model, state, model.dt, Real(0.01), scratch, contacts));
  CHECK(contacts.size() == 0);
}
