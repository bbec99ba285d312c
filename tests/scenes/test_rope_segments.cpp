// Rope links against rigid shapes (collision/particle_faces_sdf.hpp, the segment pass) and
// against other ropes (collision/particle_edge_contacts.hpp, rope against rope): a rope
// whose particles lie farther apart than the shape under it is held by its links, each a capsule
// of its particles' radius, not only at its particles. Scenes through the XML, as a user writes
// them; physical oracles:
//   - a two-particle link 40 cm long dropped across a horizontal rod (a world capsule, r 1 cm)
//     balances on it: its middle rests at the two radii over the rod's axis, level, for 1.5 s, the
//     contact carrying its weight, and the steps at rest allocate nothing; without the segments it
//     falls past the rod to the ground;
//   - a four-link rope (25 cm links) dropped across a 6 cm thin wall hangs on both sides, its
//     links resting on the wall's top edges at their radius (sampled: the deepest point of any
//     link in the wall); without the segments the links from the middle particle cut through the
//     wall. (The links are rigid: the hanging ends lever the middle links about the edges and lift
//     the middle particle off the top, as a chain of rigid bars would; a finer rope bends there.)
//   - a coarse rope dropped across another lying on the ground (their links crossing inside both,
//     no particle near the other rope) rests on it: its middle link at three radii over the
//     ground, the centre lines two radii apart; without the segments it lies through it;
//   - three loose particles dropped in a column stack at 1, 3 and 5 radii; without their
//     contacts they lie on the ground through each other;
//   - a self-colliding rope dropped upright folds into a heap whose links (outside each other's
//     one-ring) stay two radii apart, less 1 mm; without self collision they pass through.
//     (Most of its steps reach the Newton cap, as the same rope's without self collision do:
//     friction on the ground at stick–slip; reported, not asserted.)
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>
#ifdef __GLIBC__
#include <malloc.h>
#endif

#include "collision/collide.hpp"
#include "sim/scene_io.hpp"
#include "sim/step.hpp"
#include "support/scene_builders.hpp"

using sim::Real;
using sim::Vec3;

namespace {

constexpr Real kG = 9.81;

sim::Model scene(const std::string& world, const std::string& rope) {
  auto parsed = sim::parse_scene_xml(R"(<scene dt="0.0083" gravity="0 0 -9.81"><material name="m" friction="0.5"/>
                                         <world material="m"><plane/>)" +
                                         world + "</world>" + rope + "</scene>",
                                     "rope.xml");
  INFO((parsed.ok() ? std::string() : parsed.error()));
  REQUIRE(parsed.ok());
  return test::compile(parsed.value());
}

Vec3 position(const sim::Model& m, const sim::State& s, int p) {
  const int c = m.particle_coord(p);
  return Vec3(s.q[c], s.q[c + 1], s.q[c + 2]);
}

struct Run {
  sim::State state;
  Real carried = 0;      // the segment contacts' vertical force on the rope, mean over the last 30 steps [N]
  int unconverged = 0;   // steps that reached the Newton cap above tolerance
  long allocated = 0;    // bytes the heap grew by over 30 more steps at the end (glibc), 0 elsewhere
};

Run run(const sim::Model& m, bool segments, int steps) {
  Run out{sim::make_initial_state(m)};
  const sim::Control control = sim::make_initial_control(m);
  sim::Workspace ws;
  ws.collision = std::make_unique<sim::detail::CollisionScratch>();
  ws.collision->segments = segments;
  const int averaged = 30;
  for (int i = 0; i < steps; ++i) {
    const sim::StepReport r = sim::step(m, out.state, control, ws);
    INFO("step " << i << ": " << r.message);
    REQUIRE(r.ok());
    out.unconverged += (r.warnings & sim::kStepNotConverged) ? 1 : 0;
    if (i < steps - averaged) continue;
    for (int c = 0; c < ws.contacts.size(); ++c)
      if (ws.contacts.contacts[c].a.kind == sim::ContactSide::ParticleSegment)  // side a: +n λ
        out.carried += ws.contact_normal_force[c] * ws.contacts.contacts[c].normal.z() / averaged;
  }
#ifdef __GLIBC__
  const auto before = mallinfo2();
  for (int i = 0; i < 30; ++i) sim::step(m, out.state, control, ws);
  const auto after = mallinfo2();
  out.allocated = static_cast<long>(after.uordblks + after.hblkhd) - static_cast<long>(before.uordblks + before.hblkhd);
#endif
  return out;
}

}  // namespace

