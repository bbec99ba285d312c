// The elastic rows condensed into the particles' mass block (solver/elastic_condensation.hpp):
// the same Newton direction as the plain Schur system of eq. 59 (checked against the direct
// solver's), and what it is for: stiff FEM scenes whose plain system PCR cannot solve converge.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <utility>

#include "sim/step.hpp"
#include "support/scene_builders.hpp"
#include "support/shipped_run.hpp"

using sim::Real;

namespace {

// One Newton iteration at the full step t = 1 from `start` (no line search), its state.
sim::State one_newton_step(const sim::Model& m, const sim::State& start, sim::SolverOptions o) {
  o.newton_iterations = 1;
  o.newton_tolerance = 0;
  o.line_search = false;
  o.damping = 1;
  sim::State s = start;
  sim::Workspace ws;
  const sim::StepReport r = sim::step(m, o, s, sim::make_initial_control(m), ws);
  INFO(r.message);
  CHECK(r.ok());
  return s;
}

Real largest_difference(const sim::State& a, const sim::State& b) {
  Real d = 0;
  for (std::size_t k = 0; k < a.u.size(); ++k) d = std::max(d, std::abs(a.u[k] - b.u[k]));
  return d;
}

Real largest_change(const sim::State& a, const sim::State& b) { return largest_difference(a, b); }

// The reference: the plain system (nothing condensed) solved directly.
sim::SolverOptions direct_options(const sim::Model& m) {
  sim::SolverOptions o = m.solver;
  o.linear_solver = sim::LinearSolver::Direct;
  o.condense_elastic = false;
  return o;
}

// The condensed system solved by PCR to round-off (300 iterations, relative residual 1e-14).
sim::SolverOptions condensed_pcr_options(const sim::Model& m) {
  sim::SolverOptions o = m.solver;
  o.linear_solver = sim::LinearSolver::PCR;
  o.condense_elastic = true;
  o.linear_iterations = o.linear_iterations_max = 300;
  o.linear_tolerance = 1e-14;
  return o;
}

}  // namespace

TEST_CASE("condensing the elastic rows gives the direct solver's Newton direction", "[scene][fem][solver]") {
  // The soft cube as it lands on the ground (contacts, friction, 384 Neo-Hookean tets squashing):
  // one Newton iteration of the plain system solved directly against the condensed one solved by
  // PCR to round-off, and the plain one by PCR with the same budget.
  const test::ShippedRun run("soft_cube", 34);
  const sim::Model& m = run.model;
  REQUIRE(run.ws.contacts.size() > 0);
  const sim::SolverOptions direct = direct_options(m);
  const sim::SolverOptions condensed = condensed_pcr_options(m);
  sim::SolverOptions plain = condensed;
  plain.condense_elastic = false;
  const sim::State reference = one_newton_step(m, run.state, direct);
  const sim::State with = one_newton_step(m, run.state, condensed);
  const sim::State without = one_newton_step(m, run.state, plain);
  const Real change = largest_change(reference, run.state);
  const Real err_with = largest_difference(with, reference), err_without = largest_difference(without, reference);
  std::printf("soft cube, one Newton direction: the step changes u by %.3g m/s; PCR (300 iterations) on the condensed "
              "system is %.3g m/s from the direct solve, on the plain system %.3g m/s\n",
              change, err_with, err_without);
  CHECK(change > 1e-3);
  CHECK(err_with < 1e-9 * change);
  CHECK(err_with < err_without);
}

