// Baking (sim/sdf.hpp): OpenVDB narrow-band grids sampled through NanoVDB match the analytic
// distance within half a voxel, the cache hits on the second bake, bad meshes warn instead of
// failing, mesh files load through Assimp.
#include <catch2/catch.hpp>

#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <unistd.h>

#include "sdf/analytic_sdf.hpp"
#include "sim/sdf.hpp"

using sim::Real;
using sim::Vec3;

namespace {

// A fresh directory under the system temp dir, removed at scope exit.
struct TempDir {
  std::filesystem::path path;
  explicit TempDir(const std::string& name) {
    static int counter = 0;
    path = std::filesystem::temp_directory_path() /
           ("coulomb-" + name + "-" + std::to_string(::getpid()) + "-" + std::to_string(counter++));
    std::filesystem::remove_all(path);
    std::filesystem::create_directories(path);
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path, ec);
  }
};

bool has_warning(const sim::SdfBakeReport& r, const std::string& word) {
  for (const std::string& w : r.warnings)
    if (w.find(word) != std::string::npos) return true;
  return false;
}

// Max |φ_grid − φ_exact| over random points whose exact distance is inside the trusted band.
template <class Exact>
Real max_band_error(const sim::SdfGrid& grid, const Exact& exact, const Vec3& lo, const Vec3& hi, int samples,
                    int& used) {
  std::mt19937 rng(7);
  std::uniform_real_distribution<Real> u(0, 1);
  const Real band = grid.background() - grid.voxel_size();
  Real worst = 0;
  used = 0;
  for (int i = 0; i < samples; ++i) {
    const Vec3 p(lo.x() + u(rng) * (hi.x() - lo.x()), lo.y() + u(rng) * (hi.y() - lo.y()), lo.z() + u(rng) * (hi.z() - lo.z()));
    const Real e = exact.eval(p, nullptr);
    if (!(e < band)) continue;  // outside the exterior band (the interior is filled)
    ++used;
    worst = std::max(worst, std::abs(grid.sample(p) - e));
  }
  return worst;
}

}  // namespace

TEST_CASE("a baked sphere matches the analytic distance within half a voxel inside the band", "[unit][sdf]") {
  TempDir cache("sdf-cache");
  sim::SdfBakeOptions o;
  o.cache_dir = cache.path.string();
  sim::SdfBakeReport report;
  const Real r = 0.5;
  auto grid = sim::bake_sdf(sim::make_sphere_mesh(r, 4), o, &report);
  REQUIRE(grid.ok());
  const sim::SdfGrid& g = *grid.value();
  INFO("voxel " << g.voxel_size() << " m, " << g.active_voxel_count() << " voxels, " << report.seconds << " s");
  CHECK(g.is_signed());
  CHECK(report.signed_field);
  CHECK(report.warnings.empty());
  CHECK(g.voxel_size() == Approx(2 * r / 64).epsilon(1e-3));  // 1/64 of the largest extent
  CHECK(g.background() == Approx(3 * g.voxel_size()).epsilon(1e-4));
  int used = 0;
  const Real err = max_band_error(g, sim::detail::SphereSdf{r}, Vec3::Constant(-0.6), Vec3::Constant(0.6), 20000, used);
  INFO("max error " << err / g.voxel_size() << " voxels over " << used << " points");
  CHECK(used > 2000);
  CHECK(err < 0.5 * g.voxel_size());
  // Deep inside (filled interior) the value is still a distance, and the gradient is radial.
  Vec3 grad;
  CHECK(g.sample(Vec3(0.1, 0, 0), grad) == Approx(-0.4).margin(0.5 * g.voxel_size()));
  CHECK(grad.normalized().dot(Vec3::UnitX()) > 0.99);
  CHECK(g.sample(Vec3(0, 0.52, 0), grad) == Approx(0.02).margin(0.5 * g.voxel_size()));
  CHECK(grad.norm() == Approx(1).margin(0.05));
  CHECK(grad.normalized().dot(Vec3::UnitY()) > 0.995);
  // Far outside: the background, flagged as outside the band.
  CHECK_FALSE(g.in_band(g.sample(Vec3(2, 0, 0))));
}