TEST_CASE("a rope link dropped across a thin rod balances on it", "[scene][rope][softcontact]") {
  const Real rod_z = 0.3, rod = 0.01, radius = 0.01;
  const sim::Model m = scene(R"(<capsule pos="0 0 0.3" euler="0 90 0" radius="0.01" half_length="0.5"/>)",
                             R"(<rope start="0.02 -0.2 0.36" end="0.02 0.2 0.36" segments="1" total_mass="0.04" radius="0.01" material="m"/>)");
  const Run with = run(m, true, 180), without = run(m, false, 180);
  const Vec3 a = position(m, with.state, 0), b = position(m, with.state, 1);
  const Real middle = 0.5 * (a.z() + b.z());
  const Real weight = 0.04 * kG;
  std::printf("link on a rod: with segments its middle rests %.5f m over the rod's axis (radii %.3f m), ends %.5f and "
              "%.5f m, carried %.4f N of %.4f N, %d unconverged steps; without: lowest %.4f m\n",
              middle - rod_z, rod + radius, a.z() - rod_z, b.z() - rod_z, with.carried, weight, with.unconverged,
              std::min(position(m, without.state, 0).z(), position(m, without.state, 1).z()));
  CHECK(middle - rod_z == Approx(rod + radius).margin(0.001));
  CHECK(std::abs(a.z() - b.z()) < 0.002);  // level: balanced on the middle
  CHECK(with.carried == Approx(weight).epsilon(0.02));
  CHECK(with.allocated == 0);  // at rest the segment pass allocates nothing more
  CHECK(std::max(position(m, without.state, 0).z(), position(m, without.state, 1).z()) < 0.05);  // on the ground
}

TEST_CASE("a coarse rope dropped across a thin wall hangs over its top edges, not through them", "[scene][rope][softcontact]") {
  // The wall: 6 cm thick (x), 1 m long (y), 40 cm tall. The rope: five particles 25 cm apart
  // along x, the middle one over the wall.
  const Real top = 0.4, radius = 0.01;
  const sim::Model m = scene(R"(<box pos="0 0 0.2" size="0.06 1 0.4"/>)",
                             R"(<rope start="-0.5 0 0.45" end="0.5 0 0.45" segments="4" total_mass="0.1" radius="0.01" material="m"/>)");
  // The deepest point of the rope's links in the wall: the box's signed distance, sampled along
  // every link, less the rope's radius (0: resting on it; negative: through it).
  auto deepest = [&](const sim::State& s) {
    const Vec3 centre(0, 0, 0.2), half(0.03, 0.5, 0.2);
    Real lowest = 1e30;
    for (int d = 0; d < m.distance_count; ++d) {
      const Vec3 p = position(m, s, m.distance_particle_a[d]), q = position(m, s, m.distance_particle_b[d]);
      for (int i = 0; i <= 400; ++i) {
        const Vec3 x = p + (q - p) * (i / Real(400));
        const Vec3 e = (x - centre).cwiseAbs() - half;
        const Real phi = e.cwiseMax(Real(0)).norm() + std::min(e.maxCoeff(), Real(0));
        lowest = std::min(lowest, phi - radius);
      }
    }
    return lowest;
  };
  const Run with = run(m, true, 180), without = run(m, false, 180);
  const Real depth_with = deepest(with.state), depth_without = deepest(without.state);
  std::printf("coarse rope over a wall: its links' deepest point in the wall %.5f m with segments (middle particle %.4f m "
              "over the top, ends at %.3f and %.3f m), %.4f m without; %d unconverged steps\n",
              depth_with, position(m, with.state, 2).z() - top, position(m, with.state, 0).z(),
              position(m, with.state, 4).z(), depth_without, with.unconverged);
  CHECK(depth_with > -0.001);  // on the wall's edges at the radius, not through them
  CHECK(depth_with < 0.001);   // and resting on them: the rope hangs from the edges
  CHECK(position(m, with.state, 0).z() < top - 0.1);  // its ends hang down on both sides
  CHECK(position(m, with.state, 4).z() < top - 0.1);
  CHECK(depth_without < -0.02);  // without: the links from the middle cut through the wall
}

