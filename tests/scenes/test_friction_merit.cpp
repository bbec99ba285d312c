// The line search's merit at the friction cone's tip (solver/newton_residuals.hpp,
// SolverOptions::friction_merit_natural_map): a contact whose normal force starts from 0 while it
// slides. Its friction term must be continuous as μλ_n leaves 0, or the Newton direction, which
// raises λ_n, reads as an ascent direction however short the step.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <string>

#include "solver/newton_residuals.hpp"
#include "support/scene_builders.hpp"

using sim::Real;
using sim::Vec3;

namespace {

constexpr Real kG = 9.81;

// A box of half extents `half` and `mass` on a ground plane of friction μ, its underside `gap`
// above the ground, moving at `velocity`; the merit's friction term as `natural_map` says.
sim::SceneSpec box_over_ground(const std::string& name, Real dt, Real mu, const Vec3& half, Real mass, Real gap,
                               const Vec3& velocity, bool natural_map) {
  sim::SceneSpec spec;
  spec.name = name;
  spec.dt = dt;
  spec.solver.friction_merit_natural_map = natural_map;
  const int mat = test::add_material(spec, "m", mu);
  spec.world_shapes.push_back(test::ground_plane(mat));
  test::add_body(spec, "box", Vec3(0, 0, half.z() + gap), mass, test::box_shape(half, mat));
  spec.bodies[0].linear_velocity = velocity;
  return spec;
}

// A box landing while it slides: launched at v0 along x, its underside `drop` above the ground,
// falling. On the step it lands, every contact is new (warm-started at λ_n = 0) and slips at v0.
sim::SceneSpec sliding_landing(Real mu, Real v0, Real drop, bool natural_map) {
  return box_over_ground("sliding_landing", 0.0083, mu, Vec3(0.1, 0.07, 0.05), 1.5, drop, Vec3(v0, 0, -0.2), natural_map);
}

struct Landing {
  int first_contact_step = -1, watchdogs = 0, unconverged = 0;
  Real dv = 0, v_end = 0;  // the x velocity's change from step `settled` to the end, and its end value
};

// Runs `steps` steps; counts watchdog iterations and unconverged steps from the first step with
// contacts on, and the velocity change from step `settled` on.
Landing run_landing(const sim::Model& m, int steps, int settled) {
  sim::State s = sim::make_initial_state(m);
  sim::Workspace ws;
  Landing l;
  Real v_settled = 0;
  for (int i = 0; i < steps; ++i) {
    const sim::StepReport r = sim::step(m, s, sim::make_initial_control(m), ws);
    REQUIRE(r.ok());
    if (i + 1 == settled) v_settled = s.body_velocity(0).x();
    if (l.first_contact_step < 0 && ws.contacts.size() > 0) l.first_contact_step = i;
    if (l.first_contact_step < 0) continue;
    for (const sim::NewtonIterationTrace& it : ws.trace.iterations) l.watchdogs += it.watchdog ? 1 : 0;
    const sim::NewtonIterationTrace& last = ws.trace.iterations.back();
    if (!sim::newton_converged(last, m.solver.newton_tolerance, m.solver.newton_velocity_tolerance)) ++l.unconverged;
  }
  l.v_end = s.body_velocity(0).x();
  l.dv = l.v_end - v_settled;
  return l;
}

}  // namespace

