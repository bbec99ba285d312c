// The device PCR (sim/cuda/device_pcr.hpp) against the CPU's production PCR on captured Newton
// systems of shipped scenes (contacts: heavy_stack, table_pile, pyramid; particles: cloth, rope):
// the system is rebuilt in the solver's own form (tests/support/captured_schur.hpp), uploaded,
// and solved on the device for the captured solve's iterations. The device sums in another order
// than the CPU's chunks and nvcc contracts multiply-adds, so x and the residual history agree to
// round-off (1e-10 of their scale after 15 iterations), not to the bit; two device solves agree
// to the bit (CUB's reductions are run-to-run deterministic). The stop test ends the solve on the
// same iteration as the CPU's, a row with a negative diagonal is the same breakdown, and the solve
// replayed from a CUDA graph gives the same bits. A [benchmark] case prints ms per PCR iteration,
// the CPU on one thread against the device (launched, and replayed as a graph), on box pyramids up
// to 3,240 bodies. Says "skipped: no CUDA device" where no GPU is present.
#include <catch2/catch.hpp>
#include <tbb/task_arena.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>

#include "cuda/device_pcr.hpp"
#include "gpu/device_array.hpp"
#include "sim/scene_io.hpp"
#include "solver/linear_solvers.hpp"
#include "support/captured_schur.hpp"
#include "support/captured_system.hpp"
#include "support/pyramid_scene.hpp"

using sim::Real;
using test::DeviceArray;

namespace {

// A captured system's arrays in device memory and the view the solver reads.
struct DeviceSchur {
  explicit DeviceSchur(const test::CapturedSchur& c)
      : entry_first(c.rows.row_entry_first), entry_dof(c.rows.entry_dof), entry_width(c.rows.entry_width),
        entry_jac(c.rows.entry_jac), entry_node(c.rows.entry_node), node_first(c.node_entry_first),
        node_entries(c.node_entries), node_rows(c.node_entry_rows), node_dof(c.node_dof), node_width(c.node_width),
        body_inv_mass(c.inv_mass.body_inv_mass), body_inv_inertia(c.inv_mass.body_inv_inertia),
        particle_inv_mass(c.inv_mass.particle_inv_mass), c_diagonal(c.rows.row_diag_c) {
    view.rows = {entry_first.get(), entry_dof.get(), entry_width.get(), entry_jac.get()};
    view.entry_node = entry_node.get();
    view.nodes = {node_first.get(), node_entries.get(), node_rows.get()};
    view.node_dof = node_dof.get();
    view.node_width = node_width.get();
    view.inv_mass = {body_inv_mass.get(), body_inv_inertia.get(), particle_inv_mass.get(),
                     static_cast<int>(c.inv_mass.body_inv_mass.size())};
    view.c_diagonal = c_diagonal.get();
    view.row_count = c.rows.count;
    view.node_count = static_cast<int>(c.node_dof.size());
    view.dof_count = c.node_dof.empty() ? 0 : c.node_dof.back() + c.node_width.back();
  }
  DeviceArray<int> entry_first, entry_dof;
  DeviceArray<std::int8_t> entry_width;
  DeviceArray<sim::Vec6> entry_jac;
  DeviceArray<int> entry_node, node_first, node_entries, node_rows, node_dof, node_width;
  DeviceArray<Real> body_inv_mass;
  DeviceArray<sim::Mat3> body_inv_inertia;
  DeviceArray<Real> particle_inv_mass, c_diagonal;
  sim::cuda::DeviceSchurView view;
};

struct DeviceSolve {
  std::vector<Real> x, history;
  sim::cuda::DevicePcrResult result;
};

// A stream of its own (stream capture cannot record the legacy default stream).
struct Stream {
  Stream() { REQUIRE(cudaStreamCreate(&stream) == cudaSuccess); }
  ~Stream() { cudaStreamDestroy(stream); }
  cudaStream_t stream = nullptr;
};

// One solve; `graph`: recorded as a CUDA graph and launched from it (twice: the second launch
// must give what the first did).
DeviceSolve solve_on_device(const DeviceSchur& a, const std::vector<Real>& b, int iterations, Real tolerance,
                            bool graph = false) {
  sim::cuda::DevicePcr pcr;
  REQUIRE(pcr.reserve(a.view.row_count, a.view.dof_count, std::max(iterations, 1)) == cudaSuccess);
  const DeviceArray<Real> d_b(b), d_x(b.size());
  const Stream s;
  if (graph) {
    REQUIRE(pcr.record_graph(a.view, d_b.get(), d_x.get(), iterations, tolerance, s.stream) == cudaSuccess);
    REQUIRE(pcr.launch_graph(s.stream) == cudaSuccess);
    REQUIRE(cudaMemsetAsync(d_x.get(), 0xff, b.size() * sizeof(Real), s.stream) == cudaSuccess);  // NaN: must be rewritten
    REQUIRE(pcr.launch_graph(s.stream) == cudaSuccess);
  } else {
    REQUIRE(pcr.solve(a.view, d_b.get(), d_x.get(), iterations, tolerance, s.stream) == cudaSuccess);
  }
  DeviceSolve out;
  REQUIRE(pcr.result(out.result, &out.history, s.stream) == cudaSuccess);
  out.x = d_x.download();
  return out;
}

Real max_abs(const std::vector<Real>& v) {
  Real m = 0;
  for (Real x : v) m = std::max(m, std::abs(x));
  return m;
}


}  // namespace

