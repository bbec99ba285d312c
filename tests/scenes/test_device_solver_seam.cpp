// The seam of the CUDA backend's linear solve (sim/device_linear_solver.hpp, Workspace::
// device_solver), checked on the CPU with a stand-in "device" that rebuilds the system from the
// arrays it is handed and solves it with the CPU's own PCR: the arrays are the solver's system
// (its adjacency rebuilt from the entries is the one handed over) and the Newton loop takes the
// solutions as they come (30 steps end in the same bits as without the seam, on scenes with
// unconverged steps too), a device below whose min_rows every system falls is never called, and
// a device that fails is reported (kStepLinearFallback, a message) and the solve done on the CPU
// (the same bits). The real device is tests/gpu/test_cuda_backend.cpp.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <memory>

#include "sim/device_linear_solver.hpp"
#include "sim/step.hpp"
#include "support/captured_system.hpp"
#include "solver/linear_solvers.hpp"
#include "solver/schur_system.hpp"

using sim::Real;

namespace {

// The CPU's own PCR behind the seam: the arrays handed over rebuilt as a RowSet, an InverseMass
// and a SchurSystem (whose adjacency must equal the one handed over), solved by solve_linear.
class CpuBehindSeam final : public sim::DeviceLinearSolver {
 public:
  explicit CpuBehindSeam(const sim::Model& m) : model_(m) {}
  int min_rows_value = 1;
  bool fail = false;
  int calls = 0;
  int inconsistent = 0;  // handed-over adjacencies that differ from the rebuilt one

  std::string description() const override { return "test: the CPU behind the seam"; }
  int min_rows() const override { return min_rows_value; }

  bool solve_pcr(const sim::SchurSystemArrays& a, const Real* b, Real* x, int iterations, Real tolerance,
                 sim::DeviceLinearStats& stats, std::vector<Real>* history, std::string& error) override {
    ++calls;
    if (fail) {
      error = "test failure";
      return false;
    }
    REQUIRE(a.body_count == model_.body_count);
    REQUIRE(a.particle_count == model_.particle_count);
    sim::RowSet rows;
    rows.count = a.rows;
    rows.entry_count = a.entries;
    rows.row_entry_first.assign(a.row_entry_first, a.row_entry_first + a.rows + 1);
    rows.entry_node.assign(a.entry_node, a.entry_node + a.entries);
    rows.entry_dof.assign(a.entry_dof, a.entry_dof + a.entries);
    rows.entry_width.assign(a.entry_width, a.entry_width + a.entries);
    rows.entry_jac.assign(a.entry_jac, a.entry_jac + a.entries);
    rows.entry_grad = rows.entry_jac;
    rows.entry_row.resize(static_cast<std::size_t>(a.entries));
    for (int i = 0; i < a.rows; ++i)
      for (int e = a.row_entry_first[i]; e < a.row_entry_first[i + 1]; ++e) rows.entry_row[static_cast<std::size_t>(e)] = i;
    rows.row_diag_c.assign(a.c_diagonal, a.c_diagonal + a.rows);
    sim::InverseMass h;
    h.body_inv_mass.assign(a.body_inv_mass, a.body_inv_mass + a.body_count);
    h.body_inv_inertia.assign(a.body_inv_inertia, a.body_inv_inertia + a.body_count);
    h.particle_inv_mass.assign(a.particle_inv_mass, a.particle_inv_mass + 3 * a.particle_count);
    std::vector<int> first, entries, entry_rows;
    sim::SchurSystem A(model_, rows, h, 0, first, entries, entry_rows);
    A.build_adjacency();
    const int nodes = a.body_count + a.particle_count;
    if (!std::equal(first.begin(), first.end(), a.node_entry_first) ||
        !std::equal(entries.begin(), entries.end(), a.node_entries) ||
        !std::equal(entry_rows.begin(), entry_rows.end(), a.node_entry_rows) || static_cast<int>(first.size()) != nodes + 1)
      ++inconsistent;
    const sim::VecX rhs = Eigen::Map<const sim::VecX>(b, a.rows);
    sim::VecX solution;
    sim::LinearScratch scratch;
    const sim::LinearSolveStats st =
        sim::solve_linear(sim::LinearSolver::PCR, A, rhs, solution, iterations, tolerance, 1, scratch, history);
    for (int i = 0; i < a.rows; ++i) x[i] = solution[i];
    stats.iterations = st.iterations;
    stats.initial_residual = st.initial_residual;
    stats.final_residual = st.final_residual;
    stats.breakdown = static_cast<int>(st.breakdown);
    return true;
  }