TEST_CASE("a baked box matches the analytic distance within half a voxel inside the band", "[unit][sdf]") {
  TempDir cache("sdf-cache");
  sim::SdfBakeOptions o;
  o.cache_dir = cache.path.string();
  o.voxel_size = 0.01;
  o.band = 4;
  const Vec3 half(0.3, 0.2, 0.1);
  auto grid = sim::bake_sdf(sim::make_box_mesh(half), o);
  REQUIRE(grid.ok());
  const sim::SdfGrid& g = *grid.value();
  CHECK(g.voxel_size() == Approx(0.01));
  CHECK(g.background() == Approx(0.04).epsilon(1e-4));
  int used = 0;
  const Real err = max_band_error(g, sim::detail::BoxSdf{half}, -half - Vec3::Constant(0.06), half + Vec3::Constant(0.06),
                                  20000, used);
  INFO("max error " << err / g.voxel_size() << " voxels over " << used << " points");
  CHECK(used > 5000);
  CHECK(err < 0.5 * g.voxel_size());
  // Bounds of the active voxels reach one band beyond the box.
  CHECK(g.bounds_max().x() == Approx(0.34).margin(0.011));
  CHECK(g.bounds_min().z() == Approx(-0.14).margin(0.011));
  // A slice through the middle: negative inside, positive at the rim, row-major.
  std::vector<float> slice;
  Vec3 lo, hi;
  g.sample_slice(2, 0, 9, 5, slice, lo, hi);
  REQUIRE(slice.size() == 45u);
  CHECK(lo.z() == 0);
  CHECK(slice[2 * 9 + 4] == Approx(-0.1).margin(0.005));  // the centre: 0.1 from the top face
  CHECK(slice[0] > 0);                                    // a corner of the slice, outside
}

TEST_CASE("the bake cache hits on the second run and is faster", "[unit][sdf]") {
  TempDir cache("sdf-cache");
  sim::SdfBakeOptions o;
  o.cache_dir = cache.path.string();
  o.resolution = 96;
  const sim::TriangleMesh mesh = sim::make_sphere_mesh(0.3, 4);
  sim::SdfBakeReport first, second;
  auto a = sim::bake_sdf(mesh, o, &first);
  auto b = sim::bake_sdf(mesh, o, &second);
  REQUIRE(a.ok());
  REQUIRE(b.ok());
  INFO("first " << first.seconds << " s (bake " << first.bake_seconds << "), second " << second.seconds << " s (read "
                << second.io_seconds << ")");
  CHECK_FALSE(first.cache_hit);
  CHECK(second.cache_hit);
  CHECK(first.cache_file == second.cache_file);
  CHECK(std::filesystem::exists(first.cache_file));
  CHECK(second.bake_seconds == 0);
  CHECK(second.seconds < first.seconds);
  CHECK(a.value()->active_voxel_count() == b.value()->active_voxel_count());
  for (const Vec3& p : {Vec3(0.1, 0.2, 0.1), Vec3(0.31, 0, 0), Vec3(0, 0, -0.25)})
    CHECK(a.value()->sample(p) == b.value()->sample(p));
  // Another parameter is another entry.
  sim::SdfBakeReport third;
  o.band = 5;
  REQUIRE(sim::bake_sdf(mesh, o, &third).ok());
  CHECK_FALSE(third.cache_hit);
  CHECK(third.cache_file != first.cache_file);
  // No cache: never a hit, nothing written.
  TempDir empty("sdf-nocache");
  o.cache_dir = empty.path.string();
  o.use_cache = false;
  sim::SdfBakeReport fourth;
  REQUIRE(sim::bake_sdf(mesh, o, &fourth).ok());
  CHECK_FALSE(fourth.cache_hit);
  CHECK(std::filesystem::is_empty(empty.path));
}