TEST_CASE("the supernodal and simplicial factorisations of the condensed system give one Newton direction",
          "[scene][fem][solver]") {
  // The soft cube landing (as above) and the PneuNet gripper (pinned particles, attachments,
  // pressure), one Newton iteration each way with PCR (300 iterations, to 1e-14), against the
  // direct solver's. On the soft cube PCR reaches round-off and both factorisations give the
  // direct direction to 1e-9 of the step; on PneuNet its K system (81 attachment rows on light
  // particles) leaves PCR 3e-6 m/s short of it after 300 iterations with either factor, so there
  // the supernodal direction must be as close to the direct one as the simplicial direction is.
  for (const auto& [name, steps] : {std::pair<const char*, int>{"soft_cube", 34}, {"pneunet", 20}}) {
    INFO(name);
    const test::ShippedRun run(name, steps);
    const sim::Model& m = run.model;
    const sim::SolverOptions direct = direct_options(m);
    sim::SolverOptions simplicial = condensed_pcr_options(m);
    simplicial.elastic_factorization = sim::ElasticFactorization::Simplicial;
    sim::SolverOptions supernodal = simplicial;
    supernodal.elastic_factorization = sim::ElasticFactorization::Supernodal;
    const sim::State reference = one_newton_step(m, run.state, direct);
    const sim::State a = one_newton_step(m, run.state, simplicial);
    const sim::State b = one_newton_step(m, run.state, supernodal);
    const Real change = largest_change(reference, run.state);
    std::printf("%s, one Newton direction: the step changes u by %.3g m/s; simplicial %.3g, supernodal %.3g m/s from "
                "the direct solve, %.3g apart\n",
                name, change, largest_difference(a, reference), largest_difference(b, reference),
                largest_difference(a, b));
    CHECK(change > 1e-3);
    if (std::string(name) == "soft_cube") {
      CHECK(largest_difference(b, reference) < 1e-9 * change);
      CHECK(largest_difference(a, b) < 1e-9 * change);
    } else {
      CHECK(largest_difference(b, reference) < 2 * largest_difference(a, reference));
      CHECK(largest_difference(b, reference) < 1e-4 * change);
    }
  }
}

TEST_CASE("stiff soft fingers: the condensed system solves the elastic rows where the plain one stalls",
          "[scene][fem][solver]") {
  // The PneuNet gripper (three 192-tet Neo-Hookean fingers, E 0.01 GPa, ν 0.47, 0.6 g particles,
  // chambers at 40 MPa of active stress) switched from rest to full pressure in one step, as the
  // scene opens: the plain Schur system's PCR (60 iterations) cuts its residual about 3× per
  // solve, the Newton loop ends every step at its cap with the pressure's volumetric target
  // missed by 0.3 and the fingers do not move; condensed, the elastic rows are met and the fingers
  // bend (the momentum residual of these stiff, light particles stays large: the steps are
  // reported not converged, honestly). Each iterate is measured with λ_E(x), the elastic forces
  // its positions imply; measured with the last λ_E, the condensed solve too ended every step
  // back at its start (no iterate beat the start's merit).
  sim::Model m = test::load_shipped_model("pneunet");
  Real bilateral[2] = {0, 0}, momentum[2] = {0, 0}, moved[2] = {0, 0};
  for (int condense = 0; condense < 2; ++condense) {
    sim::SolverOptions o = m.solver;
    o.condense_elastic = condense == 1;
    sim::State s = sim::make_initial_state(m);
    const sim::Control c = sim::make_initial_control(m);
    sim::Workspace ws;
    int converged = 0, newton = 0;
    const int steps = 10;
    for (int i = 0; i < steps; ++i) {
      const sim::StepReport r = sim::step(m, o, s, c, ws);
      REQUIRE(r.flags == sim::kStepOk);
      if (!(r.warnings & sim::kStepNotConverged)) ++converged;
      newton += r.newton_iterations;
      bilateral[condense] = std::max(bilateral[condense], ws.trace.final_bilateral_max);
      momentum[condense] = std::max(momentum[condense], ws.trace.final_momentum_max);
    }
    const sim::State rest = sim::make_initial_state(m);
    for (int p = 0; p < m.particle_count; ++p)
      for (int k = 0; k < 3; ++k)
        moved[condense] = std::max(moved[condense], std::abs(s.q[m.particle_coord(p) + k] - rest.q[m.particle_coord(p) + k]));
    std::printf("PneuNet from rest, %s: %d of %d steps converged, %.1f Newton iterations a step, largest final "
                "bilateral residual %.3g, momentum residual %.3g m/s; a particle moved up to %.3g m\n",
                condense ? "condensed" : "plain", converged, steps, double(newton) / steps, bilateral[condense],
                momentum[condense], moved[condense]);
  }
  CHECK(bilateral[0] > 0.1);    // plain: the active pressure's target is not reached
  CHECK(bilateral[1] < 0.01 * bilateral[0]);  // condensed: met (7e-5 against 0.29)
  CHECK(moved[0] < 1e-3);       // plain: the fingers hardly move (the paper's E = 0.01 GPa)
  CHECK(moved[1] > 5e-3);       // condensed: the chambers swell and the fingers bend
}

