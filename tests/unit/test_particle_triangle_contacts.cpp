// Point–triangle proximity contacts (collision/particle_triangle_contacts.hpp) and their
// broadphase (collision/box_hash.hpp): the hash returns exactly the boxes a brute-force scan
// finds on random configurations; the contact rows' gradients (frozen n and w) match central
// differences of the exact point–triangle distance (in front of a face, on an edge, at a vertex,
// and behind a closed surface's face); a soft block at rest with self collision has no self
// contacts; the surfaces and exclusions are as documented.
#include <catch2/catch.hpp>

#include <random>

#include "collision/box_hash.hpp"
#include "collision/collide.hpp"
#include "collision/particle_surfaces.hpp"
#include "collision/particle_triangle_contacts.hpp"
#include "constraint/row_assembly.hpp"
#include "core/kinematics.hpp"
#include "solver/schur_system.hpp"
#include "sim/soft_body.hpp"
#include "support/bar_and_cube.hpp"
#include "support/point_triangle_distance.hpp"
#include "support/row_gradient_check.hpp"
#include "support/scene_builders.hpp"

using sim::Real;
using sim::Vec3;

namespace {

Vec3 particle_at(const sim::Model& m, const Real* q, int p) {
  const Real* x = q + m.particle_coord(p);
  return Vec3(x[0], x[1], x[2]);
}

sim::SoftMaterialSpec soft_material() {
  sim::SoftMaterialSpec m;
  m.youngs_modulus = 1e5;
  m.poisson_ratio = 0.3;
  return m;
}

// A soft cube (one Kuhn cell: 8 particles, 6 tets, 12 outward triangles) of edge 0.1 m centred
// at the origin, and a cloth triangle of three particles whose first corner is the probe.
struct Probe {
  sim::SceneSpec spec;
  int probe = -1;
};

Probe cube_and_probe(const Vec3& probe) {
  Probe out;
  out.spec.dt = 0.01;
  sim::SoftBodyPlacement place;
  place.particle_radius = 0.002;
  std::string error;
  REQUIRE(sim::add_soft_body(out.spec, sim::box_tet_mesh(Vec3(0.1, 0.1, 0.1), 1, 1, 1), soft_material(), place, "cube",
                             error) == 0);
  out.probe = static_cast<int>(out.spec.particles.size());
  for (const Vec3& x : {probe, Vec3(probe + Vec3(0.4, 0.3, 0.3)), Vec3(probe + Vec3(0.3, 0.45, 0.35))}) {
    sim::ParticleSpec p;
    p.position = x;
    p.mass = 0.05;
    p.radius = 0.003;
    out.spec.particles.push_back(p);
  }
  out.spec.particle_triangles.push_back({out.probe, out.probe + 1, out.probe + 2});
  return out;
}

}  // namespace

TEST_CASE("the triangle box hash finds the same pairs as brute force on random configurations",
          "[unit][collision][softcontact]") {
  sim::detail::BoxHash hash;
  std::vector<int> found;
  for (unsigned seed = 1; seed <= 4; ++seed) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<Real> pos(-1, 1), size(0.001, 0.15), big(0.5, 2.5);
    const int n = 200 + 400 * static_cast<int>(seed);
    std::vector<sim::detail::Aabb> boxes(n);
    for (int b = 0; b < n; ++b) {
      const Vec3 c(pos(rng), pos(rng), pos(rng));
      Vec3 h(size(rng), size(rng), size(rng));
      if (b % 97 == 0) h.x() = big(rng);  // a few long ones (stretched triangles)
      boxes[b] = {c - h, c + h};
    }
    sim::detail::build_box_hash(boxes.data(), n, hash);
    long pairs = 0;
    for (int q = 0; q < 300; ++q) {
      const Vec3 c(pos(rng), pos(rng), pos(rng));
      const Real r = q % 50 == 0 ? 1.5 : size(rng);  // now and then a query larger than the table
      const sim::detail::Aabb box{c - Vec3::Constant(r), c + Vec3::Constant(r)};
      sim::detail::query_box_hash(hash, box, found);
      std::vector<int> brute;
      for (int b = 0; b < n; ++b)
        if (sim::detail::aabb_overlap(boxes[b], box)) brute.push_back(b);
      INFO("seed " << seed << ", query " << q);
      REQUIRE(found == brute);
      pairs += static_cast<long>(brute.size());
    }
    CHECK(pairs > 300);  // the queries do meet boxes
  }
}