TEST_CASE("bad meshes bake with warnings instead of failing", "[unit][sdf]") {
  TempDir cache("sdf-cache");
  sim::SdfBakeOptions o;
  o.cache_dir = cache.path.string();
  o.resolution = 32;
  sim::SdfBakeReport r;
  SECTION("open: a box without its top bakes an unsigned field") {
    sim::TriangleMesh m = sim::make_box_mesh(Vec3(0.2, 0.2, 0.2));
    m.triangles.erase(m.triangles.begin() + 2, m.triangles.begin() + 4);  // the +z quad
    const sim::MeshDiagnostics d = sim::check_mesh(m);
    CHECK(d.boundary_edges == 4);
    CHECK_FALSE(d.closed());
    auto g = sim::bake_sdf(m, o, &r);
    REQUIRE(g.ok());
    CHECK_FALSE(r.signed_field);
    CHECK_FALSE(g.value()->is_signed());
    CHECK(has_warning(r, "open"));
    CHECK(g.value()->sample(Vec3(0, 0, -0.185)) == Approx(0.015).margin(0.005));  // unsigned: no inside
    CHECK(g.value()->sample(Vec3(0, 0, -0.21)) == Approx(0.01).margin(0.01));
    auto sm = sim::make_sdf_mesh(m, o);
    REQUIRE(sm.ok());
    CHECK(sm.value()->edges.size() == 17u);
  }
  SECTION("non-manifold: three triangles on one edge") {
    sim::TriangleMesh m = sim::make_box_mesh(Vec3(0.2, 0.2, 0.2));
    m.vertices.emplace_back(0, 0, 0.6);
    m.triangles.push_back({6, 7, 8});  // fin on the top edge 6-7
    CHECK(sim::check_mesh(m).non_manifold_edges == 1);
    REQUIRE(sim::bake_sdf(m, o, &r).ok());
    CHECK(has_warning(r, "non-manifold"));
    CHECK_FALSE(r.signed_field);
  }
  SECTION("degenerate and out-of-range triangles are dropped") {
    sim::TriangleMesh m = sim::make_box_mesh(Vec3(0.2, 0.2, 0.2));
    m.triangles.push_back({0, 0, 1});     // repeated index
    m.vertices.push_back(m.vertices[0]);  // duplicate of vertex 0
    m.triangles.push_back({0, 8, 1});     // zero area
    m.triangles.push_back({0, 1, 99});    // out of range
    const sim::MeshDiagnostics d = sim::check_mesh(m);
    CHECK(d.degenerate_triangles == 2);
    CHECK(d.bad_indices == 1);
    auto g = sim::bake_sdf(m, o, &r);
    REQUIRE(g.ok());
    CHECK(r.signed_field);  // still a closed box once they are dropped
    CHECK(has_warning(r, "degenerate"));
    CHECK(has_warning(r, "out-of-range"));
    CHECK(g.value()->sample(Vec3::Zero()) == Approx(-0.2).margin(0.01));
  }
  SECTION("flipped faces: still signed (OpenVDB's sign is a flood fill), with a warning") {
    sim::TriangleMesh m = sim::make_box_mesh(Vec3(0.2, 0.2, 0.2));
    std::swap(m.triangles[0][1], m.triangles[0][2]);
    CHECK(sim::check_mesh(m).inconsistent_edges == 3);
    auto g = sim::bake_sdf(m, o, &r);
    REQUIRE(g.ok());
    CHECK(has_warning(r, "inconsistently"));
    CHECK(g.value()->sample(Vec3::Zero()) == Approx(-0.2).margin(0.01));
  }
  SECTION("errors, not crashes: empty, non-finite, all points equal, no valid triangle") {
    CHECK_FALSE(sim::bake_sdf(sim::TriangleMesh{}, o).ok());
    sim::TriangleMesh nan = sim::make_box_mesh(Vec3(0.2, 0.2, 0.2));
    nan.vertices[3].x() = std::numeric_limits<Real>::quiet_NaN();
    auto e = sim::bake_sdf(nan, o);
    REQUIRE_FALSE(e.ok());
    CHECK(e.error().find("non-finite") != std::string::npos);
    sim::TriangleMesh point;
    point.vertices = {Vec3::Zero(), Vec3::Zero(), Vec3::Zero()};
    point.triangles = {{0, 1, 2}};
    CHECK_FALSE(sim::bake_sdf(point, o).ok());
    sim::TriangleMesh bad;
    bad.vertices = {Vec3::Zero(), Vec3::UnitX()};
    bad.triangles = {{0, 1, 5}};
    CHECK_FALSE(sim::bake_sdf(bad, o).ok());
    sim::SdfBakeOptions tiny = o;
    tiny.voxel_size = 1e-9;
    CHECK_FALSE(sim::bake_sdf(sim::make_box_mesh(Vec3(0.2, 0.2, 0.2)), tiny).ok());
  }
  SECTION("a single triangle (flat, open) bakes unsigned") {
    sim::TriangleMesh m;
    m.vertices = {Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(0, 1, 0)};
    m.triangles = {{0, 1, 2}};
    auto g = sim::bake_sdf(m, o, &r);
    REQUIRE(g.ok());
    CHECK_FALSE(r.signed_field);
    CHECK(g.value()->sample(Vec3(0.2, 0.2, 0.05)) == Approx(0.05).margin(0.02));
  }
}

