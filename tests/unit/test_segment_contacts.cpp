// Rope segments against soft-body edges (collision/particle_edge_contacts.hpp, "Segments") and
// against shapes (collision/particle_faces_sdf.hpp): the links between free particles
// (ParticleSurfaces::segments) are capsules that meet surface edges and corners and the shapes'
// distance fields, as ContactSide::ParticleSegment rows over their two particles. Oracles:
//   - which distance constraints are segments: a rope's links and a distance cloth's structural
//     and shear links, never a bending link (halved by a particle on it), a repeat, or a link with a
//     particle of a soft body or of a triangle;
//   - a link lying across a one-cell cube's ridge: one contact on the ridge, its gap the
//     closed-form distance between the two lines less the radii, its rows' gradients central
//     differences of it, its weights (1 − t, t) the link's closest point;
//   - a link passing over a cube's corner: one contact (not one per edge at the corner), at the
//     corner's distance less the radii, along the corner's diagonal;
//   - pairs: a segment meets every surface edge and the other ropes' segments, its own rope's only
//     with self collision and then none in its one-ring;
//   - two ropes' links crossing: one contact, its gap the lines' distance less the radii, its
//     weights the lines' closest points (normal equations), its gradients central differences;
//   - a rope's particle on another rope's link, and an end on an end: one contact each (through
//     the particle's first link), all the weight on the particle;
//   - two parallel ropes side by side: one contact per particle within reach of the other rope;
//   - a self-colliding rope folded in a hairpin: its facing particles touch, its bend does not;
//   - a link across a rigid rod (a capsule), a box's edge and over a sphere: one contact each at
//     the closed-form distance less the radii, at the closest point's weights; a link lying on a
//     box's face none (its particles have it), nor with the stage off.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>

#include "collision/collide.hpp"
#include "collision/particle_edge_contacts.hpp"
#include "collision/particle_surfaces.hpp"
#include "constraint/row_assembly.hpp"
#include "core/kinematics.hpp"
#include "sim/contact_side_particles.hpp"
#include "sim/scene_io.hpp"
#include "sim/soft_body.hpp"
#include "support/crossed_cubes.hpp"
#include "support/row_gradient_check.hpp"
#include "support/scene_builders.hpp"

using sim::Real;
using sim::Vec3;

namespace {

constexpr Real kCubeRadius = 0.002, kRopeRadius = 0.005;

sim::SoftMaterialSpec stiff_material() {
  sim::SoftMaterialSpec m;
  m.youngs_modulus = 1e6;
  m.poisson_ratio = 0.3;
  return m;
}

// A one-cell soft cube of edge `size` at the origin, turned by `rot`; returns its first particle.
int add_cube(sim::SceneSpec& spec, Real size, const sim::Quat& rot) {
  sim::SoftBodyPlacement place;
  place.particle_radius = kCubeRadius;
  place.pose.rot = rot;
  std::string error;
  const int first = sim::add_soft_body(spec, sim::box_tet_mesh(Vec3::Constant(size), 1, 1, 1), stiff_material(), place,
                                       "cube", error);
  REQUIRE(error.empty());
  return first;
}

// A rope of free particles (radius kRopeRadius) through `points`, one distance constraint per link;
// returns its first particle.
int add_rope(sim::SceneSpec& spec, std::initializer_list<Vec3> points) {
  const int first = static_cast<int>(spec.particles.size());
  for (const Vec3& x : points) {
    sim::ParticleSpec p;
    p.position = x;
    p.radius = kRopeRadius;
    p.mass = 0.01;
    spec.particles.push_back(p);
    const int i = static_cast<int>(spec.particles.size()) - 1;
    if (i == first) continue;
    sim::DistanceSpec d;
    d.particle_a = i - 1;
    d.particle_b = i;
    spec.distances.push_back(d);
  }
  return first;
}

sim::DistanceSpec link(int a, int b) {
  sim::DistanceSpec d;
  d.particle_a = a;
  d.particle_b = b;
  return d;
}

Vec3 particle_at(const sim::Model& m, const Real* q, int p) {
  const Real* x = q + m.particle_coord(p);
  return Vec3(x[0], x[1], x[2]);
}

// The segment contacts generated at the initial state (a side of theirs a segment).
sim::ContactBuffer segment_contacts(const sim::Model& m, bool segments_on = true) {
  const sim::State s = sim::make_initial_state(m);
  sim::detail::CollisionScratch scratch;
  scratch.segments = segments_on;
  sim::ContactBuffer all, mine;
  sim::generate_contacts(m, s, m.dt, 0.01, scratch, all);
  for (const sim::Contact& c : all.contacts)
    if (c.a.kind == sim::ContactSide::ParticleSegment || c.b.kind == sim::ContactSide::ParticleSegment)
      mine.contacts.push_back(c);
  return mine;
}

}  // namespace