namespace {

// The least distance between the centre lines of two links (the closest points of two segments,
// sampled finely enough for links of a few centimetres: 1/400 of each).
Real link_distance(const Vec3& p0, const Vec3& p1, const Vec3& q0, const Vec3& q1) {
  Real least = 1e30;
  for (int i = 0; i <= 400; ++i) {
    const Vec3 x = p0 + (p1 - p0) * (i / Real(400));
    const Vec3 d = q1 - q0;
    const Real t = std::clamp((x - q0).dot(d) / d.squaredNorm(), Real(0), Real(1));
    least = std::min(least, (x - (q0 + t * d)).norm());
  }
  return least;
}

// The least centre-line distance between links d and e over the model's distance constraints for
// which keep(d, e) holds.
template <class Keep>
Real least_link_distance(const sim::Model& m, const sim::State& s, Keep&& keep) {
  Real least = 1e30;
  for (int d = 0; d < m.distance_count; ++d)
    for (int e = d + 1; e < m.distance_count; ++e)
      if (keep(d, e))
        least = std::min(least, link_distance(position(m, s, m.distance_particle_a[d]), position(m, s, m.distance_particle_b[d]),
                                              position(m, s, m.distance_particle_a[e]), position(m, s, m.distance_particle_b[e])));
  return least;
}

}  // namespace

TEST_CASE("a coarse rope dropped across another rope on the ground rests on it, not through it", "[scene][rope][softcontact]") {
  // Rope a (four particles 20 cm apart along y, x = 2 cm) falls across rope b lying on the ground
  // along x (particles 30 cm apart): their links cross inside both, no particle near the other
  // rope. Radii 1 cm: resting, a's middle link lies on b at 3 radii over the ground, its ends on
  // the ground.
  const Real r = 0.01;
  const sim::Model m = scene("", R"(<rope start="0.02 -0.3 0.1" end="0.02 0.3 0.1" segments="3" total_mass="0.08" radius="0.01" material="m"/>
                                   <rope start="-0.45 0 0.01" end="0.45 0 0.01" segments="3" total_mass="0.08" radius="0.01" material="m"/>)");
  const Run with = run(m, true, 180), without = run(m, false, 180);
  auto across = [](int d, int e) { return d < 3 && e >= 3; };  // a link of a's against one of b's
  const Real least_with = least_link_distance(m, with.state, across), least_without = least_link_distance(m, without.state, across);
  std::printf("rope across a rope: with segments a's inner particles %.5f and %.5f m up (3 radii: %.3f m), its ends %.5f and "
              "%.5f m, the ropes' centre lines %.5f m apart at least (2 radii: %.3f m), %d unconverged steps; without: "
              "inner particles %.5f m up, centre lines %.5f m apart\n",
              position(m, with.state, 1).z(), position(m, with.state, 2).z(), 3 * r, position(m, with.state, 0).z(),
              position(m, with.state, 3).z(), least_with, 2 * r, with.unconverged, position(m, without.state, 1).z(), least_without);
  CHECK(position(m, with.state, 1).z() == Approx(3 * r).margin(0.001));
  CHECK(position(m, with.state, 2).z() == Approx(3 * r).margin(0.001));
  CHECK(position(m, with.state, 0).z() == Approx(r).margin(0.001));  // its ends on the ground
  CHECK(position(m, with.state, 3).z() == Approx(r).margin(0.001));
  CHECK(least_with == Approx(2 * r).margin(0.001));
  CHECK(with.allocated == 0);
  CHECK(position(m, without.state, 1).z() < 1.5 * r);  // without: flat on the ground, through rope b
  CHECK(least_without < r);
}