TEST_CASE("mesh files load through Assimp, unreadable files are errors", "[unit][sdf]") {
  TempDir dir("sdf-mesh");
  const sim::TriangleMesh cone = sim::make_cone_mesh(0.1, 0.25, 24);
  const std::string obj = (dir.path / "cone.obj").string();
  REQUIRE(sim::save_obj(cone, obj).empty());
  auto loaded = sim::load_triangle_mesh(obj);
  REQUIRE(loaded.ok());
  CHECK(loaded->vertices.size() == cone.vertices.size());
  CHECK(loaded->triangles.size() == cone.triangles.size());
  CHECK(sim::check_mesh(*loaded).watertight());
  // An ASCII STL of one triangle (per-face vertices).
  const std::string stl = (dir.path / "tri.stl").string();
  {
    std::ofstream f(stl);
    f << "solid t\nfacet normal 0 0 1\nouter loop\nvertex 0 0 0\nvertex 1 0 0\nvertex 0 1 0\nendloop\nendfacet\nendsolid t\n";
  }
  auto tri = sim::load_triangle_mesh(stl);
  REQUIRE(tri.ok());
  CHECK(tri->triangles.size() == 1u);
  CHECK_FALSE(sim::load_triangle_mesh((dir.path / "missing.obj").string()).ok());
  const std::string junk = (dir.path / "junk.obj").string();
  {
    std::ofstream f(junk);
    f << "this is not a mesh\n";
  }
  CHECK_FALSE(sim::load_triangle_mesh(junk).ok());
}

TEST_CASE("the shipped meshes are the generators' output, watertight, and bake signed", "[unit][sdf]") {
  const std::string dir = std::string(COULOMB_SOURCE_DIR) + "/assets/meshes/";
  const struct {
    const char* file;
    sim::TriangleMesh generated;
  } cases[] = {{"bowl.obj", sim::make_bowl_mesh(0.12, 0.012, 0.08, 32, 8)},
               {"cone.obj", sim::make_cone_mesh(0.1, 0.25, 48)}};
  for (const auto& c : cases) {
    INFO(c.file);
    auto m = sim::load_triangle_mesh(dir + c.file);
    REQUIRE(m.ok());
    // Assimp renumbers vertices (first use in the faces): compare counts, bounds and volume.
    CHECK(m->vertices.size() == c.generated.vertices.size());
    CHECK(m->triangles.size() == c.generated.triangles.size());
    auto bounds = [](const sim::TriangleMesh& x, Vec3& lo, Vec3& hi) {
      lo = hi = x.vertices[0];
      for (const Vec3& v : x.vertices) lo = lo.cwiseMin(v), hi = hi.cwiseMax(v);
    };
    auto volume = [](const sim::TriangleMesh& x) {
      Real v = 0;
      for (const auto& t : x.triangles) v += x.vertices[t[0]].dot(x.vertices[t[1]].cross(x.vertices[t[2]])) / 6;
      return v;
    };
    Vec3 lo1, hi1, lo2, hi2;
    bounds(*m, lo1, hi1);
    bounds(c.generated, lo2, hi2);
    CHECK((lo1 - lo2).norm() < 1e-7);
    CHECK((hi1 - hi2).norm() < 1e-7);
    CHECK(volume(*m) > 0);
    CHECK(volume(*m) == Approx(volume(c.generated)).epsilon(1e-6));
    CHECK(sim::check_mesh(*m).watertight());
  }
}

TEST_CASE("a baked grid written with -o reads back with load_sdf", "[unit][sdf]") {
  TempDir dir("sdf-out");
  sim::SdfBakeOptions o;
  o.use_cache = false;
  o.resolution = 32;
  o.output_file = (dir.path / "box.vdb").string();
  auto g = sim::bake_sdf(sim::make_box_mesh(Vec3(0.2, 0.1, 0.1)), o);
  REQUIRE(g.ok());
  auto back = sim::load_sdf(o.output_file);
  REQUIRE(back.ok());
  CHECK(back.value()->is_signed());
  CHECK(back.value()->voxel_size() == Approx(g.value()->voxel_size()));
  CHECK(back.value()->sample(Vec3(0.05, 0, 0)) == g.value()->sample(Vec3(0.05, 0, 0)));
  CHECK_FALSE(sim::load_sdf((dir.path / "none.vdb").string()).ok());
}