TEST_CASE("point-triangle contact rows match central differences of the exact distance",
          "[unit][constraint][jacobian][softcontact]") {
  // Probe positions over the cube's top face (z = 0.05): inside a triangle, over an edge's
  // Voronoi region, beside a vertex, and 1.5 mm inside the cube (behind the face).
  struct Case {
    const char* what;
    Vec3 at;
    bool behind;
  };
  for (const Case& k : {Case{"face interior", Vec3(0.012, -0.021, 0.056), false},
                        Case{"beyond an edge", Vec3(0.058, 0.013, 0.053), false},
                        Case{"beyond a corner", Vec3(0.054, 0.056, 0.053), false},
                        Case{"behind the face (inside)", Vec3(-0.011, 0.017, 0.0485), true}}) {
    INFO(k.what);
    Probe setup = cube_and_probe(k.at);
    const sim::Model m = test::compile(setup.spec);
    const sim::State s = sim::make_initial_state(m);
    sim::detail::CollisionScratch scratch;
    sim::ContactBuffer all;
    sim::generate_contacts(m, s, m.dt, 0.01, scratch, all);
    sim::ContactBuffer mine;
    for (const sim::Contact& c : all.contacts)
      if (c.a.kind == sim::ContactSide::Particle && c.a.index == setup.probe && c.b.kind == sim::ContactSide::ParticleFace)
        mine.contacts.push_back(c);
    REQUIRE(mine.size() >= 1);
    for (const sim::Contact& c : mine.contacts) {
      const auto& tri = m.particle_triangles[c.b.index];
      const Real sign = c.initial_gap < -c.thickness ? -1 : 1;  // behind: C = −|δ| − d
      auto exact = [&](const Real* q) {
        const Vec3 x = particle_at(m, q, setup.probe);
        return sign * test::point_triangle_distance(x, particle_at(m, q, tri[0]), particle_at(m, q, tri[1]),
                                                    particle_at(m, q, tri[2])) -
               c.thickness;
      };
      CHECK(c.initial_gap == Approx(exact(s.q.data())).margin(1e-12));
      CHECK((sign < 0) == k.behind);
      sim::ContactBuffer one;
      one.contacts.push_back(c);
      sim::RowSet rows;
      sim::assemble_rows(m, one, rows);
      REQUIRE(rows.count == rows.first_normal + 3);  // the tets' rows, then the contact's normal and friction
      const int r = rows.first_normal;
      CHECK(rows.row_entry_first[r + 1] - rows.row_entry_first[r] == 4);  // the particle and three corners
      sim::Configuration config;
      config.assign(m, s.q.data());
      sim::evaluate_rows(m, one, config, {}, rows);
      CHECK(rows.row_value[r] == Approx(c.initial_gap).margin(1e-12));
      INFO("triangle " << c.b.index << ", weights " << c.b.local_point.transpose());
      test::check_row_gradient(m, s, rows, r, exact, 7, 3, 1e-6, 1e-5);
    }
  }
}

