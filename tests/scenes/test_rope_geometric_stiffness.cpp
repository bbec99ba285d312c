// The rope links' exact geometric stiffness (SolverOptions::rope_geometric_stiffness,
// solver/elastic_condensation.hpp): a rope whose links carry tension T has, across each link, the
// stiffness T/l that the Newton system's matrix H = M + h²K of eq. 53 must hold for Newton's
// quadratic convergence. The diagonal secant of eqs. 71-74 keeps only each particle's own block of
// it, so the momentum residual falls about linearly and steps reach the cap. The oracle is Newton's
// own: on a smooth problem (no contact) with the exact Hessian, every step converges in a few
// iterations, and the positions it reaches are the same solution the secant approaches.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "sim/scene_io.hpp"
#include "sim/step.hpp"
#include "support/scene_builders.hpp"

using sim::Real;
using sim::Vec3;

namespace {

sim::Model scene(const std::string& body) {
  auto parsed = sim::parse_scene_xml(R"(<scene dt="0.0083" gravity="0 0 -9.81"><material name="m" friction="0.5"/>)" + body +
                                     "</scene>",
                                     "swing.xml");
  INFO((parsed.ok() ? std::string() : parsed.error()));
  REQUIRE(parsed.ok());
  return test::compile(parsed.value());
}

struct Run {
  int unconverged = 0;
  int newton = 0;  // summed over the steps
  int condensed = 0;
  sim::State state;
};

Run run(const sim::Model& m, bool exact, int steps) {
  sim::SolverOptions o = m.solver;
  o.rope_geometric_stiffness = exact;
  Run out;
  out.state = sim::make_initial_state(m);
  const sim::Control control = sim::make_initial_control(m);
  sim::Workspace ws;
  for (int s = 0; s < steps; ++s) {
    const sim::StepReport r = sim::step(m, o, out.state, control, ws);
    INFO("step " << s << ": " << r.message);
    REQUIRE(r.ok());
    out.unconverged += r.unconverged_solves;
    out.newton += r.newton_iterations;
    out.condensed += r.condensed_iterations;
  }
  return out;
}

Vec3 particle(const sim::Model& m, const sim::State& s, int p) {
  const int c = m.particle_coord(p);
  return {s.q[c], s.q[c + 1], s.q[c + 2]};
}

// The largest relative change of a link's length from its rest length.
Real worst_stretch(const sim::Model& m, const sim::State& s) {
  Real worst = 0;
  for (int d = 0; d < m.distance_count; ++d) {
    const Real l = (particle(m, s, m.distance_particle_b[d]) - particle(m, s, m.distance_particle_a[d])).norm();
    worst = std::max(worst, std::abs(l / m.distance_rest[d] - 1));
  }
  return worst;
}

}  // namespace

TEST_CASE("a rope swinging from its pin: the links' exact curvature converges every step, the secant's diagonal does not",
          "[scene][rope][solver]") {
  // 40 rigid links, 1.6 m, 0.4 kg, pinned at one end 3 m up and released horizontally: it swings
  // down (the tension grows to several times the rope's weight near the bottom) and never reaches
  // the ground. dt 8.3 ms (the paper's), 0.75 s.
  const sim::Model m =
      scene(R"(<rope start="0 0 3" end="1.6 0 3" segments="40" total_mass="0.4" radius="0.01" pin="start" material="m"/>)");
  const int steps = 90;
  const Run exact = run(m, true, steps), secant = run(m, false, steps);
  const Vec3 tip_exact = particle(m, exact.state, m.particle_count - 1), tip_secant = particle(m, secant.state, m.particle_count - 1);
  std::printf("swinging rope (40 links, dt 8.3 ms, %d steps): exact link curvature %d unconverged steps, %.2f Newton "
              "iterations a step, links within %.2g of their length; secant %d unconverged, %.2f a step, %.2g; tips "
              "%.4f m apart\n",
              steps, exact.unconverged, double(exact.newton) / steps, worst_stretch(m, exact.state), secant.unconverged,
              double(secant.newton) / steps, worst_stretch(m, secant.state), (tip_exact - tip_secant).norm());
  CHECK(exact.condensed == exact.newton);  // every direction solved with the factorised H̃
  CHECK(secant.condensed == 0);
  CHECK(exact.unconverged == 0);
  CHECK(double(exact.newton) / steps <= 4.0);
  CHECK(secant.unconverged >= steps / 4);  // what the exact curvature removes (the test can fail)
  CHECK(worst_stretch(m, exact.state) < 1e-4);
  CHECK((tip_exact - tip_secant).norm() < 0.01);  // the same motion
  CHECK(tip_exact.z() < 3 - 0.5);                 // it has swung down
}