TEST_CASE("the device PCR gives the CPU's iterates on captured Newton systems", "[gpu][solver][linear]") {
  if (!test::cuda_device_present()) return;
  struct Scene {
    const char* name;
    int steps;
  };
  int compared = 0;
  for (const Scene& sc : {Scene{"heavy_stack", 30}, Scene{"table_pile", 20}, Scene{"pyramid", 10},
                          Scene{"cloth", 40}, Scene{"rope", 10}}) {
    INFO(sc.name);
    const sim::Model m = test::load_shipped_model(sc.name);
    const sim::SolveCapture c = test::capture_shipped_system(sc.name, sc.steps, 0, sim::LinearSolver::PCR, 15);
    REQUIRE(c.filled);
    REQUIRE(c.system.iteration == 0);
    const sim::IterationTrace& it = c.iterates.at(0).trace;
    REQUIRE(it.linear_iterations > 0);
    test::CapturedSchur schur;
    test::build_captured_schur(m, c.system, schur);
    const DeviceSchur device(schur);
    const DeviceSolve d = solve_on_device(device, c.system.b, it.linear_iterations, 0);
    CHECK(d.result.breakdown == 0);
    REQUIRE(d.result.iterations == it.linear_iterations);
    // x and the residuals against the CPU's solve of the same system.
    Real diff = 0;
    for (int i = 0; i < c.system.rows; ++i) diff = std::max(diff, std::abs(d.x[std::size_t(i)] - c.system.x[std::size_t(i)]));
    const Real rel = diff / max_abs(c.system.x);
    const Real* cpu = c.linear_residuals.data() + it.linear_residual_offset;
    Real worst = 0;
    for (int k = 0; k < d.result.iterations; ++k) worst = std::max(worst, std::abs(d.history[std::size_t(k)] - cpu[k]) / cpu[0]);
    INFO("rows " << c.system.rows << ", iterations " << d.result.iterations << ": x differs by " << rel
                 << " of its largest entry, the residuals by " << worst << " of the first");
    std::printf("device PCR, %s: %d rows, %d iterations, x within %.1e, residuals within %.1e of the CPU's\n", sc.name,
                c.system.rows, d.result.iterations, rel, worst);
    CHECK(max_abs(c.system.x) > 0);
    CHECK(rel < 1e-10);
    CHECK(worst < 1e-10);
    CHECK(std::abs(d.result.final_residual - cpu[d.result.iterations - 1]) <= 1e-10 * cpu[0]);
    // Run to run, and replayed as a CUDA graph (twice): the same bits.
    const DeviceSolve again = solve_on_device(device, c.system.b, it.linear_iterations, 0);
    CHECK(std::memcmp(again.x.data(), d.x.data(), d.x.size() * sizeof(Real)) == 0);
    CHECK(std::memcmp(again.history.data(), d.history.data(), d.history.size() * sizeof(Real)) == 0);
    for (int replay = 0; replay < 2; ++replay) {
      const DeviceSolve graphed = solve_on_device(device, c.system.b, it.linear_iterations, 0, true);
      CHECK(graphed.result.iterations == d.result.iterations);
      CHECK(std::memcmp(graphed.x.data(), d.x.data(), d.x.size() * sizeof(Real)) == 0);
    }

    // The stop test: a tolerance between the 5th and 6th residuals ends both solves after the 6th.
    if (it.linear_iterations >= 8 && cpu[5] < cpu[4]) {
      const Real tol = 0.5 * (cpu[4] + cpu[5]) / d.result.initial_residual;
      sim::LinearScratch scratch;
      sim::VecX x;
      const sim::VecX b = Eigen::Map<const sim::VecX>(c.system.b.data(), c.system.rows);
      const sim::LinearSolveStats st = sim::solve_linear(sim::LinearSolver::PCR, *schur.system, b, x, 15, tol, 1, scratch, nullptr);
      const DeviceSolve stopped = solve_on_device(device, c.system.b, 15, tol);
      CHECK(st.iterations == 6);
      CHECK(stopped.result.iterations == st.iterations);
      CHECK(stopped.result.breakdown == 0);
    }
    ++compared;
  }
  CHECK(compared == 5);
}

