// TetGen from closed surfaces (sim/tet_mesh_generate.hpp) and the quality measures
// (sim/tet_mesh_quality.hpp): the tets fill exactly the polyhedron the surface encloses (volume
// by the divergence theorem), respect the maximum volume and the radius-edge bound; open,
// inside-out and self-intersecting surfaces are errors (TetGen's failure contained in its child
// process; an edge problem names one such edge with its vertices' coordinates), as is a size bound asking for more tets than the limit. The quality measures against
// closed forms for the regular and the right-corner tet.
#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdio>

#include "sim/load_limits.hpp"
#include "sim/tet_mesh_generate.hpp"
#include "sim/tet_mesh_io.hpp"
#include "sim/tet_mesh_quality.hpp"

namespace {

double enclosed_volume(const sim::TriangleMesh& s) {
  double v = 0;
  for (const auto& t : s.triangles) v += s.vertices[t[0]].dot(s.vertices[t[1]].cross(s.vertices[t[2]])) / 6.0;
  return v;
}

double surface_volume(const sim::TetMesh& m) {
  double v = 0;
  for (const auto& f : m.surface) v += m.points[f[0]].dot(m.points[f[1]].cross(m.points[f[2]])) / 6.0;
  return v;
}

void check_generated(const sim::TetMesh& m, double volume, const sim::TetGenOptions& o, const std::vector<std::string>& notes) {
  const sim::TetQualityReport q = sim::tet_mesh_quality(m);
  INFO(sim::format_tet_quality(q));
  CHECK(q.volume_total == Approx(volume).epsilon(1e-9));
  CHECK(surface_volume(m) == Approx(volume).epsilon(1e-9));  // closed, outward boundary
  CHECK(q.volume_min > 0);
  if (o.max_volume > 0) {
    // TetGen refines to the bound; its final flips (3 tets into 2) may leave a few above it.
    std::size_t larger = 0;
    for (const auto& t : m.tets)
      larger += sim::tet_signed_volume(m.points[t[0]], m.points[t[1]], m.points[t[2]], m.points[t[3]]) > o.max_volume * (1 + 1e-9);
    CHECK(larger <= m.tets.size() / 200);  // at most 0.5 %
    CHECK(q.volume_max <= 1.5 * o.max_volume);
    bool said = larger == 0;
    for (const std::string& n : notes) said = said || n.find(std::to_string(larger) + " of " + std::to_string(m.tets.size()) +
                                                             " tets are larger than the maximum volume") != std::string::npos;
    CHECK(said);
  }
  if (o.radius_edge_ratio > 0) CHECK(q.radius_edge_max <= o.radius_edge_ratio * (1 + 1e-3));  // TetGen tests the bound in its own arithmetic
}

}  // namespace

TEST_CASE("quality measures of the regular and the right-corner tet match their closed forms", "[unit][tetmesh]") {
  const sim::Vec3 a(1, 1, 1), b(1, -1, -1), c(-1, 1, -1), d(-1, -1, 1);  // regular, edge 2 sqrt 2
  const sim::Vec3 sa = sim::tet_signed_volume(a, b, c, d) > 0 ? b : c, sb = sim::tet_signed_volume(a, b, c, d) > 0 ? c : b;
  CHECK(sim::tet_radius_edge_ratio(a, sa, sb, d) == Approx(std::sqrt(6.0) / 4));
  const auto regular = sim::tet_dihedral_range_deg(a, sa, sb, d);
  CHECK(regular[0] == Approx(std::acos(1.0 / 3) * 180 / M_PI));
  CHECK(regular[1] == Approx(std::acos(1.0 / 3) * 180 / M_PI));
  // Corner tet (0, e_x, e_y, e_z): three right dihedral angles at the corner's edges, the others
  // acos(1/sqrt 3) = 54.74 deg; circumradius sqrt(3)/2 over the shortest edge 1.
  const sim::Vec3 o(0, 0, 0), x(1, 0, 0), y(0, 1, 0), z(0, 0, 1);
  const auto corner = sim::tet_dihedral_range_deg(o, x, y, z);
  CHECK(corner[0] == Approx(std::acos(1 / std::sqrt(3.0)) * 180 / M_PI));
  CHECK(corner[1] == Approx(90));
  CHECK(sim::tet_radius_edge_ratio(o, x, y, z) == Approx(std::sqrt(3.0) / 2));
  CHECK(sim::tet_volume_for_edge(2 * std::sqrt(2.0)) == Approx(sim::tet_signed_volume(a, sa, sb, d)));
}