TEST_CASE("segments: a rope's and a distance cloth's links, not bending links, repeats or surface particles",
          "[unit][collision][softcontact]") {
  sim::SceneSpec spec;
  spec.gravity = Vec3::Zero();
  add_cube(spec, 0.1, sim::Quat::Identity());
  const int cube_particles = static_cast<int>(spec.particles.size());
  const int first_distance = static_cast<int>(spec.distances.size());
  // A bent rope of four particles with its three links, a bending link over two of them, a repeat
  // of its first link and a link from its end to a cube corner.
  const int rope = add_rope(spec, {Vec3(0.3, 0, 0), Vec3(0.35, 0, 0), Vec3(0.4, 0, 0), Vec3(0.4, 0.05, 0)});
  spec.distances.push_back(link(rope, rope + 2));      // bending: rope + 1 lies on it
  spec.distances.push_back(link(rope + 1, rope));      // a repeat, either order
  spec.distances.push_back(link(rope + 3, 0));         // to the cube: not free
  spec.distances.push_back(link(rope + 1, rope + 3));  // across the bend: nothing lies on it
  const sim::Model m = test::compile(spec);
  sim::detail::ParticleSurfaces surfaces;
  sim::detail::update_particle_surfaces(m, {}, surfaces);
  const int d0 = first_distance;
  const std::vector<int> expected{d0, d0 + 1, d0 + 2, d0 + 6};
  CHECK(surfaces.segments == expected);
  for (int p = rope; p < rope + 4; ++p) CHECK(surfaces.particle_surface[p] == sim::detail::kFreeParticle);
  CHECK(surfaces.particle_surface[cube_particles - 1] >= 0);

  // A 2 × 2 distance cloth with bending links: its 12 structural and 8 shear links are segments,
  // its 6 bending links are not.
  auto parsed = sim::parse_scene_xml(R"(<scene><cloth size="0.2 0.2" segments="2 2" bend="true"/></scene>)", "cloth.xml");
  REQUIRE(parsed.ok());
  sim::SceneSpec cloth = parsed.value();
  REQUIRE(cloth.distances.size() == 12 + 8 + 6);
  add_cube(cloth, 0.05, sim::Quat::Identity());  // a surface for the segments to meet
  const sim::Model mc = test::compile(cloth);
  sim::detail::update_particle_surfaces(mc, {}, surfaces);
  CHECK(surfaces.segments.size() == 20);
  for (int d : surfaces.segments) {
    const Real length = mc.distance_rest[d];
    CHECK(length < 0.15);  // a cell's edge (0.1) or diagonal (0.141), never a bending link (0.2)
  }
}

