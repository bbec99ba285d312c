// The direct linear solver (solver/sparse_schur_factor.hpp: A = J H⁻¹ Jᵀ + C + εI assembled in
// its sparsity pattern, sparse LDLᵀ with a kept ordering and analysis) and LinearSolver::Auto,
// which picks it for jointed bodies with few contacts:
// - its x solves the captured Newton system, assembled independently with Eigen, to round-off,
//   on scenes with joints, contacts and particles;
// - the ordering and symbolic analysis are redone only when the rows' nodes change;
// - auto resolves to the direct solver on articulated scenes and to PCR on contact piles and
//   particle systems;
// - on a MuJoCo-style ragdoll (several hinges per body: chains through 1%-mass frames) the exact
//   directions converge within the tolerances on nearly every step where 40 PCR iterations leave
//   most steps at the iteration cap, and both come to rest the same way on the floor.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <string>

#include "sim/compile.hpp"
#include "sim/robot_import.hpp"
#include "solver/linear_solvers.hpp"
#include "support/captured_system.hpp"
#include "support/ragdoll_scene.hpp"
#include "support/scratch_files.hpp"

using sim::Real;

TEST_CASE("the direct solver's x solves the assembled Newton system to round-off", "[scene][solver][linear][direct]") {
  struct Scene {
    const char* name;
    int steps;
  };
  // Joints (workcell, pendulum, flexible_beam), contacts (heavy_stack, table_pile), particles (rope).
  const Scene scenes[] = {{"workcell", 15}, {"pendulum", 10}, {"flexible_beam", 5},
                          {"heavy_stack", 30}, {"table_pile", 20}, {"rope", 10}};
  int compared = 0;
  for (const Scene& sc : scenes) {
    INFO(sc.name);
    const sim::SolveCapture c = test::capture_shipped_system(sc.name, sc.steps, 0, sim::LinearSolver::Direct, 40);
    REQUIRE(c.filled);
    const sim::CapturedSystem& sys = c.system;
    if (sys.iteration != 0) continue;  // converged before iterating: no system was solved
    const sim::IterationTrace& it = c.iterates.at(0).trace;
    CHECK_FALSE(it.linear_fallback);
    CHECK(it.linear_iterations == 1);
    const test::SpMat A = test::assembled_schur(sys);
    const test::VecX b = Eigen::Map<const test::VecX>(sys.b.data(), sys.rows);
    const test::VecX x = Eigen::Map<const test::VecX>(sys.x.data(), sys.rows);
    if (b.lpNorm<Eigen::Infinity>() == 0) continue;
    ++compared;
    const Real residual = (A * x - b).lpNorm<Eigen::Infinity>() / b.lpNorm<Eigen::Infinity>();
    // The oracle's own solve (Eigen's LDLᵀ on the independently assembled A) agrees.
    Eigen::SimplicialLDLT<test::SpMat> reference(A);
    REQUIRE(reference.info() == Eigen::Success);
    const test::VecX x_ref = reference.solve(b);
    const Real difference = (x - x_ref).lpNorm<Eigen::Infinity>() / x_ref.lpNorm<Eigen::Infinity>();
    INFO("rows " << sys.rows << ": |Ax - b| / |b| = " << residual << ", |x - x_ref| / |x_ref| = " << difference);
    CHECK(residual < 1e-9);
    CHECK(difference < 1e-8);
  }
  CHECK(compared >= 5);
}

namespace {

struct RagdollRun {
  int steps = 0, unconverged = 0, newton = 0, direct_steps = 0, failed = 0;
  Real torso_height = 0, torso_speed = 0;
};

RagdollRun run_ragdoll(const sim::Model& m, sim::LinearSolver solver, int steps) {
  sim::SolverOptions o;
  o.linear_solver = solver;
  sim::State s = sim::make_initial_state(m);
  const sim::Control control = sim::make_initial_control(m);
  sim::Workspace ws;
  RagdollRun r;
  for (int i = 0; i < steps; ++i) {
    const sim::StepReport rep = sim::step(m, o, s, control, ws);
    ++r.steps;
    if (!rep.ok()) ++r.failed;
    if (rep.warnings & sim::kStepNotConverged) ++r.unconverged;
    r.newton += ws.trace.newton_iterations;
    if (ws.trace.linear_solver == sim::LinearSolver::Direct) ++r.direct_steps;
  }
  const auto torso = std::find(m.body_name.begin(), m.body_name.end(), "torso") - m.body_name.begin();
  r.torso_height = s.q[7 * torso + 2];
  r.torso_speed = Eigen::Map<const sim::Vec3>(&s.u[6 * torso]).norm();
  return r;
}

}  // namespace