TEST_CASE("TetGen fills a closed cube exactly, within the maximum volume and the quality bound", "[unit][tetmesh]") {
  const sim::TriangleMesh cube = sim::make_box_mesh(sim::Vec3(0.5, 0.5, 0.5));
  sim::TetGenOptions o;
  o.max_volume = 0.002;
  o.radius_edge_ratio = 1.5;
  sim::TetGenReport report;
  auto m = sim::tetrahedralize_surface(cube, o, "cube", &report);
  INFO((m.ok() ? report.switches : m.error()));
  REQUIRE(m.ok());
  CHECK(report.switches == "pzQq1.5/0a0.002");
  CHECK(m->tets.size() >= 500);  // 1 m^3 in tets of at most 0.002 m^3
  check_generated(*m, 1.0, o, report.notes);
}

TEST_CASE("TetGen on a sphere: the enclosed polyhedron's volume, near 4/3 pi r^3, quality and size bounds held",
          "[unit][tetmesh]") {
  const sim::TriangleMesh sphere = sim::make_sphere_mesh(1.0, 3);  // 1280 triangles
  const double polyhedron = enclosed_volume(sphere);
  CHECK(polyhedron == Approx(4.0 / 3 * M_PI).epsilon(0.02));  // the discretisation: 1.5 % inside the sphere
  sim::TetGenOptions o;
  o.max_volume = sim::tet_volume_for_edge(0.2);
  o.radius_edge_ratio = 2;  // the bound TetGen's refinement holds everywhere
  sim::TetGenReport report;
  auto m = sim::tetrahedralize_surface(sphere, o, "sphere", &report);
  INFO((m.ok() ? report.switches : m.error()));
  REQUIRE(m.ok());
  check_generated(*m, polyhedron, o, report.notes);
  WARN("TetGen on an icosphere (1280 triangles), -" << report.switches << ": " << report.seconds << " s\n"
                                                    << sim::format_tet_quality(sim::tet_mesh_quality(*m)));
  // Tighter targets (ratio 1.4, dihedral 10 deg) are met away from the surface: the tets that
  // miss them are counted in the report, never silently.
  o.radius_edge_ratio = 1.4;
  o.min_dihedral_deg = 10;
  sim::TetGenReport tight;
  auto t = sim::tetrahedralize_surface(sphere, o, "sphere", &tight);
  REQUIRE(t.ok());
  const sim::TetQualityReport q = sim::tet_mesh_quality(*t);
  CHECK(q.volume_total == Approx(polyhedron).epsilon(1e-9));
  const std::size_t above = q.radius_edge_histogram[2] + q.radius_edge_histogram[3] + q.radius_edge_histogram[4] +
                            q.radius_edge_histogram[5];
  CHECK(above < q.tets / 100);  // bins above 1.5: under 1 %
  bool said = above == 0;
  for (const std::string& n : tight.notes) said = said || n.find("have a radius-edge ratio above 1.4") != std::string::npos;
  CHECK(said);
  WARN("TetGen, -" << tight.switches << ": " << tight.seconds << " s\n" << sim::format_tet_quality(q));
}