TEST_CASE("a rope link across a soft cube's ridge: one contact at the lines' distance, its gradients central differences",
          "[unit][collision][constraint][jacobian][softcontact]") {
  const Real size = 0.1, ridge = size / std::sqrt(Real(2));  // the turned cube's ridge height
  const Real thickness = kCubeRadius + kRopeRadius;
  for (Real gap : {Real(0.009), Real(0.006), Real(-0.002)}) {
    INFO("line gap " << gap);
    sim::SceneSpec spec;
    spec.gravity = Vec3::Zero();
    spec.dt = 1.0 / 120;
    add_cube(spec, size, sim::Quat(Eigen::AngleAxis<Real>(M_PI / 4, Vec3::UnitX())));  // ridge along x at z = ridge
    const int rope = add_rope(spec, {Vec3(0.02, -0.12, ridge + gap), Vec3(0.02, 0.08, ridge + gap)});
    const sim::Model m = test::compile(spec);
    const sim::State s = sim::make_initial_state(m);
    const sim::ContactBuffer mine = segment_contacts(m);
    CHECK(segment_contacts(m, false).size() == 0);
    int ridge_ends[2] = {-1, -1};
    for (int p = 0; p < rope; ++p)
      if (std::abs(m.particle_initial_position[p].z() - ridge) < 1e-9) (ridge_ends[0] < 0 ? ridge_ends[0] : ridge_ends[1]) = p;
    REQUIRE(ridge_ends[1] >= 0);
    // The contact on the ridge: side a a point of the ridge (weight on its two ends only). Above
    // the ridge it is the only one; 2 mm below, the link leaves the body through both slopes, and
    // near a slope's diagonal it is outside, within reach of it (two more, their gaps positive).
    std::vector<sim::Contact> on_ridge;
    for (const sim::Contact& k : mine.contacts) {
      const sim::ContactSideParticles w = sim::contact_side_particles(m, k.a);
      Real on = 0;
      for (int i = 0; i < w.count; ++i)
        if (w.particle[i] == ridge_ends[0] || w.particle[i] == ridge_ends[1]) on += w.weight[i];
      if (std::abs(on - 1) < 1e-12) on_ridge.push_back(k);
      else CHECK(k.initial_gap > 0.005);
    }
    if (gap > 0) CHECK(mine.size() == 1);
    REQUIRE(on_ridge.size() == 1);
    const sim::Contact& c = on_ridge.front();
    REQUIRE(c.a.kind == sim::ContactSide::ParticleFace);
    CHECK(c.b.index == static_cast<int>(m.distance_count) - 1);
    auto exact = [&](const Real* q) {
      return test::signed_line_distance(particle_at(m, q, rope), particle_at(m, q, rope + 1),
                                        particle_at(m, q, ridge_ends[0]), particle_at(m, q, ridge_ends[1]), Vec3::UnitZ()) -
             thickness;
    };
    CHECK(c.thickness == Approx(thickness).margin(1e-15));
    CHECK(c.initial_gap == Approx(exact(s.q.data())).margin(1e-12));
    CHECK(c.normal.z() == Approx(-1).margin(1e-12));  // from the rope (b) to the ridge (a): down, either side of it
    // The link's weights are its closest point to the ridge: it crosses x = 0.02 at y where the
    // ridge (y = 0) is, t = 0.12 / 0.2.
    CHECK(c.b.local_point[0] == Approx(0.4).margin(1e-9));
    CHECK(c.b.local_point[1] == Approx(0.6).margin(1e-9));
    CHECK(c.b.local_point[2] == 0);
    sim::ContactBuffer one;
    one.contacts.push_back(c);
    sim::RowSet rows;
    sim::assemble_rows(m, one, rows);
    const int r = rows.first_normal;
    REQUIRE(rows.count == r + 3);
    CHECK(rows.row_entry_first[r + 1] - rows.row_entry_first[r] == 5);  // the face's three corners, the link's two ends
    sim::Configuration config;
    config.assign(m, s.q.data());
    sim::evaluate_rows(m, one, config, {}, rows);
    CHECK(rows.row_value[r] == Approx(c.initial_gap).margin(1e-12));
    test::check_row_gradient(m, s, rows, r, exact, 5, 4, 1e-7, 1e-6);
  }
}

TEST_CASE("a rope link passing over a soft cube's corner: one contact at the corner's distance", "[unit][collision][softcontact]") {
  const Real size = 0.1, h = size / 2, g = 0.004;
  sim::SceneSpec spec;
  spec.gravity = Vec3::Zero();
  add_cube(spec, size, sim::Quat::Identity());
  const Vec3 diagonal = Vec3::Ones().normalized(), along = Vec3(1, -1, 0).normalized();
  const Vec3 centre = Vec3::Constant(h) + (g + kCubeRadius + kRopeRadius) * diagonal;
  const int rope = add_rope(spec, {centre - 0.07 * along, centre + 0.13 * along});
  const sim::Model m = test::compile(spec);
  const sim::ContactBuffer mine = segment_contacts(m);
  REQUIRE(mine.size() == 1);  // three edges and a face diagonal meet at the corner: one keeps it
  const sim::Contact& c = mine.contacts.front();
  CHECK(c.initial_gap == Approx(g).margin(1e-12));
  CHECK((c.normal + diagonal).norm() < 1e-9);  // from the link to the corner
  CHECK(c.b.local_point[1] == Approx(0.35).margin(1e-9));
  // Side a is the corner itself: weight 1 on the particle at (h, h, h).
  const sim::ContactSideParticles corner = sim::contact_side_particles(m, c.a);
  int at_corner = -1;
  for (int k = 0; k < corner.count; ++k)
    if (corner.weight[k] > 0.5) at_corner = corner.particle[k];
  REQUIRE(at_corner >= 0);
  CHECK(at_corner < rope);
  CHECK((m.particle_initial_position[at_corner] - Vec3::Constant(h)).norm() < 1e-12);
  CHECK(corner.weight[0] + corner.weight[1] + corner.weight[2] == Approx(1).margin(1e-12));
}

