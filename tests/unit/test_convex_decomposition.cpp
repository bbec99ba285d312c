// Convex decomposition (sim/src/collision/convex_decomposition.cpp): closed-mesh volume and
// closedness, and plane-cut decompositions of L, U and ring shaped solids whose parts' hulls
// cover the solid with little excess volume.
#include <catch2/catch.hpp>

#include <array>
#include <cmath>
#include <map>
#include <set>
#include <vector>

#include "collision/convex_decomposition.hpp"
#include "collision/convex_hull.hpp"

namespace {

using sim::Real;
using sim::Vec3;

struct Mesh {
  std::vector<Vec3> vertices;
  std::vector<std::array<int, 3>> triangles;
};

// A closed, outward-facing mesh of unit-free voxels (cells of a rectilinear grid given by its
// lines), so that neighbouring faces share their corners exactly.
Mesh voxel_mesh(const std::vector<double>& xs, const std::vector<double>& ys, const std::vector<double>& zs,
                const std::set<std::array<int, 3>>& cells) {
  Mesh m;
  std::map<std::array<double, 3>, int> index;
  auto vertex = [&](const std::array<double, 3>& p) {
    auto [it, inserted] = index.emplace(p, static_cast<int>(m.vertices.size()));
    if (inserted) m.vertices.emplace_back(Real(p[0]), Real(p[1]), Real(p[2]));
    return it->second;
  };
  const std::array<const std::vector<double>*, 3> grid{&xs, &ys, &zs};
  for (const auto& cell : cells)
    for (int axis = 0; axis < 3; ++axis)
      for (int side = 0; side < 2; ++side) {
        auto neighbour = cell;
        neighbour[axis] += side ? 1 : -1;
        if (cells.count(neighbour)) continue;
        const int u = (axis + 1) % 3, v = (axis + 2) % 3;
        const double fixed = (*grid[axis])[cell[axis] + side];
        const double lu = (*grid[u])[cell[u]], hu = (*grid[u])[cell[u] + 1];
        const double lv = (*grid[v])[cell[v]], hv = (*grid[v])[cell[v] + 1];
        std::array<std::array<double, 2>, 4> corners{{{lu, lv}, {hu, lv}, {hu, hv}, {lu, hv}}};
        if (!side) std::swap(corners[1], corners[3]);
        std::array<int, 4> id{};
        for (int k = 0; k < 4; ++k) {
          std::array<double, 3> p{};
          p[axis] = fixed;
          p[u] = corners[k][0];
          p[v] = corners[k][1];
          id[k] = vertex(p);
        }
        m.triangles.push_back({id[0], id[1], id[2]});
        m.triangles.push_back({id[0], id[2], id[3]});
      }
  return m;
}

std::vector<double> lines(int n) {
  std::vector<double> out;
  for (int i = 0; i <= n; ++i) out.push_back(0.1 * i);
  return out;
}

Mesh transformed(Mesh m, const sim::Quat& q, const Vec3& t) {
  for (Vec3& v : m.vertices) v = q * v + t;
  return m;
}

// Checks a decomposition: at least `min_parts` parts, part volumes summing to the mesh volume,
// each part's hull at least its volume, and all hulls together within `tolerance` of the mesh.
void check(const Mesh& m, std::size_t min_parts, double tolerance) {
  const Real volume = sim::mesh_volume(m.vertices, m.triangles);
  auto r = sim::convex_decomposition(m.vertices, m.triangles, {}, "test");
  INFO((r.ok() ? std::string("ok") : r.error()));
  REQUIRE(r.ok());
  const auto& d = r.value();
  CHECK(d.mesh_volume == Approx(volume).epsilon(1e-12));
  CHECK(d.parts.size() >= min_parts);
  Real parts = 0, hulls = 0;
  for (const auto& p : d.parts) {
    CHECK(p.hull_vertices.size() >= 4);
    CHECK(p.hull_volume >= p.volume * (1 - 1e-9));
    parts += p.volume;
    hulls += p.hull_volume;
    // The recorded hull volume is the hull of the recorded vertices.
    auto hull = sim::build_convex_hull(p.hull_vertices, "part");
    REQUIRE(hull.ok());
    CHECK(sim::hull_mass_properties(hull.value()).volume == Approx(p.hull_volume).epsilon(1e-9));
  }
  CHECK(parts == Approx(volume).epsilon(1e-9));
  INFO("parts " << d.parts.size() << ", hulls " << hulls << ", mesh " << volume);
  CHECK(hulls <= volume * (1 + tolerance));
  CHECK(hulls >= volume * (1 - 1e-9));
}

}  // namespace