TEST_CASE("a contact that starts to carry load while sliding: the Newton steps descend on the natural-map merit",
          "[scene][solver][newton][friction]") {
  // Oracle: at a new sliding contact the Newton direction lowers a continuous merit at about the
  // exact-Newton rate dΦ/dt = −2Φ (newton_residuals.hpp), so the line search never needs a
  // watchdog step, every step converges, and the box's speed then falls as Coulomb says, μ g.
  const Real mu = 0.5, v0 = 1.5;
  const int steps = 24, settled = 12;
  for (const Real drop : {0.0005, 0.001, 0.0015}) {
    INFO("dropped from " << drop << " m");
    const Landing on = run_landing(test::compile(sliding_landing(mu, v0, drop, true)), steps, settled);
    // For comparison only (not asserted): the rows' residual as the merit (the default until 8 Dec 2026).
    const Landing off = run_landing(test::compile(sliding_landing(mu, v0, drop, false)), steps, settled);
    INFO("contacts from step " << on.first_contact_step << "; natural-map merit: " << on.watchdogs
                               << " watchdog iterations, " << on.unconverged << " unconverged steps; residual merit: "
                               << off.watchdogs << " and " << off.unconverged);
    REQUIRE(on.first_contact_step >= 0);
    REQUIRE(on.first_contact_step < settled);
    CHECK(on.watchdogs == 0);
    CHECK(on.unconverged == 0);
    // Sliding on the ground from step `settled` on: Δv = −μ g Δt (Coulomb), to 1%.
    CHECK(on.dv == Approx(-mu * kG * (steps - settled) * 0.0083).epsilon(0.01));
    CHECK(on.v_end > 0);  // still sliding
  }
}

namespace {

// A box resting on the ground and sliding along x at v0 from the start: every contact is loaded
// and slipping on every step. Its friction tilts the load towards the leading edge (the normal
// forces' moment balances friction's about the centre), so the Newton direction moves λ_n between
// the contacts, and each contact's cone radius μλ_n with it.
sim::SceneSpec sliding_box(Real mu, const Vec3& half, Real v0, bool natural_map) {
  return box_over_ground("sliding_box", 0.005, mu, half, 8.0, 0, Vec3(v0, 0, 0), natural_map);
}

struct Slide {
  int unconverged = 0;
  Real v_end = 0, spin_max = 0;
};

Slide run_slide(const sim::Model& m, int steps) {
  sim::State s = sim::make_initial_state(m);
  sim::Workspace ws;
  Slide out;
  for (int i = 0; i < steps; ++i) {
    const sim::StepReport r = sim::step(m, s, sim::make_initial_control(m), ws);
    REQUIRE(r.ok());
    if (r.warnings & sim::kStepNotConverged) ++out.unconverged;
    out.spin_max = std::max(out.spin_max, s.body_angular_velocity(0).norm());
  }
  out.v_end = s.body_velocity(0).x();
  return out;
}

}  // namespace

TEST_CASE("a box sliding on the ground: every step converges and it slows at mu g",
          "[scene][solver][newton][friction]") {
  // Oracle: Coulomb sliding, v(t) = v0 − μ g t, with the box flat (no spin: μ is below the
  // tipping ratio half-width / half-height of each box), every step within the Newton tolerance.
  // With the rows' residual as the merit (reported, not asserted) the Newton direction, which
  // moves λ_n between the contacts at a frozen W (eq. 101), changes the friction rows' residual
  // Dᵀu + Wλ_f by the slip times Δλ_n/λ_n; the line search then finds no descent and 59 of 60
  // steps of the 0.2 m cube at μ 0.5 ended above the momentum tolerance.
  const Real v0 = 2.0;
  const int steps = 40;
  struct Case {
    Real mu;
    Vec3 half;
  };
  for (const Case& c : {Case{0.3, Vec3(0.1, 0.1, 0.1)}, Case{0.5, Vec3(0.1, 0.1, 0.1)}, Case{0.8, Vec3(0.1, 0.1, 0.1)},
                       Case{0.5, Vec3(0.15, 0.08, 0.12)}}) {
    INFO("mu " << c.mu << ", half extents " << c.half.transpose());
    const Slide on = run_slide(test::compile(sliding_box(c.mu, c.half, v0, true)), steps);
    const Slide off = run_slide(test::compile(sliding_box(c.mu, c.half, v0, false)), steps);
    INFO("natural-map merit: " << on.unconverged << " unconverged steps; residual merit: " << off.unconverged);
    CHECK(on.unconverged == 0);
    const Real expected = v0 - c.mu * kG * steps * 0.005;
    REQUIRE(expected > 0);  // still sliding at the end
    CHECK(on.v_end == Approx(expected).epsilon(0.01));
    CHECK(on.spin_max < 1e-4);
  }
}