 private:
  const sim::Model& model_;
};

struct Run {
  sim::State state;
  int fallbacks = 0;
  std::string message;
};

Run run(const sim::Model& m, int steps, const std::shared_ptr<sim::DeviceLinearSolver>& device) {
  sim::SolverOptions o = m.solver;
  o.linear_solver = sim::LinearSolver::PCR;
  // The links' exact curvature solves rope and cloth with the factorised H̃, which no device
  // solver takes (solve_pcr_on_device): off, so their plain PCR systems go through the seam.
  o.rope_geometric_stiffness = false;
  Run out;
  out.state = sim::make_initial_state(m);
  sim::Workspace ws;
  ws.device_solver = device;
  const sim::Control control = sim::make_initial_control(m);
  for (int i = 0; i < steps; ++i) {
    const sim::StepReport r = sim::step(m, o, out.state, control, ws);
    INFO("step " << i << ": " << r.message);
    REQUIRE(r.ok());
    if (r.warnings & sim::kStepLinearFallback) ++out.fallbacks, out.message = r.message;
  }
  return out;
}

bool same_bits(const sim::State& a, const sim::State& b) {
  return a.q.size() == b.q.size() && a.u.size() == b.u.size() &&
         std::memcmp(a.q.data(), b.q.data(), a.q.size() * sizeof(Real)) == 0 &&
         std::memcmp(a.u.data(), b.u.data(), a.u.size() * sizeof(Real)) == 0;
}

}  // namespace

TEST_CASE("the Newton loop hands its PCR systems to a device solver and takes its solutions",
          "[scene][solver][linear][backend]") {
  // The CPU's PCR behind the seam: the same bits as without it, on contacts, joints-free stacks,
  // particles and a cloth landing on a sphere with unconverged steps.
  for (const char* scene : {"heavy_stack", "rope", "pyramid", "cloth"}) {
    INFO(scene);
    const sim::Model m = test::load_shipped_model(scene);
    const Run cpu = run(m, 30, nullptr);
    auto device = std::make_shared<CpuBehindSeam>(m);
    const Run seam = run(m, 30, device);
    INFO(device->calls << " solves through the seam");
    CHECK(device->calls > 0);
    CHECK(device->inconsistent == 0);
    CHECK(seam.fallbacks == 0);
    CHECK(same_bits(seam.state, cpu.state));
  }
}

TEST_CASE("a device solver is skipped below its min_rows, and a failing one is reported and replaced by the CPU",
          "[scene][solver][linear][backend]") {
  const sim::Model m = test::load_shipped_model("heavy_stack");
  const Run cpu = run(m, 20, nullptr);
  auto big = std::make_shared<CpuBehindSeam>(m);
  big->min_rows_value = 1 << 30;
  const Run skipped = run(m, 20, big);
  CHECK(big->calls == 0);
  CHECK(same_bits(skipped.state, cpu.state));
  auto broken = std::make_shared<CpuBehindSeam>(m);
  broken->fail = true;
  const Run failed = run(m, 20, broken);
  CHECK(broken->calls > 0);
  CHECK(failed.fallbacks > 0);
  CHECK(failed.message.find("device linear solve failed (test failure); solved on the CPU") != std::string::npos);
  CHECK(same_bits(failed.state, cpu.state));
}
