// Edge–edge contacts between particle surfaces (collision/particle_edge_contacts.hpp) on two
// one-cell soft cubes whose edges cross (tests/support/crossed_cubes.hpp):
//   - one contact where the edges cross, its gap the closed-form distance between the edges' lines
//     less the radii, negative past each other (the one-sided reading of closed surfaces), and its
//     rows' gradients (frozen n and weights) central differences of that distance;
//   - pairs: the same surface only with self collision, never two edges with a shared corner or a
//     corner in the other's one-ring; different surfaces always.
#include <catch2/catch.hpp>

#include <algorithm>

#include "collision/collide.hpp"
#include "collision/particle_edge_contacts.hpp"
#include "collision/particle_surfaces.hpp"
#include "constraint/row_assembly.hpp"
#include "core/kinematics.hpp"
#include "solver/schur_system.hpp"
#include "support/bar_and_cube.hpp"
#include "support/crossed_cubes.hpp"
#include "support/row_gradient_check.hpp"
#include "support/scene_builders.hpp"

using sim::Real;
using sim::Vec3;

namespace {

sim::SoftMaterialSpec stiff_material() {
  sim::SoftMaterialSpec m;
  m.youngs_modulus = 1e6;
  m.poisson_ratio = 0.3;
  return m;
}

Vec3 particle_at(const sim::Model& m, const Real* q, int p) {
  const Real* x = q + m.particle_coord(p);
  return Vec3(x[0], x[1], x[2]);
}

bool edge_edge(const sim::Contact& c) {
  return c.a.kind == sim::ContactSide::ParticleFace && c.b.kind == sim::ContactSide::ParticleFace;
}

}  // namespace

TEST_CASE("edge-edge contact rows match the distance between the edges' lines and its central differences",
          "[unit][collision][constraint][jacobian][softcontact]") {
  const Real radius = 0.002, thickness = 2 * radius;
  struct Case {
    const char* what;
    Real gap;  // of the lines
  };
  for (const Case& k : {Case{"apart, within the margin", 0.007}, Case{"radii overlapping", 0.0025},
                        Case{"crossed, 2 mm past each other", -0.002}}) {
    INFO(k.what);
    const test::CrossedCubes setup = test::crossed_cubes(0.1, k.gap, radius, stiff_material());
    const sim::Model m = test::compile(setup.spec);
    const sim::State s = sim::make_initial_state(m);
    sim::detail::CollisionScratch scratch;
    sim::ContactBuffer all;
    sim::generate_contacts(m, s, m.dt, 0.01, scratch, all);
    sim::ContactBuffer mine;
    for (const sim::Contact& c : all.contacts)
      if (edge_edge(c)) mine.contacts.push_back(c);
    REQUIRE(mine.size() == 1);  // the ridge against the vee's edge, nothing else within reach
    const sim::Contact& c = mine.contacts.front();
    CHECK(c.thickness == Approx(thickness).margin(1e-15));
    // The normal points from side b to side a: a is the edge of lower index, the roof's (its
    // particles come first), so n is −z here, and C_n = n·(y_a − y_b) − d reads the same distance.
    REQUIRE(m.particle_triangles[c.a.index][0] < setup.vee_first);
    CHECK(c.normal.z() == Approx(-1).margin(1e-12));
    auto exact = [&](const Real* q) {
      return test::signed_line_distance(particle_at(m, q, setup.vee_edge[0]), particle_at(m, q, setup.vee_edge[1]),
                                        particle_at(m, q, setup.ridge[0]), particle_at(m, q, setup.ridge[1]), Vec3::UnitZ()) -
             thickness;
    };
    CHECK(c.initial_gap == Approx(exact(s.q.data())).margin(1e-12));
    CHECK(c.initial_gap == Approx(k.gap - thickness).margin(1e-12));
    // Each side is its edge's owner triangle, weights (1 − s, s, 0) in some order: s = t = ½ here.
    for (const sim::ContactSide* side : {&c.a, &c.b}) {
      Vec3 w = side->local_point;
      std::sort(w.data(), w.data() + 3);
      CHECK(w[0] == 0);
      CHECK(w[1] == Approx(0.5).margin(1e-9));
      CHECK(w[1] + w[2] == Approx(1).margin(1e-15));
    }
    sim::RowSet rows;
    sim::assemble_rows(m, mine, rows);
    const int r = rows.first_normal;
    REQUIRE(rows.count == r + 3);
    CHECK(rows.row_entry_first[r + 1] - rows.row_entry_first[r] == 6);  // both faces' corners (a zero block each)
    sim::Configuration config;
    config.assign(m, s.q.data());
    sim::evaluate_rows(m, mine, config, {}, rows);
    CHECK(rows.row_value[r] == Approx(c.initial_gap).margin(1e-12));
    test::check_row_gradient(m, s, rows, r, exact, 11, 4, 1e-7, 1e-6);
  }
}