TEST_CASE("segment pairs: every surface edge, other ropes' segments, the rope's own only with self collision",
          "[unit][collision][softcontact]") {
  for (bool self : {false, true}) {
    INFO("self collision " << self);
    sim::SceneSpec spec;
    add_cube(spec, 0.1, sim::Quat::Identity());
    const int first = add_rope(spec, {Vec3(0.3, 0, 0), Vec3(0.4, 0, 0), Vec3(0.5, 0, 0), Vec3(0.6, 0, 0), Vec3(0.7, 0, 0)});
    add_rope(spec, {Vec3(0.3, 0.1, 0), Vec3(0.4, 0.1, 0)});
    if (self) spec.self_collision_particles.push_back({first, 5});
    const sim::Model m = test::compile(spec);
    sim::detail::ParticleSurfaces surfaces;
    sim::detail::update_particle_surfaces(m, {}, surfaces);
    REQUIRE(surfaces.segments.size() == 5);
    CHECK(surfaces.segment_rope == std::vector<int>{0, 0, 0, 0, 1});
    CHECK(surfaces.rope_self_collision == std::vector<std::uint8_t>{std::uint8_t(self), 0});
    auto segments_at = [&](int p) { return std::vector<int>(surfaces.segments_begin(p), surfaces.segments_end(p)); };
    CHECK(segments_at(first + 1) == std::vector<int>{0, 1});
    CHECK(segments_at(first + 4) == std::vector<int>{3});
    CHECK(segments_at(0).empty());  // the cube's
    const int edges = static_cast<int>(m.particle_edge_key.size());
    auto allowed = [&](int k, int j) { return sim::detail::edge_pair_allowed(m, surfaces, edges + k, edges + j); };
    for (int e = 0; e < edges; ++e)
      for (int k = 0; k < 5; ++k) CHECK(sim::detail::edge_pair_allowed(m, surfaces, e, edges + k));
    for (int k = 0; k < 4; ++k) CHECK(allowed(k, 4));  // the other rope's link
    // The rope's own links: never a link sharing a particle or linked to it (its one-ring), the
    // rest with self collision only.
    for (int k = 0; k < 4; ++k)
      for (int j = 0; j < 4; ++j) CHECK(allowed(k, j) == (self && std::abs(k - j) >= 3));
  }
}

namespace {

// The closest points' parameters (s, t) of the lines a0 + s (a1 − a0) and b0 + t (b1 − b0): the
// normal equations of min |a0 + s da − b0 − t db|².
std::pair<Real, Real> line_parameters(const Vec3& a0, const Vec3& a1, const Vec3& b0, const Vec3& b1) {
  const Vec3 da = a1 - a0, db = b1 - b0, r = a0 - b0;
  const Real aa = da.dot(da), ab = da.dot(db), bb = db.dot(db), det = aa * bb - ab * ab;
  return {(ab * db.dot(r) - bb * da.dot(r)) / det, (aa * db.dot(r) - ab * da.dot(r)) / det};
}

// The rows of contact c alone, evaluated at state s.
sim::RowSet rows_of(const sim::Model& m, const sim::State& s, const sim::Contact& c) {
  sim::ContactBuffer one;
  one.contacts.push_back(c);
  sim::RowSet rows;
  sim::assemble_rows(m, one, rows);
  sim::Configuration config;
  config.assign(m, s.q.data());
  sim::evaluate_rows(m, one, config, {}, rows);
  return rows;
}

}  // namespace