TEST_CASE("mesh volume and closedness of voxel meshes", "[unit][import]") {
  const Mesh cube = voxel_mesh(lines(1), lines(1), lines(1), {{0, 0, 0}});
  CHECK(cube.vertices.size() == 8);
  CHECK(cube.triangles.size() == 12);
  CHECK(sim::is_closed_mesh(cube.triangles));
  CHECK(sim::mesh_volume(cube.vertices, cube.triangles) == Approx(0.001).epsilon(1e-12));

  Mesh inverted = cube;
  for (auto& t : inverted.triangles) std::swap(t[1], t[2]);
  CHECK(sim::mesh_volume(inverted.vertices, inverted.triangles) == Approx(-0.001).epsilon(1e-12));
  CHECK(sim::is_closed_mesh(inverted.triangles));

  Mesh open = cube;
  open.triangles.pop_back();
  CHECK_FALSE(sim::is_closed_mesh(open.triangles));
  auto r = sim::convex_decomposition(open.vertices, open.triangles, {}, "open.stl");
  REQUIRE_FALSE(r.ok());
  CHECK(r.error().rfind("open.stl: convex decomposition: ", 0) == 0);
  CHECK(r.error().find("not closed") != std::string::npos);

  Mesh bad = cube;
  bad.triangles[0][0] = 99;
  CHECK_FALSE(sim::convex_decomposition(bad.vertices, bad.triangles, {}, "bad").ok());
}

TEST_CASE("a convex mesh stays one part", "[unit][import]") {
  const Mesh box = voxel_mesh(lines(3), lines(2), lines(1), {{0, 0, 0}, {1, 0, 0}, {2, 0, 0}, {0, 1, 0}, {1, 1, 0}, {2, 1, 0}});
  auto r = sim::convex_decomposition(box.vertices, box.triangles, {}, "box");
  REQUIRE(r.ok());
  CHECK(r.value().parts.size() == 1);
  CHECK(r.value().hull_volume == Approx(0.006).epsilon(1e-9));
  CHECK(r.value().parts[0].volume == Approx(0.006).epsilon(1e-9));
}

TEST_CASE("an L-shaped mesh splits into convex parts covering its volume", "[unit][import]") {
  // Three unit cells in an L, 1 deep: hull 3.5 cells, volume 3.
  const Mesh l = voxel_mesh(lines(2), lines(2), lines(1), {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}});
  auto hull = sim::build_convex_hull(l.vertices, "L");
  REQUIRE(hull.ok());
  CHECK(sim::hull_mass_properties(hull.value()).volume == Approx(0.0035).epsilon(1e-9));
  check(l, 2, 0.10);
  // Exact boxes: the cut at the inner corner leaves no excess at all.
  check(l, 2, 1e-6);
}

TEST_CASE("a U-shaped mesh splits into at least three parts", "[unit][import]") {
  // Bottom bar of 3 cells and two 2-cell uprights; 2 deep.
  const Mesh u = voxel_mesh(lines(3), lines(3), lines(2),
                            {{0, 0, 0}, {1, 0, 0}, {2, 0, 0}, {0, 1, 0}, {2, 1, 0}, {0, 2, 0}, {2, 2, 0},
                             {0, 0, 1}, {1, 0, 1}, {2, 0, 1}, {0, 1, 1}, {2, 1, 1}, {0, 2, 1}, {2, 2, 1}});
  check(u, 3, 0.10);
}

TEST_CASE("rotated and off-grid non-convex meshes decompose within 10 % of their volume", "[unit][import]") {
  const Mesh l = voxel_mesh({0, 0.3, 1.0}, {0, 0.2, 0.7}, {0, 0.25}, {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}});
  const sim::Quat q = sim::Quat(Eigen::AngleAxis<Real>(Real(0.5), Vec3(1, 2, 3).normalized()));
  check(transformed(l, q, Vec3(1, -2, 0.5)), 2, 0.10);

  const Mesh u = voxel_mesh({0, 0.1, 0.4, 0.5}, {0, 0.1, 0.6}, {0, 0.3},
                            {{0, 0, 0}, {1, 0, 0}, {2, 0, 0}, {0, 1, 0}, {2, 1, 0}});
  check(transformed(u, q, Vec3::Zero()), 2, 0.10);

  // A square ring (3 x 3 cells without the centre): no cut through the hole is free.
  std::set<std::array<int, 3>> ring;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j)
      if (i != 1 || j != 1) ring.insert({i, j, 0});
  check(voxel_mesh(lines(3), lines(3), lines(1), ring), 2, 0.10);
}

TEST_CASE("decomposition respects max_parts", "[unit][import]") {
  std::set<std::array<int, 3>> comb;  // a comb: a spine and 4 teeth, needs 5 parts to be exact
  for (int i = 0; i < 9; ++i) comb.insert({i, 0, 0});
  for (int i = 0; i < 9; i += 2) comb.insert({i, 1, 0}), comb.insert({i, 2, 0});
  const Mesh m = voxel_mesh(lines(9), lines(3), lines(1), comb);
  sim::ConvexDecompositionOptions options;
  options.max_parts = 3;
  auto r = sim::convex_decomposition(m.vertices, m.triangles, options, "comb");
  REQUIRE(r.ok());
  CHECK(r.value().parts.size() <= 3);
  CHECK(r.value().parts.size() >= 2);
  options.max_parts = 16;
  auto all = sim::convex_decomposition(m.vertices, m.triangles, options, "comb");
  REQUIRE(all.ok());
  Real hulls = 0;
  for (const auto& p : all.value().parts) hulls += p.hull_volume;
  CHECK(hulls <= all.value().mesh_volume * Real(1.10));
}
