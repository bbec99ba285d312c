// `coulomb run <scene>`: steps a scene headless and prints, per step, time, iterations and
// residuals; optionally writes the solver trace (JSON) and the states (CSV).
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>

#include "cli/cli_common.hpp"
#include "cli/commands.hpp"
#include "cli/interrupt.hpp"
#include "cli/state_csv.hpp"
#include "cli/trace_json.hpp"
#include "sim/recording.hpp"
#include "sim/solve_capture.hpp"
#include "sim/step.hpp"

namespace coulomb {

int run_command(int argc, char** argv, int first) {
  auto args = parse_args(argc, argv, first, {"steps", "dt", "set", "trace", "record", "threads", "every", "save-session", "capture-step", "capture", "capture-system"}, {"quiet", "free-base"});
  if (!args) {
    std::fprintf(stderr, "coulomb run: %s\n", args.error().c_str());
    return 2;
  }
  if (args->positional.size() != 1) {
    std::fprintf(stderr, "usage: coulomb run <scene> [--steps N] [--dt s] [--set solver.key=value ...]\n"
                         "                   [--trace file.json] [--record file.csv] [--save-session file.rec] [--threads N]\n"
                         "                   [--every K] [--quiet] [--free-base]\n"
                         "                   [--capture-step N --capture folder [--capture-system K]]\n"
                         "  --free-base: a URDF robot's root link is free (default: fixed to the world)\n"
                         "  --capture-step N: keep every Newton iterate of step N (0-based) in the capture folder\n"
                         "    (coulomb solve-captured re-solves it); --capture-system K: also its Newton system at\n"
                         "    iteration K in Matrix Market format\n");
    return 2;
  }
  ThreadLimit threads(*args);
  auto scene = load_scene(args->positional[0], *args);
  if (!scene) {
    std::fprintf(stderr, "coulomb run: %s\n", scene.error().c_str());
    return 1;
  }
  const sim::Model& model = scene->model;
  const int steps = args->value("steps") ? std::atoi(args->value("steps")->c_str()) : 600;
  const int every = args->value("every") ? std::max(1, std::atoi(args->value("every")->c_str())) : 1;
  const bool quiet = args->has_flag("quiet");
  auto whole_number = [&](const char* name, int fallback) -> int {
    const auto v = args->value(name);
    if (!v) return fallback;
    char* end = nullptr;
    const long n = std::strtol(v->c_str(), &end, 10);
    return end != v->c_str() && *end == '\0' && n >= 0 && n < (1L << 30) ? static_cast<int>(n) : -2;
  };
  const int capture_step = whole_number("capture-step", -1), capture_system = whole_number("capture-system", -1);
  if (capture_step == -2 || capture_system == -2 || (capture_step >= 0) != args->value("capture").has_value() ||
      (capture_system >= 0 && capture_step < 0)) {
    std::fprintf(stderr, "coulomb run: --capture-step N (a step number) goes with --capture folder, "
                         "--capture-system K (a Newton iteration) with both\n");
    return 2;
  }
  sim::SolveCapture capture;
  capture.system_iteration = capture_system;

  std::ofstream trace_file, record_file;
  if (auto p = args->value("trace")) {
    trace_file.open(*p);
    if (!trace_file) {
      std::fprintf(stderr, "coulomb run: cannot write %s\n", p->c_str());
      return 1;
    }
    trace_file << "[\n";
  }
  if (auto p = args->value("record")) {
    record_file.open(*p);
    if (!record_file) {
      std::fprintf(stderr, "coulomb run: cannot write %s\n", p->c_str());
      return 1;
    }
    write_state_csv_header(record_file);
    write_state_csv(record_file, model, sim::make_initial_state(model));
  }

  sim::State state = sim::make_initial_state(model);
  sim::Control control = sim::make_initial_control(model);
  sim::Workspace ws;
  ws.cancel = &install_interrupt_handler();  // Ctrl+C stops the step in progress and the run
  sim::Recording session;
  const auto session_path = args->value("save-session");
  if (session_path) session.begin(args->positional[0], model, model.solver, state);
  std::printf("scene %s: %d bodies, %d particles, %d joints, dt %.4g s, solver %s\n", scene->spec.name.c_str(),
              model.body_count, model.particle_count, model.joint_count, double(model.dt),
              describe_solver(model.solver).c_str());
  std::printf("%s\n", load_summary(*scene).c_str());
  if (!quiet)
    std::printf("%6s %9s %8s %6s %6s %8s %10s %10s %10s %10s\n", "step", "time", "ms", "iters", "linear",
                "contacts", "normal", "friction", "bilateral", "compl");
  double total_ms = 0;
  int failures = 0, unconverged = 0, fallbacks = 0;
  int steps_run = steps;  // fewer after Ctrl+C
  for (int i = 0; i < steps; ++i) {
    if (ws.cancel->load()) {
      steps_run = i;
      break;
    }
    if (session_path) session.record(control);
    ws.capture = i == capture_step ? &capture : nullptr;
    const sim::StepReport r = sim::step(model, state, control, ws);
    if (r.flags & sim::kStepCancelled) {  // Ctrl+C inside the step: it was undone, not failed
      if (session_path) session.controls.pop_back();
      steps_run = i;
      break;
    }
    if (i == capture_step) {
      if (auto saved = sim::save_capture(capture, model, args->positional[0], *args->value("capture")); !saved) {
        std::fprintf(stderr, "coulomb run: %s\n", saved.error().c_str());
        return 1;
      }
      std::printf("step %d captured in %s: %zu iterates of %d rows%s\n", i, args->value("capture")->c_str(),
                  capture.iterates.size(), capture.rows.count(),
                  capture.system.iteration >= 0 ? ", with its Newton system" : "");
    }
    total_ms += r.timings.total;
    unconverged += r.unconverged_solves > 0 ? 1 : 0;
    fallbacks += r.linear_fallbacks;
    if ((r.warnings & sim::kStepLinearFallback) && !quiet)
      std::printf("step %d: linear solve broke down, redone with Gauss-Seidel (%d time(s))\n", i, r.linear_fallbacks);
    if (!r.ok()) {
      ++failures;
      std::printf("step %d: DIVERGED: %s (rows:", i, r.message.c_str());
      for (int row : r.offending_rows) std::printf(" %d", row);
      std::printf(")\n");
    }
    if (!quiet && (i % every == 0 || i + 1 == steps))
      std::printf("%6d %9.4f %8.3f %6d %6d %8d %10.3e %10.3e %10.3e %10.3e\n", i, double(state.time), r.timings.total,
                  r.newton_iterations, r.linear_iterations, r.contact_count, double(ws.trace.final_normal_max),
                  double(ws.trace.final_friction_max), double(ws.trace.final_bilateral_max),
                  double(ws.trace.final_complementarity_max));
    if (trace_file.is_open()) {
      if (i > 0) trace_file << ",\n";
      write_trace_json(trace_file, i, double(state.time), r, ws.trace);
    }
    if (record_file.is_open()) write_state_csv(record_file, model, state);
  }
  if (trace_file.is_open()) trace_file << "\n]\n";
  if (session_path) {
    session.final_hash = sim::state_hash(state);
    if (auto saved = sim::save_recording(session, *session_path); !saved) {
      std::fprintf(stderr, "coulomb run: %s\n", saved.error().c_str());
      return 1;
    }
    std::printf("session saved to %s (%zu steps)\n", session_path->c_str(), session.controls.size());
  }
  const bool interrupted = steps_run < steps;
  if (interrupted)
    std::printf("interrupted (Ctrl+C) after %d of %d steps; the outputs hold those steps\n", steps_run, steps);
  const double sim_time = double(model.dt) * steps_run;
  std::printf("ran %d steps in %.1f ms (%.3f ms/step, real-time factor %.2f), %d diverged steps, %d not converged "
              "(tolerance %.3g m, %.3g m/s within %d iterations), %d linear fallbacks, state hash %016llx\n",
              steps_run, total_ms, total_ms / std::max(steps_run, 1), sim_time * 1000.0 / std::max(total_ms, 1e-9), failures,
              unconverged, double(model.solver.newton_tolerance), double(model.solver.newton_velocity_tolerance),
              sim::iteration_cap(model.solver), fallbacks, static_cast<unsigned long long>(sim::state_hash(state)));
  return interrupted ? 130 : failures == 0 ? 0 : 3;
}

}  // namespace coulomb