TEST_CASE("two ropes' links crossing: one contact at the lines' distance, its gradients central differences",
          "[unit][collision][constraint][jacobian][softcontact][rope]") {
  const Real thickness = 2 * kRopeRadius;
  for (Real gap : {Real(0.004), Real(0.001), Real(-0.003)}) {
    INFO("gap " << gap);
    sim::SceneSpec spec;
    spec.gravity = Vec3::Zero();
    spec.dt = 1.0 / 120;
    // Rope a slants over rope b, neither along an axis; their lines pass `gap` + the radii apart.
    const Vec3 b0(0.01, -0.1, 0), b1(0.03, 0.1, 0.004);
    const Vec3 a0(-0.08, -0.01, 0), a1(0.12, 0.03, 0.002);
    Vec3 normal = (a1 - a0).cross(b1 - b0).normalized();  // the lines' common normal, up
    if (normal.z() < 0) normal = -normal;
    const Vec3 lift = (gap + thickness - test::signed_line_distance(a0, a1, b0, b1, Vec3::UnitZ())) * normal;
    const int a = add_rope(spec, {a0 + lift, a1 + lift});
    const int b = add_rope(spec, {b0, b1});
    const sim::Model m = test::compile(spec);
    const sim::State s = sim::make_initial_state(m);
    const sim::ContactBuffer mine = segment_contacts(m);
    CHECK(segment_contacts(m, false).size() == 0);
    REQUIRE(mine.size() == 1);
    const sim::Contact& c = mine.contacts.front();
    REQUIRE(c.a.kind == sim::ContactSide::ParticleSegment);
    REQUIRE(c.b.kind == sim::ContactSide::ParticleSegment);
    CHECK(c.a.index == 0);  // rope a's link (distance 0) is side a
    CHECK(c.b.index == 1);
    auto exact = [&](const Real* q) {
      return test::signed_line_distance(particle_at(m, q, a), particle_at(m, q, a + 1), particle_at(m, q, b),
                                        particle_at(m, q, b + 1), Vec3::UnitZ()) -
             thickness;
    };
    CHECK(c.thickness == Approx(thickness).margin(1e-15));
    CHECK(c.initial_gap == Approx(gap).margin(1e-12));
    CHECK(c.initial_gap == Approx(exact(s.q.data())).margin(1e-12));
    CHECK(c.normal.z() > 0.99);  // from b (under) up to a
    const auto [sa, tb] = line_parameters(m.particle_initial_position[a], m.particle_initial_position[a + 1],
                                          m.particle_initial_position[b], m.particle_initial_position[b + 1]);
    CHECK(c.a.local_point[1] == Approx(sa).margin(1e-12));
    CHECK(c.b.local_point[1] == Approx(tb).margin(1e-12));
    const sim::RowSet rows = rows_of(m, s, c);
    const int r = rows.first_normal;
    REQUIRE(rows.count == r + 3);
    CHECK(rows.row_entry_first[r + 1] - rows.row_entry_first[r] == 4);  // the two links' four particles
    CHECK(rows.row_value[r] == Approx(c.initial_gap).margin(1e-12));
    test::check_row_gradient(m, s, rows, r, exact, 7, 4, 1e-7, 1e-6);
  }
}

namespace {

// Two ropes through the given points (radius kRopeRadius, no gravity), their first particles and
// the one segment contact between them at the initial state.
struct TwoRopes {
  sim::Model model;
  int a = 0, b = 0;
  sim::Contact contact;
};

TwoRopes two_ropes_touching_once(std::initializer_list<Vec3> rope_a, std::initializer_list<Vec3> rope_b) {
  sim::SceneSpec spec;
  spec.gravity = Vec3::Zero();
  TwoRopes out;
  out.a = add_rope(spec, rope_a);
  out.b = add_rope(spec, rope_b);
  out.model = test::compile(spec);
  const sim::ContactBuffer mine = segment_contacts(out.model);
  REQUIRE(mine.size() == 1);
  out.contact = mine.contacts.front();
  return out;
}

}  // namespace

TEST_CASE("a rope's particle on another rope: one contact, not one per link at it, and an end on an end: one particle pair",
          "[unit][collision][softcontact][rope]") {
  const Real g = 0.003, h = 2 * kRopeRadius + g;  // the particle's height over the other rope's axis
  SECTION("a particle of a V-shaped rope on a link's middle") {
    const TwoRopes k = two_ropes_touching_once({Vec3(-0.1, 0, 0.03 + h), Vec3(0, 0, h), Vec3(0.1, 0, 0.03 + h)},
                                               {Vec3(0, -0.1, 0), Vec3(0, 0.1, 0)});
    CHECK(k.contact.initial_gap == Approx(g).margin(1e-12));
    CHECK(k.contact.normal.z() == Approx(1).margin(1e-12));
    const sim::ContactSideParticles pa = sim::contact_side_particles(k.model, k.contact.a);
    const sim::ContactSideParticles pb = sim::contact_side_particles(k.model, k.contact.b);
    REQUIRE(pa.count == 2);
    CHECK(pa.particle[1] == k.a + 1);  // the V's apex, through its first link, with all the weight
    CHECK(pa.weight[1] == Approx(1).margin(1e-12));
    CHECK(pb.weight[0] == Approx(0.5).margin(1e-12));
    CHECK(pb.weight[1] == Approx(0.5).margin(1e-12));
  }
  SECTION("one rope's end over another's end") {
    const TwoRopes k = two_ropes_touching_once({Vec3(-0.1, 0, 0.05), Vec3(0, 0, h)}, {Vec3(0, 0, 0), Vec3(0, 0.1, -0.02)});
    CHECK(k.contact.initial_gap == Approx(g).margin(1e-12));
    CHECK(k.contact.normal.z() == Approx(1).margin(1e-12));
    const sim::ContactSideParticles pa = sim::contact_side_particles(k.model, k.contact.a);
    const sim::ContactSideParticles pb = sim::contact_side_particles(k.model, k.contact.b);
    CHECK(pa.particle[1] == k.a + 1);
    CHECK(pa.weight[1] == Approx(1).margin(1e-12));
    CHECK(pb.particle[0] == k.b);
    CHECK(pb.weight[0] == Approx(1).margin(1e-12));
  }
}