TEST_CASE("a self-colliding rope dropped in a heap keeps its links apart, without self collision they pass through",
          "[scene][rope][softcontact]") {
  // A 60 cm rope of 30 links (2 cm, radius 1 cm: touching beads) dropped nearly upright: it folds
  // onto itself on the ground. Oracle: the centre lines of its links outside each other's one-ring
  // (no shared or linked particle) stay two radii apart, less 1 mm.
  const Real r = 0.01;
  auto rope = [](bool self) {
    return scene("", std::string(R"(<rope start="0 0 0.02" end="0.06 0.02 0.6" segments="30" total_mass="0.06" radius="0.01" material="m" self_collision=")") +
                         (self ? "true" : "false") + R"("/>)");
  };
  const sim::Model self = rope(true), other = rope(false);
  auto apart = [](int d, int e) { return e - d >= 3; };  // links of one rope outside each other's one-ring
  // 400 steps: the heap's contacts stop reaching new highs by then (with the rope links' exact
  // curvature the upright rope folds later, its pile-up's contact count peaking near step 250),
  // so the last 30 steps allocate nothing.
  const Run with = run(self, true, 400), without = run(other, true, 400);
  Real top_with = 0, top_without = 0;
  for (int p = 0; p <= 30; ++p)
    top_with = std::max(top_with, position(self, with.state, p).z()), top_without = std::max(top_without, position(other, without.state, p).z());
  const Real least_with = least_link_distance(self, with.state, apart), least_without = least_link_distance(other, without.state, apart);
  std::printf("self-colliding rope heap: links at least %.5f m apart (2 radii %.3f m), heap %.4f m tall, %d unconverged steps; "
              "without self collision %.5f m apart, %.4f m tall\n",
              least_with, 2 * r, top_with, with.unconverged, least_without, top_without);
  CHECK(least_with > 2 * r - 0.001);
  CHECK(least_without < r);
  CHECK(with.allocated == 0);
}

TEST_CASE("three loose particles dropped in a column stack on the ground, one on another", "[scene][rope][softcontact]") {
  // Radii 1 cm: at rest the centres are at 1, 3 and 5 radii; without their contacts (the same
  // switch as the segments') all three lie on the ground, through each other.
  const Real r = 0.01;
  const sim::Model m = scene("", R"(<particle pos="0 0 0.02" radius="0.01" mass="0.01" material="m"/>
                                   <particle pos="0 0 0.05" radius="0.01" mass="0.01" material="m"/>
                                   <particle pos="0 0 0.08" radius="0.01" mass="0.01" material="m"/>)");
  const Run with = run(m, true, 120), without = run(m, false, 120);
  std::printf("loose particles in a column: centres at %.5f, %.5f, %.5f m (1, 3, 5 radii), %d unconverged steps; without "
              "their contacts the top one at %.5f m\n",
              position(m, with.state, 0).z(), position(m, with.state, 1).z(), position(m, with.state, 2).z(), with.unconverged,
              position(m, without.state, 2).z());
  for (int p = 0; p < 3; ++p) CHECK(position(m, with.state, p).z() == Approx((2 * p + 1) * r).margin(0.0005));
  CHECK(with.allocated == 0);
  CHECK(position(m, without.state, 2).z() == Approx(r).margin(0.0005));
}
