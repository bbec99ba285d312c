// Rope links against rigid shapes (collision/particle_faces_sdf.hpp, the segment pass): a rope
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