TEST_CASE("two ropes' particles at one point: one contact, a finite unit normal", "[unit][collision][softcontact][rope]") {
  for (const Vec3& second : {Vec3(0, 0.1, 0), Vec3(0.1, 0, 0)}) {  // across, and straight on (parallel)
    INFO("rope b towards " << second.transpose());
    const TwoRopes k = two_ropes_touching_once({Vec3(-0.1, 0, 0), Vec3(0, 0, 0)}, {Vec3(0, 0, 0), second});
    CHECK(k.contact.initial_gap == Approx(-2 * kRopeRadius).margin(1e-15));
    CHECK(k.contact.normal.allFinite());
    CHECK(k.contact.normal.norm() == Approx(1).margin(1e-12));
  }
}

TEST_CASE("two parallel ropes side by side touch at their particles, each once", "[unit][collision][softcontact][rope]") {
  // Rope a's particles at x = 0, 0.1, 0.2; rope b's at x = 0.05, 0.15, 0.25, a gap g beside it.
  // Within reach of the other rope: a's particles at 0.1 and 0.2 (on b's links) and b's at 0.05
  // and 0.15 (on a's); the outer ends are 5 cm from the other rope's nearest point.
  const Real g = 0.002;
  sim::SceneSpec spec;
  spec.gravity = Vec3::Zero();
  const Real y = 2 * kRopeRadius + g;
  const int a = add_rope(spec, {Vec3(0, 0, 0), Vec3(0.1, 0, 0), Vec3(0.2, 0, 0)});
  const int b = add_rope(spec, {Vec3(0.05, y, 0), Vec3(0.15, y, 0), Vec3(0.25, y, 0)});
  const sim::Model m = test::compile(spec);
  const sim::ContactBuffer mine = segment_contacts(m);
  REQUIRE(mine.size() == 4);
  std::vector<int> at;  // the particle of each contact's end side
  for (const sim::Contact& c : mine.contacts) {
    CHECK(c.initial_gap == Approx(g).margin(1e-12));
    CHECK(c.normal.y() == Approx(-1).margin(1e-12));  // from b to a
    for (const sim::ContactSide* side : {&c.a, &c.b}) {
      const sim::ContactSideParticles w = sim::contact_side_particles(m, *side);
      for (int k = 0; k < w.count; ++k)
        if (w.weight[k] > 1 - 1e-12) at.push_back(w.particle[k]);
    }
  }
  std::sort(at.begin(), at.end());
  CHECK(at == std::vector<int>{a + 1, a + 2, b, b + 1});
}

TEST_CASE("a self-colliding rope folded in a hairpin: its legs touch at their particles, not without self collision",
          "[unit][collision][softcontact][rope]") {
  // Legs 8 mm apart (radii 5 mm: 2 mm deep) joined by an 8 mm link at x = 0.2.
  const Real w = 0.008;
  for (bool self : {false, true}) {
    INFO("self collision " << self);
    sim::SceneSpec spec;
    spec.gravity = Vec3::Zero();
    const int p = add_rope(spec, {Vec3(0, 0, 0), Vec3(0.1, 0, 0), Vec3(0.2, 0, 0), Vec3(0.2, w, 0), Vec3(0.1, w, 0),
                                  Vec3(0, w, 0)});
    if (self) spec.self_collision_particles.push_back({p, 6});
    const sim::Model m = test::compile(spec);
    const sim::ContactBuffer mine = segment_contacts(m);
    if (!self) {
      CHECK(mine.size() == 0);
      continue;
    }
    // Particles 1–4 and 0–5 face each other; the links at the bend (1–2 against 3–4) are in each
    // other's one-ring (2–3 is a link) and never meet.
    REQUIRE(mine.size() == 2);
    for (const sim::Contact& c : mine.contacts) {
      CHECK(c.initial_gap == Approx(w - 2 * kRopeRadius).margin(1e-12));
      CHECK(std::abs(c.normal.y()) == Approx(1).margin(1e-12));
    }
  }
}