TEST_CASE("edge pairs: other surfaces always, the same surface only with self collision and outside the one-ring",
          "[unit][collision][softcontact]") {
  const test::BarAndCube setup = test::bar_and_cube(stiff_material());
  const int a = setup.a, b = setup.b;
  const sim::Model m = test::compile(setup.spec);
  sim::detail::CollisionScratch scratch;
  scratch.self_collision.push_back({a, b - a});
  sim::detail::update_particle_surfaces(m, scratch.self_collision, scratch.surfaces);
  const auto& surfaces = scratch.surfaces;
  // Every triangle's edges are in the model's table, each edge's corners being the triangle's.
  REQUIRE(surfaces.triangle_edges.size() == m.particle_triangles.size());
  for (std::size_t f = 0; f < m.particle_triangles.size(); ++f)
    for (int k = 0; k < 3; ++k) {
      const int e = surfaces.triangle_edges[f][k];
      REQUIRE(e >= 0);
      const auto key = m.particle_edge_key[static_cast<std::size_t>(e)];
      const int lo = static_cast<int>(key >> 32), hi = static_cast<int>(key & 0xffffffffu);
      const int p = m.particle_triangles[f][k], q = m.particle_triangles[f][(k + 1) % 3];
      CHECK(lo == std::min(p, q));
      CHECK(hi == std::max(p, q));
    }
  const int edges = static_cast<int>(m.particle_edge_key.size());
  auto corner = [&](int e, int k) {
    const auto key = m.particle_edge_key[static_cast<std::size_t>(e)];
    return static_cast<int>(k == 0 ? key >> 32 : key & 0xffffffffu);
  };
  auto surface = [&](int e) { return surfaces.particle_surface[static_cast<std::size_t>(corner(e, 0))]; };
  int cross = 0, a_kept = 0, a_shared = 0, a_ring = 0, b_kept = 0;
  for (int e = 0; e < edges; ++e)
    for (int f = e + 1; f < edges; ++f) {
      const bool allowed = sim::detail::edge_pair_allowed(m, surfaces, e, f);
      if (surface(e) != surface(f)) {
        cross += allowed ? 0 : 1;  // must all be allowed
        continue;
      }
      if (surface(e) == 1) {
        b_kept += allowed ? 1 : 0;  // b has no self collision
        continue;
      }
      const bool shared = corner(e, 0) == corner(f, 0) || corner(e, 0) == corner(f, 1) || corner(e, 1) == corner(f, 0) ||
                          corner(e, 1) == corner(f, 1);
      bool ring = false;
      for (int i = 0; i < 2; ++i)
        for (int j = 0; j < 2; ++j) ring = ring || sim::detail::in_particle_ring(surfaces, corner(e, i), corner(f, j));
      if (shared) a_shared += allowed ? 1 : 0;
      else if (ring) a_ring += allowed ? 1 : 0;
      else a_kept += allowed ? 1 : 0;
    }
  CHECK(cross == 0);
  CHECK(b_kept == 0);
  CHECK(a_shared == 0);
  CHECK(a_ring == 0);
  CHECK(a_kept > 100);  // a's far-apart edges may meet (a long bar that folds)

  // At rest, apart, a with self collision on: no edge–edge contact at all.
  sim::State s = sim::make_initial_state(m);
  sim::ContactBuffer out;
  sim::generate_contacts(m, s, 0.01, 0.01, scratch, out);
  int found = 0;
  for (const sim::Contact& c : out.contacts) found += edge_edge(c) ? 1 : 0;
  CHECK(found == 0);
}