TEST_CASE("auto picks the direct solver for a jointed ragdoll and it converges where PCR does not",
          "[scene][solver][linear][direct][auto]") {
  const auto dir = test::scratch_dir("direct_ragdoll");
  test::write_file(dir / "ragdoll.xml", test::kRagdollMjcf);
  auto spec = sim::load_description((dir / "ragdoll.xml").string());
  REQUIRE(spec.ok());
  const sim::Model m = test::compile(*spec);
  const int steps = 400;  // 2 s: the fall (0.45 s), the impact, and rest on the floor
  const RagdollRun exact = run_ragdoll(m, sim::LinearSolver::Auto, steps);
  const RagdollRun krylov = run_ragdoll(m, sim::LinearSolver::PCR, steps);
  INFO("auto: " << exact.unconverged << " of " << steps << " steps not converged, " << exact.newton
                << " Newton iterations, torso at " << exact.torso_height << " m moving " << exact.torso_speed << " m/s");
  INFO("pcr: " << krylov.unconverged << " not converged, " << krylov.newton << " Newton iterations, torso at "
               << krylov.torso_height << " m moving " << krylov.torso_speed << " m/s");
  CHECK(exact.failed == 0);
  CHECK(exact.direct_steps == steps);  // jointed, a handful of contacts: the direct solver every step
  CHECK(exact.unconverged <= steps / 20);
  CHECK(krylov.unconverged >= 4 * std::max(exact.unconverged, 5));
  CHECK(exact.newton * 2 < krylov.newton);
  // The same motion: after the fall and the impact both put the torso at the same height (a
  // capsule of radius 0.08 m, lying or sitting up on the floor), slowing down the same way.
  CHECK(std::abs(exact.torso_height - krylov.torso_height) < 0.005);
  CHECK(std::abs(exact.torso_speed - krylov.torso_speed) < 0.05);
  CHECK(exact.torso_height > 0.07);
  CHECK(exact.torso_height < 0.9);
}

TEST_CASE("auto resolves to PCR on contact piles and particle systems, and the direct analysis is kept",
          "[scene][solver][linear][direct][auto]") {
  struct Expect {
    const char* scene;
    sim::LinearSolver solver;
  };
  const Expect expect[] = {{"workcell", sim::LinearSolver::Direct}, {"pendulum", sim::LinearSolver::Direct},
                           {"heavy_stack", sim::LinearSolver::PCR}, {"table_pile", sim::LinearSolver::PCR},
                           {"cloth", sim::LinearSolver::PCR},       {"rope", sim::LinearSolver::PCR}};
  for (const Expect& e : expect) {
    INFO(e.scene);
    auto spec = sim::load_scene_file(test::scene_path(e.scene));
    REQUIRE(spec.ok());
    spec->solver.linear_solver = sim::LinearSolver::Auto;
    test::ShippedRun run(test::compile(*spec), 5);
    CHECK(run.ws.trace.linear_solver == e.solver);
  }
  // The pendulum's rows never change: one analysis for all its Newton iterations.
  const sim::Model m = test::load_shipped_model("pendulum");
  sim::State s = sim::make_initial_state(m);
  const sim::Control control = sim::make_initial_control(m);
  sim::SolverOptions o;
  o.linear_solver = sim::LinearSolver::Direct;
  sim::Workspace ws;
  int newton = 0, analyses = 0;
  for (int i = 0; i < 50; ++i) {
    REQUIRE(sim::step(m, o, s, control, ws).ok());
    newton += ws.trace.newton_iterations;
    analyses += ws.trace.direct_analyses;
  }
  CHECK(newton >= 50);
  CHECK(analyses == 1);
}

namespace {

// The ragdoll among `boxes` loose boxes resting on the floor in a grid beside it (4 contacts each).
std::string ragdoll_among_boxes(int boxes) {
  std::string xml = test::kRagdollMjcf;
  std::string extra;
  for (int k = 0; k < boxes; ++k) {
    const double x = 1.0 + 0.3 * (k % 8), y = -1.0 + 0.3 * (k / 8);
    extra += "<body pos=\"" + std::to_string(x) + " " + std::to_string(y) +
             " 0.05\"><freejoint/><geom type=\"box\" size=\"0.05 0.05 0.05\"/></body>\n";
  }
  xml.insert(xml.find("</worldbody>"), extra);
  return xml;
}

}  // namespace

// auto weighs the direct factorisation's operation count against the PCR budget's, not the
// contact count: ground contacts are one-node rows of the tree elimination and add no fill, so a
// ragdoll among 40 resting boxes (480 contact rows: the old rule's limit was 300) is solved
// directly; with a PCR budget of one iteration the same factor costs more than PCR, and auto
// takes PCR.
TEST_CASE("auto picks the direct solver by its cost against PCR's, not by the contact count",
          "[scene][solver][linear][direct][auto]") {
  const auto dir = test::scratch_dir("direct_ragdoll_boxes");
  test::write_file(dir / "ragdoll_boxes.xml", ragdoll_among_boxes(40));
  auto spec = sim::load_description((dir / "ragdoll_boxes.xml").string());
  REQUIRE(spec.ok());
  const sim::Model m = test::compile(*spec);
  for (int budget : {40, 1}) {
    INFO("PCR budget " << budget);
    sim::SolverOptions o = spec->solver;
    o.linear_solver = sim::LinearSolver::Auto;
    o.linear_iterations = budget;
    sim::State s = sim::make_initial_state(m);
    const sim::Control control = sim::make_initial_control(m);
    sim::Workspace ws;
    for (int i = 0; i < 5; ++i) REQUIRE(sim::step(m, o, s, control, ws).ok());
    const sim::StepReport rep = sim::step(m, o, s, control, ws);
    REQUIRE(rep.ok());
    INFO(rep.row_count << " rows");
    CHECK(rep.row_count > 140 + 400);  // the ragdoll's joint rows and over 400 contact rows
    CHECK(ws.trace.linear_solver == (budget == 40 ? sim::LinearSolver::Direct : sim::LinearSolver::PCR));
  }
}