TEST_CASE("surfaces TetGen cannot mesh are errors, TetGen's failure included", "[unit][tetmesh][bad-inputs]") {
  sim::TriangleMesh cube = sim::make_box_mesh(sim::Vec3(0.5, 0.5, 0.5));
  sim::TetGenOptions o;
  // Edge problems name one of the edges, its vertices and their coordinates: corners of `t`.
  auto names_edge_of = [&](const std::string& error, const std::array<int, 3>& t) {
    const std::string tag = "; e.g. the edge from vertex ";
    const auto at = error.find(tag);
    REQUIRE(at != std::string::npos);
    int a = -1, b = -1;
    double xa[3], xb[3];
    REQUIRE(std::sscanf(error.c_str() + at + tag.size(), "%d (%lf %lf %lf) to vertex %d (%lf %lf %lf)", &a, &xa[0], &xa[1],
                        &xa[2], &b, &xb[0], &xb[1], &xb[2]) == 8);
    CHECK(std::count(t.begin(), t.end(), a) == 1);
    CHECK(std::count(t.begin(), t.end(), b) == 1);
    for (int k = 0; k < 3; ++k) {
      CHECK(xa[k] == Approx(cube.vertices[a][k]));
      CHECK(xb[k] == Approx(cube.vertices[b][k]));
    }
  };
  SECTION("open: a triangle missing") {
    const std::array<int, 3> missing = cube.triangles.back();
    cube.triangles.pop_back();
    auto m = sim::tetrahedralize_surface(cube, o, "open.obj");
    REQUIRE_FALSE(m.ok());
    CHECK(m.error().rfind("open.obj: cannot tetrahedralise: 3 boundary edges (edges of one triangle): the surface is not closed; "
                          "e.g. the edge from vertex ", 0) == 0);
    names_edge_of(m.error(), missing);
  }
  SECTION("one triangle flipped") {
    std::swap(cube.triangles[4][1], cube.triangles[4][2]);
    auto m = sim::tetrahedralize_surface(cube, o, "one_flipped.obj");
    REQUIRE_FALSE(m.ok());
    CHECK(m.error().find("3 edges whose two triangles are oriented inconsistently") != std::string::npos);
    names_edge_of(m.error(), cube.triangles[4]);
  }
  SECTION("inside out") {
    for (auto& t : cube.triangles) std::swap(t[1], t[2]);
    auto m = sim::tetrahedralize_surface(cube, o, "flipped.obj");
    REQUIRE_FALSE(m.ok());
    CHECK(m.error().find("flipped.obj: cannot tetrahedralise: the surface encloses a volume of -1 m^3: it is inside out") == 0);
  }
  SECTION("self-intersecting: two overlapping boxes in one surface (TetGen's meshing run segfaults on it)") {
    sim::TriangleMesh other = sim::make_box_mesh(sim::Vec3(0.5, 0.5, 0.5));
    const int base = static_cast<int>(cube.vertices.size());
    for (auto& v : other.vertices) cube.vertices.push_back(v + sim::Vec3(0.3, 0.2, 0.1));
    for (auto t : other.triangles) cube.triangles.push_back({t[0] + base, t[1] + base, t[2] + base});
    auto m = sim::tetrahedralize_surface(cube, o, "two_boxes.obj");
    REQUIRE_FALSE(m.ok());
    CHECK(m.error() == "two_boxes.obj: the surface intersects itself: 12 of its triangles cross others (TetGen -d)");
  }
  SECTION("a size bound asking for more tets than the limit is refused before TetGen runs") {
    o.max_volume = 1e-12;
    auto m = sim::tetrahedralize_surface(cube, o, "cube.obj");
    REQUIRE_FALSE(m.ok());
    CHECK(m.error().find("cube.obj: a maximum tet volume of 1e-12 m^3 asks for more than 1e+12 tets") == 0);
  }
  SECTION("TetGen past its time limit is killed") {
    const sim::TriangleMesh sphere = sim::make_sphere_mesh(1.0, 3);
    o.max_volume = 1e-6;  // 4 million tets: far more than 10 ms of work
    o.time_limit_seconds = 0.01;
    auto m = sim::tetrahedralize_surface(sphere, o, "sphere");
    REQUIRE_FALSE(m.ok());
    CHECK(m.error().find("sphere: the tet mesher (TetGen) did not finish within") == 0);
  }
}