namespace {

// A scene of world shapes (XML, in `world`) and one link of two free particles (radius
// kRopeRadius) from a to b; the link's contacts with the shapes at the initial state.
struct LinkOverShape {
  sim::Model model;
  sim::ContactBuffer contacts;  // the link's segment contacts
};

LinkOverShape link_over(const std::string& world, const Vec3& a, const Vec3& b, bool segments_on = true) {
  auto parsed = sim::parse_scene_xml("<scene gravity=\"0 0 0\"><world>" + world + "</world></scene>", "link.xml");
  REQUIRE(parsed.ok());
  sim::SceneSpec spec = parsed.value();
  add_rope(spec, {a, b});
  LinkOverShape out{test::compile(spec), {}};
  out.contacts = segment_contacts(out.model, segments_on);
  return out;
}

}  // namespace

TEST_CASE("a rope link across a rigid rod, a box edge and a sphere: one contact at the closed-form distance",
          "[unit][collision][softcontact]") {
  const Real r = kRopeRadius;
  SECTION("a capsule rod along x, the link slanting across it") {
    const Real rod = 0.01, z = 0.3;
    const Vec3 a(0.05, -0.2, z + 0.03), b(0.05, 0.2, z + 0.01);
    const LinkOverShape k = link_over(R"(<capsule pos="0 0 0.3" euler="0 90 0" radius="0.01" half_length="0.3"/>)", a, b);
    REQUIRE(k.contacts.size() == 1);
    const sim::Contact& c = k.contacts.contacts.front();
    CHECK(c.b.kind == sim::ContactSide::World);
    const Real lines = test::signed_line_distance(a, b, Vec3(-1, 0, z), Vec3(1, 0, z), Vec3::UnitZ());
    CHECK(c.initial_gap == Approx(lines - rod - r).margin(1e-8));
    // The closest point of the link to the rod's axis: where the link's direction is normal to the
    // line to the axis, t = ((a − axis point)·… ) from the 2-D problem in the y–z plane.
    const Vec3 d = b - a;
    const Real t = -(a.y() * d.y() + (a.z() - z) * d.z()) / (d.y() * d.y() + d.z() * d.z());
    CHECK(c.a.local_point[1] == Approx(t).margin(1e-4));
    CHECK(c.a.local_point[0] + c.a.local_point[1] == Approx(1).margin(1e-15));
    CHECK(c.normal.z() > 0.99);  // from the rod (b) up to the link (a)
    CHECK(link_over(R"(<capsule pos="0 0 0.3" euler="0 90 0" radius="0.01" half_length="0.3"/>)", a, b, false).contacts.size() == 0);
  }
  SECTION("a box's top edge, the link's ends on the top face and beyond the side") {
    // Box [-0.1, 0.1]³ about (0, 0, 0.1): its top edge along y at x = 0.1, z = 0.2; the link from
    // 4 cm above the top face down past the side passes 9.6 mm from the edge's line.
    const Vec3 a(0.0, 0.01, 0.24), b(0.2, 0.03, 0.18);
    const LinkOverShape k = link_over(R"(<box pos="0 0 0.1" size="0.2 0.2 0.2"/>)", a, b);
    REQUIRE(k.contacts.size() == 1);
    const sim::Contact& c = k.contacts.contacts.front();
    const Real lines = test::signed_line_distance(a, b, Vec3(0.1, -1, 0.2), Vec3(0.1, 1, 0.2), Vec3(1, 0, 1));
    CHECK(c.initial_gap == Approx(lines - r).margin(1e-8));
    // The closest point to the edge, in the x–z plane: t = ((e − a)·d) / |d|² with e = (0.1, 0.2).
    const Real dx = b.x() - a.x(), dz = b.z() - a.z();
    const Real t = ((0.1 - a.x()) * dx + (0.2 - a.z()) * dz) / (dx * dx + dz * dz);
    CHECK(c.a.local_point[1] == Approx(t).margin(1e-4));
  }
  SECTION("a sphere under the link's middle") {
    const Real radius = 0.1;
    const Vec3 centre(0, 0, 0.5), a(-0.3, 0.02, 0.61), b(0.3, 0.02, 0.61);
    const LinkOverShape k = link_over(R"(<sphere pos="0 0 0.5" radius="0.1"/>)", a, b);
    REQUIRE(k.contacts.size() == 1);
    const sim::Contact& c = k.contacts.contacts.front();
    const Vec3 closest(0, 0.02, 0.61);
    CHECK(c.initial_gap == Approx((closest - centre).norm() - radius - r).margin(1e-8));
    CHECK(c.a.local_point[1] == Approx(0.5).margin(1e-4));
    CHECK((c.normal - (closest - centre).normalized()).norm() < 1e-4);  // the search's bracket: 1e-5 of the link
  }
  SECTION("a link lying on a box's top face: its particles' contacts, none of its own") {
    const LinkOverShape k = link_over(R"(<box pos="0 0 0.1" size="0.2 0.2 0.2"/>)", Vec3(-0.05, 0, 0.2 + r + 0.001),
                                      Vec3(0.05, 0.01, 0.2 + r + 0.001));
    CHECK(k.contacts.size() == 0);
  }
}

