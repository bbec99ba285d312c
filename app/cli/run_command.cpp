// `coulomb run <scene>`: steps a scene headless and prints, per step, time, iterations and
// residuals; optionally writes the solver trace (JSON) and the states (CSV).
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>

#include "cli/backend.hpp"
#include "cli/cli_common.hpp"
#include "cli/commands.hpp"
#include "cli/interrupt.hpp"
#include "cli/state_csv.hpp"
#include "cli/trace_json.hpp"
#include "sim/atomic_file.hpp"
#include "sim/recording.hpp"
#include "sim/solve_capture.hpp"
#include "sim/step.hpp"

namespace coulomb {

namespace {

void usage() {
  std::fprintf(stderr, "usage: coulomb run <scene> [--steps N] [--dt s] [--set solver.key=value ...]\n"
                       "                   [--trace file.json] [--record file.csv] [--save-session file.rec] [--threads N]\n"
                       "                   [--every K] [--quiet] [--free-base] [--backend cpu|cuda|auto]\n"
                       "                   [--capture-step N --capture folder [--capture-system K]]\n"
                       "  --steps N: 0 .. 1000000000 (default 600); --every K: 1 .. 1000000000; --dt s: (0, 1];\n"
                       "    --threads N: 0 (default) .. 1024\n"
                       "  --free-base: a URDF robot's root link is free (default: fixed to the world)\n"
                       "  --backend: where large PCR solves run; auto (default): CUDA where built and a device is present\n"
                       "  --capture-step N: keep every Newton iterate of step N (0-based) in the capture folder\n"
                       "    (coulomb solve-captured re-solves it); --capture-system K: also its Newton system at\n"
                       "    iteration K in Matrix Market format\n"
                       "  outputs are written to a temporary file and renamed over the file at the end; none may be\n"
                       "    one of the run's input files\n");
}

}  // namespace

int run_command(int argc, char** argv, int first) {
  auto args = parse_args(argc, argv, first, {"steps", "dt", "set", "trace", "record", "threads", "every", "save-session", "capture-step", "capture", "capture-system", "backend"}, {"quiet", "free-base"});
  if (!args) {
    print_error("run", args.error());
    usage();
    return 2;
  }
  if (args->positional.size() != 1) {
    usage();
    return 2;
  }
  int steps = 600, every = 1, capture_step = -1, capture_system = -1;
  if (!integer_option(*args, "steps", "run", steps, 0, kMaxSteps) || !integer_option(*args, "every", "run", every, 1, kMaxSteps) ||
      !integer_option(*args, "capture-step", "run", capture_step, 0, kMaxSteps) ||
      !integer_option(*args, "capture-system", "run", capture_system, 0, 1 << 30) || !check_common_options(*args, "run")) {
    usage();
    return 2;
  }
  if ((capture_step >= 0) != args->value("capture").has_value() || (capture_system >= 0 && capture_step < 0)) {
    std::fprintf(stderr, "coulomb run: --capture-step N (a step number) goes with --capture folder, "
                         "--capture-system K (a Newton iteration) with both\n");
    return 2;
  }
  Backend backend;
  if (!choose_backend(*args, "run", backend)) {
    usage();
    return 2;
  }
  auto scene = load_scene(args->positional[0], *args);
  if (!scene) {
    print_error("run", scene.error());
    return 1;
  }
  const sim::Model& model = scene->model;
  const bool quiet = args->has_flag("quiet");
  // No output may replace one of the files this run reads (`--trace scene.xml`).
  if (!check_outputs(*args, "run", {"trace", "record", "save-session"}, scene_input_files(*scene))) return 2;
  sim::SolveCapture capture;
  capture.system_iteration = capture_system;

  // The trace and the states go to temporary files beside their destinations, renamed over them
  // at the end (sim/atomic_file.hpp): a failed or interrupted run leaves the previous files.
  std::optional<sim::AtomicFile> trace_file, record_file;
  if (auto p = args->value("trace")) {
    trace_file.emplace(*p);
    if (!trace_file->ok()) {
      print_error("run", trace_file->error());
      return 1;
    }
    trace_file->write("[\n");
  }
  if (auto p = args->value("record")) {
    record_file.emplace(*p);
    if (!record_file->ok()) {
      print_error("run", record_file->error());
      return 1;
    }
    write_state_csv_header(record_file->stream());
    write_state_csv(record_file->stream(), model, sim::make_initial_state(model));
  }

  sim::State state = sim::make_initial_state(model);
  sim::Control control = sim::make_initial_control(model);
  sim::Workspace ws;
  ws.device_solver = backend.device;
  ws.cancel = &install_interrupt_handler();  // Ctrl+C stops the step in progress and the run
  sim::Recording session;
  const auto session_path = args->value("save-session");
  if (session_path) session.begin(args->positional[0], model, model.solver, state);
  std::printf("scene %s: %d bodies, %d particles, %d joints, dt %.4g s, solver %s\n", scene->spec.name.c_str(),
              model.body_count, model.particle_count, model.joint_count, double(model.dt),
              describe_solver(model.solver).c_str());
  std::printf("%s\n", load_summary(*scene).c_str());
  if (backend.device) std::printf("backend: %s\n", backend.description.c_str());
  if (!quiet)
    std::printf("%6s %9s %8s %6s %6s %8s %10s %10s %10s %10s\n", "step", "time", "ms", "iters", "linear",
                "contacts", "normal", "friction", "bilateral", "compl");
  double total_ms = 0;
  int failures = 0, unconverged = 0, fallbacks = 0, retried = 0;
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
        print_error("run", saved.error());
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
    if (r.warnings & sim::kStepRetried) {
      ++retried;
      if (!quiet) std::printf("step %d: %s\n", i, r.message.c_str());
    }
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
    if (trace_file) {
      if (i > 0) trace_file->write(",\n");
      write_trace_json(trace_file->stream(), i, double(state.time), r, ws.trace);
    }
    if (record_file) write_state_csv(record_file->stream(), model, state);
  }
  if (trace_file) trace_file->write("\n]\n");
  // Committed (renamed over the destinations) only now; a failure names the file and the reason.
  for (std::optional<sim::AtomicFile>* out : {&trace_file, &record_file}) {
    if (!*out) continue;
    if (std::string e = (*out)->commit(); !e.empty()) {
      print_error("run", e);
      return 1;
    }
  }
  if (session_path) {
    session.final_hash = sim::state_hash(state);
    if (auto saved = sim::save_recording(session, *session_path); !saved) {
      print_error("run", saved.error());
      return 1;
    }
    std::printf("session saved to %s (%zu steps)\n", session_path->c_str(), session.controls.size());
  }
  const bool interrupted = steps_run < steps;
  if (interrupted)
    std::printf("interrupted (Ctrl+C) after %d of %d steps; the outputs hold those steps\n", steps_run, steps);
  const double sim_time = double(model.dt) * steps_run;
  std::printf("ran %d steps in %.1f ms (%.3f ms/step, real-time factor %.2f), %d diverged steps, %d not converged "
              "(tolerance %.3g m, %.3g m/s within %d iterations), %d linear fallbacks, %d retried steps, state hash %016llx\n",
              steps_run, total_ms, total_ms / std::max(steps_run, 1), sim_time * 1000.0 / std::max(total_ms, 1e-9), failures,
              unconverged, double(model.solver.newton_tolerance), double(model.solver.newton_velocity_tolerance),
              sim::iteration_cap(model.solver), fallbacks, retried, static_cast<unsigned long long>(sim::state_hash(state)));
  return interrupted ? 130 : failures == 0 ? 0 : 3;
}

}  // namespace coulomb