TEST_CASE("surfaces: components, closed flags, exclusions, and a soft block at rest has no self contacts",
          "[unit][collision][softcontact]") {
  const test::BarAndCube setup = test::bar_and_cube(soft_material());
  const int a = setup.a, b = setup.b;
  const sim::Model m = test::compile(setup.spec);
  sim::detail::CollisionScratch scratch;
  scratch.self_collision.push_back({a, b - a});
  sim::detail::ParticleSurfaces& surfaces = scratch.surfaces;
  REQUIRE(sim::detail::update_particle_surfaces(m, scratch.self_collision, surfaces));
  CHECK_FALSE(sim::detail::update_particle_surfaces(m, scratch.self_collision, surfaces));  // unchanged: kept
  REQUIRE(surfaces.surface_count() == 2);
  CHECK(surfaces.closed == std::vector<std::uint8_t>{1, 1});
  CHECK(surfaces.self_collision == std::vector<std::uint8_t>{1, 0});
  // A corner particle of body a: never against its own triangles, always against b's.
  const auto& first = m.particle_triangles.front();
  CHECK_FALSE(sim::detail::particle_triangle_allowed(m, surfaces, first[0], 0));
  int against_b = -1;
  for (int t = 0; t < static_cast<int>(m.particle_triangles.size()); ++t)
    if (surfaces.particle_surface[m.particle_triangles[t][0]] == 1) against_b = t;
  REQUIRE(against_b >= 0);
  CHECK(sim::detail::particle_triangle_allowed(m, surfaces, first[0], against_b));
  // b has no self collision: none of its surface particles against its own triangles.
  int b_pairs = 0;
  for (int p = b; p < m.particle_count; ++p)
    if (surfaces.particle_surface[p] == 1 && sim::detail::particle_triangle_allowed(m, surfaces, p, against_b)) ++b_pairs;
  CHECK(b_pairs == 0);
  // a with self collision: some of its own surface particles may meet one of its triangles (those
  // outside the triangle's one-ring), the others not.
  int a_pairs = 0, a_excluded = 0;
  for (int p = 0; p < b; ++p) {
    if (surfaces.particle_surface[p] != 0) continue;
    (sim::detail::particle_triangle_allowed(m, surfaces, p, 0) ? a_pairs : a_excluded) += 1;
  }
  CHECK(a_pairs > 0);
  CHECK(a_excluded >= 3);

  // At rest (no gravity, apart): a has self collision on and still no contact with itself.
  sim::State s = sim::make_initial_state(m);
  sim::ContactBuffer out;
  sim::generate_contacts(m, s, 0.01, 0.01, scratch, out);
  int self = 0;
  for (const sim::Contact& c : out.contacts)
    if (c.b.kind == sim::ContactSide::ParticleFace && c.a.kind == sim::ContactSide::Particle) ++self;
  CHECK(self == 0);
}

TEST_CASE("surfaces: free particles meet every triangle, a soft body's interior particles none",
          "[unit][collision][softcontact]") {
  test::BarAndCube setup = test::bar_and_cube(soft_material());
  const int rope = static_cast<int>(setup.spec.particles.size());
  for (int k = 0; k < 2; ++k) {  // two loose particles joined by a distance row, away from both bodies
    sim::ParticleSpec p;
    p.position = Vec3(0.05 * k, 0, 1);
    p.radius = 0.01;
    setup.spec.particles.push_back(p);
  }
  sim::DistanceSpec d;
  d.particle_a = rope;
  d.particle_b = rope + 1;
  setup.spec.distances.push_back(d);
  const sim::Model m = test::compile(setup.spec);
  sim::detail::ParticleSurfaces surfaces;
  REQUIRE(sim::detail::update_particle_surfaces(m, {}, surfaces));
  const int triangles = static_cast<int>(m.particle_triangles.size());
  // The 2 x 2 x 2 cube b has one interior particle (its centre), a corner of tets only.
  int inside = 0;
  for (int p = setup.b; p < rope; ++p) {
    if (surfaces.particle_surface[p] != sim::detail::kInsideParticle) continue;
    ++inside;
    for (int t = 0; t < triangles; ++t) CHECK_FALSE(sim::detail::particle_triangle_allowed(m, surfaces, p, t));
  }
  CHECK(inside == 1);
  for (int p = rope; p < rope + 2; ++p) {
    CHECK(surfaces.particle_surface[p] == sim::detail::kFreeParticle);
    int allowed = 0;
    for (int t = 0; t < triangles; ++t) allowed += sim::detail::particle_triangle_allowed(m, surfaces, p, t) ? 1 : 0;
    CHECK(allowed == triangles);
  }
}