TEST_CASE("loose particles: one contact against each other, against a link's middle and over a rope's particle",
          "[unit][collision][softcontact][rope]") {
  const Real g = 0.002, r = kRopeRadius;
  sim::SceneSpec spec;
  spec.gravity = Vec3::Zero();
  const int rope = add_rope(spec, {Vec3(-0.1, 0, 0), Vec3(0, 0, 0), Vec3(0.1, 0, 0)});
  auto grain = [&](const Vec3& x) {
    sim::ParticleSpec p;
    p.position = x;
    p.radius = r;
    p.mass = 0.01;
    spec.particles.push_back(p);
    return static_cast<int>(spec.particles.size()) - 1;
  };
  const int on_link = grain(Vec3(-0.05, 0, 2 * r + g));     // over the first link's middle
  const int on_particle = grain(Vec3(0, 0.0, -2 * r - g));  // under the rope's middle particle
  const int first = grain(Vec3(0.5, 0, 0)), second = grain(Vec3(0.5, 0, 2 * r + g));  // two grains, one on the other
  const sim::Model m = test::compile(spec);
  sim::detail::ParticleSurfaces surfaces;
  sim::detail::update_particle_surfaces(m, {}, surfaces);
  CHECK(surfaces.loose_particles == std::vector<int>{on_link, on_particle, first, second});
  // A shell's particles without faces are free, but its elements hold them: not loose.
  auto shell = sim::parse_scene_xml(R"(<scene><cloth model="membrane" faces="false" size="0.2 0.2" segments="2 2"/></scene>)", "shell.xml");
  REQUIRE(shell.ok());
  const sim::Model ms = test::compile(shell.value());
  REQUIRE(ms.particle_triangles.empty());
  sim::detail::ParticleSurfaces shell_surfaces;
  sim::detail::update_particle_surfaces(ms, {}, shell_surfaces);
  CHECK(shell_surfaces.loose_particles.empty());
  const sim::ContactBuffer all = [&] {
    const sim::State s = sim::make_initial_state(m);
    sim::detail::CollisionScratch scratch;
    sim::ContactBuffer out;
    sim::generate_contacts(m, s, m.dt, 0.01, scratch, out);
    return out;
  }();
  REQUIRE(all.size() == 3);
  for (const sim::Contact& c : all.contacts) {
    CHECK(c.initial_gap == Approx(g).margin(1e-12));
    CHECK(c.b.kind == sim::ContactSide::Particle);  // the loose particle, side b (after the segments)
    const sim::ContactSideParticles pa = sim::contact_side_particles(m, c.a);
    if (c.b.index == on_link) {
      CHECK(c.normal.z() == Approx(-1).margin(1e-12));  // from the grain down to the link
      REQUIRE(pa.count == 2);
      CHECK(pa.weight[0] == Approx(0.5).margin(1e-12));
    } else if (c.b.index == on_particle) {
      CHECK(c.normal.z() == Approx(1).margin(1e-12));
      CHECK(c.a.index == 0);  // through the middle particle's first link only
      CHECK(pa.particle[1] == rope + 1);
      CHECK(pa.weight[1] == Approx(1).margin(1e-12));
    } else {
      CHECK(c.b.index == second);
      CHECK(c.a.kind == sim::ContactSide::Particle);
      CHECK(c.a.index == first);
      CHECK(c.normal.z() == Approx(-1).margin(1e-12));
    }
  }
  sim::detail::CollisionScratch off;
  off.segments = false;
  sim::ContactBuffer none;
  sim::generate_contacts(m, sim::make_initial_state(m), m.dt, 0.01, off, none);
  CHECK(none.size() == 0);
}
