// The CUDA backend's linear solver (sim/cuda/cuda_linear_solver.hpp) inside whole steps: shipped
// scenes run 100 steps on the CPU, and from each CPU state one step with every PCR solve on the
// device (min_rows 0): steps both converge agree within the solver's tolerances, no device solve
// fails, and two device runs of 100 steps end in the same bits (CUB's run-to-run determinism).
// A [benchmark] case prints ms per step on box pyramids, CPU against the backend with its default
// min_rows. Says "skipped: no CUDA device" without a GPU.
#include <catch2/catch.hpp>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>

#include "cuda/cuda_linear_solver.hpp"
#include "sim/scene_io.hpp"
#include "sim/step.hpp"
#include "support/pyramid_scene.hpp"
#include "support/scene_builders.hpp"
#include "support/shipped_run.hpp"

using sim::Real;

namespace {

std::shared_ptr<sim::DeviceLinearSolver> device_or_skip(int min_rows) {
  std::string message;
  auto device = sim::cuda::make_cuda_linear_solver(message, min_rows);
  if (!device) WARN("skipped: " << message);
  return device;
}

struct Run {
  std::vector<sim::State> states;  // after each step
  int fallbacks = 0;
  double ms = 0;                   // the steps' own timings
};

Run run(const sim::Model& m, int steps, const std::shared_ptr<sim::DeviceLinearSolver>& device) {
  sim::SolverOptions o = m.solver;
  o.linear_solver = sim::LinearSolver::PCR;
  o.rope_geometric_stiffness = false;  // as below
  sim::State state = sim::make_initial_state(m);
  sim::Workspace ws;
  ws.device_solver = device;
  const sim::Control control = sim::make_initial_control(m);
  Run out;
  for (int i = 0; i < steps; ++i) {
    const sim::StepReport r = sim::step(m, o, state, control, ws);
    REQUIRE(r.ok());
    if (r.warnings & sim::kStepLinearFallback) ++out.fallbacks;
    out.ms += r.timings.total;
    out.states.push_back(state);
  }
  return out;
}


}  // namespace

TEST_CASE("the CUDA backend's steps are the CPU's, step by step over 100 steps, and the same bits run to run",
          "[gpu][backend]") {
  const auto device = device_or_skip(0);
  if (!device) return;
  std::printf("backend: %s\n", device->description().c_str());
  int converged_steps = 0;  // over the scenes (the 210-box pyramid converges on no step at its defaults)
  for (const char* name : {"heavy_stack", "pyramid", "table_pile", "cloth", "rope"}) {
    INFO(name);
    const sim::Model m = test::load_shipped_model(name);
    sim::SolverOptions o = m.solver;
    o.linear_solver = sim::LinearSolver::PCR;
    // The links' exact curvature solves rope and cloth with the factorised H̃, which the device
    // does not take (solve_pcr_on_device): off, so their PCR systems run on the device.
    o.rope_geometric_stiffness = false;
    const sim::Control control = sim::make_initial_control(m);
    // The CPU's trajectory; from each of its states one step on the device (its own workspace
    // sees the same sequence of states, so its warm starts are its own solves of the same steps).
    // Trajectories themselves part where steps end unconverged (a solve's last digits change
    // which iterate a step keeps: tests/scenes/test_device_solver_seam.cpp), so the parity is per
    // step: a step both solvers converged agrees within the solver's tolerances (1e-6 m, 1e-5
    // m/s over h: asserted 1e-5 m); unconverged steps are reported.
    sim::State cpu = sim::make_initial_state(m);
    sim::Workspace ws_cpu, ws_gpu;
    ws_gpu.device_solver = device;
    Real converged_worst = 0, unconverged_worst = 0;
    int converged = 0, unconverged = 0, fallbacks = 0;
    for (int k = 0; k < 100; ++k) {
      sim::State gpu = cpu;
      const sim::StepReport rc = sim::step(m, o, cpu, control, ws_cpu);
      const sim::StepReport rg = sim::step(m, o, gpu, control, ws_gpu);
      REQUIRE(rc.ok());
      REQUIRE(rg.ok());
      if (rg.warnings & sim::kStepLinearFallback) ++fallbacks;
      Real d = 0;
      for (std::size_t i = 0; i < cpu.q.size(); ++i) d = std::max(d, std::abs(cpu.q[i] - gpu.q[i]));
      REQUIRE(std::isfinite(d));
      if (!(rc.warnings & sim::kStepNotConverged) && !(rg.warnings & sim::kStepNotConverged))
        ++converged, converged_worst = std::max(converged_worst, d);
      else
        ++unconverged, unconverged_worst = std::max(unconverged_worst, d);
    }
    std::printf("%s: %d steps converged on both, positions within %.2e m of the CPU's; %d not (within %.2e m)\n", name,
                converged, converged_worst, unconverged, unconverged_worst);
    CHECK(fallbacks == 0);
    CHECK(converged_worst < 1e-5);
    converged_steps += converged;
  }
  CHECK(converged_steps >= 100);
  // Deterministic: two runs of 100 steps on the device end in the same bits.
  for (const char* name : {"pyramid", "cloth"}) {
    INFO(name);
    const sim::Model m = test::load_shipped_model(name);
    const Run a = run(m, 100, device), b = run(m, 100, device);
    CHECK(std::memcmp(a.states.back().q.data(), b.states.back().q.data(), a.states.back().q.size() * sizeof(Real)) == 0);
    CHECK(std::memcmp(a.states.back().u.data(), b.states.back().u.data(), a.states.back().u.size() * sizeof(Real)) == 0);
  }
}

TEST_CASE("the CUDA backend against the CPU on box pyramids: ms per step", "[gpu][backend][benchmark]") {
  const auto device = device_or_skip(sim::cuda::kDefaultDeviceMinRows);
  if (!device) return;
  std::printf("%8s | %12s %12s %8s   (20 steps after 3, default threads)\n", "bodies", "CPU ms/step", "CUDA ms/step",
              "ratio");
  for (int n : {20, 40, 80, 142}) {  // 210 to 10,153 boxes (the last: issue 17's 10k+ body pile)
    auto spec = sim::parse_scene_xml(test::pyramid_xml(n), "pyramid.xml");
    REQUIRE(spec.ok());
    const sim::Model m = test::compile(*spec);
    auto timed = [&](const std::shared_ptr<sim::DeviceLinearSolver>& d) {
      sim::SolverOptions o = m.solver;
      sim::State state = sim::make_initial_state(m);
      sim::Workspace ws;
      ws.device_solver = d;
      const sim::Control control = sim::make_initial_control(m);
      for (int i = 0; i < 3; ++i) sim::step(m, o, state, control, ws);
      const auto t0 = std::chrono::steady_clock::now();
      for (int i = 0; i < 20; ++i) sim::step(m, o, state, control, ws);
      return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count() / 20;
    };
    const double cpu = timed(nullptr), gpu = timed(device);
    std::printf("%8d | %12.2f %12.2f %8.2f\n", m.body_count, cpu, gpu, cpu / gpu);
  }
}