TEST_CASE("the device PCR reports a row whose diagonal is negative as the CPU does", "[gpu][solver][linear]") {
  if (!test::cuda_device_present()) return;
  const sim::Model m = test::load_shipped_model("heavy_stack");
  const sim::SolveCapture c = test::capture_shipped_system("heavy_stack", 30, 0, sim::LinearSolver::PCR, 15);
  REQUIRE(c.system.iteration == 0);
  sim::CapturedSystem sys = c.system;
  sys.c_diagonal[std::size_t(sys.rows / 2)] = -1e9;  // a negative compliance
  test::CapturedSchur schur;
  test::build_captured_schur(m, sys, schur);
  sim::LinearScratch scratch;
  sim::VecX x;
  const sim::VecX b = Eigen::Map<const sim::VecX>(sys.b.data(), sys.rows);
  const sim::LinearSolveStats st = sim::solve_linear(sim::LinearSolver::PCR, *schur.system, b, x, 15, 0, 1, scratch, nullptr);
  REQUIRE(st.breakdown == sim::LinearBreakdown::NotPositive);
  const DeviceSchur device(schur);
  const DeviceSolve d = solve_on_device(device, sys.b, 15, 0);
  CHECK(d.result.breakdown == 1);
  CHECK(d.result.iterations == 0);
  CHECK(max_abs(d.x) == 0);
}

TEST_CASE("device PCR against the CPU's on box pyramids: ms per iteration", "[gpu][solver][linear][benchmark]") {
  if (!test::cuda_device_present()) return;
  std::printf("%8s %8s %8s | %10s %10s %10s %8s\n", "bodies", "rows", "entries", "CPU ms/it", "dev ms/it", "graph ms/it",
              "CPU/graph");
  for (int n : {10, 20, 40, 80}) {
    auto spec = sim::parse_scene_xml(test::pyramid_xml(n), "pyramid.xml");
    REQUIRE(spec.ok());
    const sim::Model m = test::compile(*spec);
    const sim::SolveCapture c = test::capture_scene_system(*spec, m, 3, 0, sim::LinearSolver::PCR, 15);
    if (c.system.iteration != 0 || c.system.rows == 0) {
      WARN("pyramid of " << m.body_count << ": no Newton system to time");
      continue;
    }
    test::CapturedSchur schur;
    test::build_captured_schur(m, c.system, schur);
    const int iterations = 200;
    // CPU: the production PCR on one thread, tolerance 0 (all iterations unless it breaks down).
    const sim::VecX b = Eigen::Map<const sim::VecX>(c.system.b.data(), c.system.rows);
    sim::LinearScratch scratch;
    sim::VecX x;
    sim::LinearSolveStats st;
    const auto t0 = std::chrono::steady_clock::now();
    tbb::task_arena(1).execute(
        [&] { st = sim::solve_linear(sim::LinearSolver::PCR, *schur.system, b, x, iterations, 0, 1, scratch, nullptr); });
    const double cpu_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    // Device: the same solve enqueued on a stream, then replayed as a CUDA graph, each timed by
    // events after a warm-up.
    const DeviceSchur device(schur);
    sim::cuda::DevicePcr pcr;
    REQUIRE(pcr.reserve(c.system.rows, m.dof_count(), iterations) == cudaSuccess);
    const DeviceArray<Real> d_b(c.system.b), d_x(c.system.b.size());
    const Stream s;
    cudaEvent_t start, stop;
    REQUIRE(cudaEventCreate(&start) == cudaSuccess);
    REQUIRE(cudaEventCreate(&stop) == cudaSuccess);
    auto timed = [&](auto&& enqueue) {
      REQUIRE(enqueue() == cudaSuccess);  // warm-up
      REQUIRE(cudaEventRecord(start, s.stream) == cudaSuccess);
      REQUIRE(enqueue() == cudaSuccess);
      REQUIRE(cudaEventRecord(stop, s.stream) == cudaSuccess);
      REQUIRE(cudaEventSynchronize(stop) == cudaSuccess);
      float ms = 0;
      REQUIRE(cudaEventElapsedTime(&ms, start, stop) == cudaSuccess);
      return static_cast<double>(ms);
    };
    const double device_ms = timed([&] { return pcr.solve(device.view, d_b.get(), d_x.get(), iterations, 0, s.stream); });
    REQUIRE(pcr.record_graph(device.view, d_b.get(), d_x.get(), iterations, 0, s.stream) == cudaSuccess);
    const double graph_ms = timed([&] { return pcr.launch_graph(s.stream); });
    sim::cuda::DevicePcrResult r;
    REQUIRE(pcr.result(r, nullptr, s.stream) == cudaSuccess);
    cudaEventDestroy(start);
    cudaEventDestroy(stop);
    CHECK(r.iterations == st.iterations);
    const double per = 1.0 / std::max(st.iterations, 1);
    std::printf("%8d %8d %8d | %10.4f %10.4f %10.4f %8.2f   (%d iterations; final residual CPU %.3e, device %.3e)\n",
                m.body_count, c.system.rows, schur.rows.entry_count, cpu_ms * per, device_ms * per, graph_ms * per,
                cpu_ms / graph_ms, st.iterations, st.final_residual, r.final_residual);
  }
}
