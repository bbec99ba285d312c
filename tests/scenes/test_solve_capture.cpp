// The solver debugger's capture of one Newton solve (sim/solve_capture.hpp): saved, re-solved
// from its saved input with the same iterates bit for bit, re-solved with another configuration
// (A/B), and its Newton system exported in Matrix Market and read back by Eigen's loader.
#include <catch2/catch.hpp>

#include <unsupported/Eigen/SparseExtra>

#include <unistd.h>

#include <cmath>
#include <filesystem>

#include "sim/recording.hpp"
#include "sim/captured_resolve.hpp"
#include "sim/solve_capture.hpp"
#include "support/shipped_run.hpp"

using sim::Real;

namespace {

namespace fs = std::filesystem;

fs::path fresh_folder(const std::string& name) {
  const fs::path dir = fs::temp_directory_path() / ("coulomb_capture_" + name + "_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  return dir;
}

// Runs `steps` steps of the model, captures the last one.
sim::SolveCapture capture_step(const sim::Model& m, int steps, int system_iteration, sim::State* start = nullptr) {
  sim::State s = sim::make_initial_state(m);
  sim::Workspace ws;
  const sim::Control control = sim::make_initial_control(m);
  for (int i = 0; i + 1 < steps; ++i) REQUIRE(sim::step(m, s, control, ws).ok());
  if (start) *start = s;
  sim::SolveCapture c;
  c.system_iteration = system_iteration;
  ws.capture = &c;
  REQUIRE(sim::step(m, s, control, ws).ok());
  REQUIRE(c.filled);
  return c;
}

// A solve of the recording's one step with `options` (the re-solve `coulomb solve-captured` does).
sim::SolveCapture resolve(const sim::Model& m, const sim::Recording& rec, const sim::SolverOptions& options) {
  sim::ResolvedStep r = sim::resolve_captured_step(m, options, rec.initial, rec.controls.front());
  REQUIRE(r.report.ok());
  return std::move(r.capture);
}

}  // namespace

TEST_CASE("a captured solve, saved and solved again from its saved input, has the same iterates bit for bit",
          "[scene][solver][capture]") {
  const sim::Model m = test::load_shipped_model("table_pile");  // the pile falling: contacts change, 16 iterations
  const sim::SolveCapture c = capture_step(m, 40, -1);
  CHECK(c.contact_count > 0);
  CHECK(c.iterates.size() >= 2);
  // Every iterate carries the per-row arrays, the trace's scalars and a consistent row layout.
  for (const sim::CapturedIterate& it : c.iterates) {
    CHECK(it.lambda.size() == static_cast<std::size_t>(c.rows.count()));
    CHECK(it.u.size() == static_cast<std::size_t>(m.dof_count()));
    CHECK(it.trace.merit > 0);
  }
  CHECK(c.rows.node_first.back() == static_cast<int>(c.rows.node.size()));
  // The last iterate's λ is what the step published; the first merit is the trace's first.
  const fs::path dir = fresh_folder("bits");
  REQUIRE(sim::save_capture(c, m, test::scene_path("table_pile"), dir.string()).ok());
  for (const char* f : {"step.rec", "capture.json", "iterates.bin"}) CHECK(fs::is_regular_file(dir / f));

  auto loaded = sim::load_capture_iterates(dir.string());
  INFO((loaded.ok() ? std::string() : loaded.error()));
  REQUIRE(loaded.ok());
  CHECK(sim::compare_captures(c, *loaded).empty());  // the file holds the iterates exactly
  auto rec = sim::load_recording((dir / "step.rec").string());
  REQUIRE(rec.ok());
  REQUIRE(rec->controls.size() == 1);
  const sim::SolveCapture again = resolve(m, *rec, rec->options);
  CHECK(sim::compare_captures(*loaded, again) == "");

  // The comparison can fail: one more Newton iteration of budget at a different tolerance, or a
  // perturbed start, changes the iterates.
  sim::Recording nudged = *rec;
  nudged.initial.u[0] += 1e-9;
  const sim::SolveCapture other = resolve(m, nudged, rec->options);
  CHECK(sim::compare_captures(*loaded, other) != "");
  fs::remove_all(dir);
}

TEST_CASE("a damaged capture file is refused with its path and the sizes", "[scene][solver][capture]") {
  const sim::Model m = test::load_shipped_model("heavy_stack");
  const sim::SolveCapture c = capture_step(m, 5, -1);
  const fs::path dir = fresh_folder("damaged");
  REQUIRE(sim::save_capture(c, m, test::scene_path("heavy_stack"), dir.string()).ok());
  fs::resize_file(dir / "iterates.bin", fs::file_size(dir / "iterates.bin") - 3);
  auto loaded = sim::load_capture_iterates(dir.string());
  REQUIRE_FALSE(loaded.ok());
  CHECK_THAT(loaded.error(), Catch::Contains("iterates.bin") && Catch::Contains("bytes"));
  fs::remove_all(dir);
}

TEST_CASE("A/B on a captured heavy-stack step: identity scaling ends with a larger residual than effective mass",
          "[scene][solver][capture]") {
  // The heavy stack (mass ratios up to 4096) under the paper's fixed protocol (every step from
  // u = 0, λ = 0, eqs. 67-68), re-solved from one captured step with the two preconditioners
  // (paper §8.2, Fig. 11).
  sim::Model m = test::load_shipped_model("heavy_stack");
  m.solver.warm_start = false;
  m.solver.line_search = false;
  m.solver.newton_tolerance = 0;
  m.solver.newton_iterations = 6;
  sim::State start;
  const sim::SolveCapture c = capture_step(m, 60, -1, &start);
  const fs::path dir = fresh_folder("ab");
  REQUIRE(sim::save_capture(c, m, test::scene_path("heavy_stack"), dir.string()).ok());
  auto rec = sim::load_recording((dir / "step.rec").string());
  REQUIRE(rec.ok());
  sim::SolverOptions a = rec->options, b = rec->options;
  a.preconditioner = sim::Preconditioner::EffectiveMass;
  b.preconditioner = sim::Preconditioner::Identity;
  const sim::SolveCapture with_mass = resolve(m, *rec, a), with_identity = resolve(m, *rec, b);
  const Real ra = with_mass.iterates.back().trace.normal_max, rb = with_identity.iterates.back().trace.normal_max;
  INFO("final normal residual: effective mass " << ra << " m, identity " << rb << " m");
  CHECK(rb > 10 * ra);
  fs::remove_all(dir);
}

TEST_CASE("the Newton system exported in Matrix Market, read back by Eigen, gives the solver's linear residual",
          "[scene][solver][capture]") {
  // A = J H⁻¹ Jᵀ + C + εI (eq. 59) from the files; ‖b − A x‖_P with the exported solution x
  // (P = diag(A)⁻¹, the norm PCR minimises) equals the residual the linear solver reported for
  // that iteration.
  for (const char* name : {"table_pile", "rope"}) {
    sim::Model m = test::load_shipped_model(name);
    m.solver.newton_tolerance = 0;  // every step runs its iterations: iteration 1 exists
    const int iteration = 1;
    const sim::SolveCapture c = capture_step(m, 20, iteration);
    REQUIRE(c.system.iteration == iteration);
    const fs::path dir = fresh_folder(std::string("mtx_") + name);
    REQUIRE(sim::save_capture(c, m, test::scene_path(name), dir.string()).ok());
    Eigen::SparseMatrix<double> J, Hinv, C;
    REQUIRE(Eigen::loadMarket(J, (dir / "system_J.mtx").string()));
    REQUIRE(Eigen::loadMarket(Hinv, (dir / "system_Hinv.mtx").string()));
    REQUIRE(Eigen::loadMarket(C, (dir / "system_C.mtx").string()));
    Eigen::VectorXd b, x;
    REQUIRE(Eigen::loadMarketVector(b, (dir / "system_b.mtx").string()));
    REQUIRE(Eigen::loadMarketVector(x, (dir / "system_x.mtx").string()));
    REQUIRE(J.rows() == c.rows.count());
    REQUIRE(J.cols() == m.dof_count());
    REQUIRE(Hinv.rows() == m.dof_count());
    REQUIRE(b.size() == c.rows.count());
    const Eigen::VectorXd residual = b - (J * (Hinv * (J.transpose() * x)) + C * x);
    const Eigen::SparseMatrix<double> JH = J * Hinv;
    const Eigen::VectorXd diagonal = JH.cwiseProduct(J) * Eigen::VectorXd::Ones(J.cols()) + C.diagonal();
    const double p_norm = std::sqrt(residual.cwiseAbs2().cwiseQuotient(diagonal).sum());
    const sim::IterationTrace& t = c.iterates[iteration].trace;
    INFO(name << ": |b - A x|_P from the files " << p_norm << ", reported " << t.linear_final_residual
              << " (initial " << t.linear_initial_residual << ")");
    CHECK(t.linear_final_residual < t.linear_initial_residual);
    CHECK(p_norm == Approx(t.linear_final_residual).epsilon(1e-6).margin(1e-12 * t.linear_initial_residual));
    fs::remove_all(dir);
  }
}
