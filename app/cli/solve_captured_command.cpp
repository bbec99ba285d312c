// `coulomb solve-captured <capture folder>`: re-solves a step captured by `coulomb run
// --capture-step N --capture DIR` (or the app's solver debugger) headless from its saved input,
// prints the Newton trace and checks that the iterates are the captured ones bit for bit. With
// --set solver.key=value it solves the same step with another configuration and prints both
// convergence series side by side (an A/B comparison); --export-system K --out DIR writes the
// Newton system of iteration K in Matrix Market format.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>

#include "cli/cli_common.hpp"
#include "cli/commands.hpp"
#include "sim/captured_resolve.hpp"
#include "sim/recording.hpp"
#include "sim/solve_capture.hpp"
#include "sim/step.hpp"

namespace coulomb {

namespace {

void print_series(const sim::SolveCapture& a, const sim::SolveCapture* b) {
  std::printf("%4s %11s %11s %11s %11s %6s %6s%s\n", "iter", "merit", "normal", "friction", "momentum", "t", "linear",
              b ? "   | B: merit      normal    friction    momentum" : "");
  const std::size_t n = std::max(a.iterates.size(), b ? b->iterates.size() : std::size_t(0));
  for (std::size_t k = 0; k < n; ++k) {
    if (k < a.iterates.size()) {
      const sim::IterationTrace& t = a.iterates[k].trace;
      std::printf("%4zu %11.4e %11.4e %11.4e %11.4e %6.3f %6d", k, double(t.merit), double(t.normal_max),
                  double(t.friction_max), double(t.momentum_max), double(t.step_size), t.linear_iterations);
    } else {
      std::printf("%4zu %11s %11s %11s %11s %6s %6s", k, "", "", "", "", "", "");
    }
    if (b && k < b->iterates.size()) {
      const sim::IterationTrace& t = b->iterates[k].trace;
      std::printf("   | %11.4e %11.4e %11.4e %11.4e", double(t.merit), double(t.normal_max), double(t.friction_max),
                  double(t.momentum_max));
    }
    std::printf("\n");
  }
}

}  // namespace

int solve_captured_command(int argc, char** argv, int first) {
  auto args = parse_args(argc, argv, first, {"set", "scene", "export-system", "out", "threads"}, {});
  if (!args || args->positional.size() != 1) {
    if (!args) print_error("solve-captured", args.error());
    std::fprintf(stderr, "usage: coulomb solve-captured <capture folder> [--set solver.key=value ...] [--scene file]\n"
                         "                              [--export-system K --out folder] [--threads N]\n");
    return 2;
  }
  const std::string folder = args->positional[0];
  const std::string rec_path = (std::filesystem::path(folder) / "step.rec").string();
  auto rec = sim::load_recording(rec_path);
  if (!rec) {
    print_error("solve-captured", rec.error());
    return 1;
  }
  if (rec->controls.size() != 1) {
    std::fprintf(stderr, "coulomb solve-captured: %s: a capture's input is one step, found %zu\n", rec_path.c_str(),
                 rec->controls.size());
    return 1;
  }
  auto captured = sim::load_capture_iterates(folder);
  if (!captured) {
    print_error("solve-captured", captured.error());
    return 1;
  }
  auto scene_path = recording_scene(rec_path, *rec, *args);
  if (!scene_path) {
    print_error("solve-captured", scene_path.error());
    return 1;
  }
  // The scene without --set (the overrides apply to the recorded options below).
  Args scene_args = *args;
  scene_args.options.erase(std::remove_if(scene_args.options.begin(), scene_args.options.end(),
                                          [](const auto& o) { return o.first == "set"; }),
                           scene_args.options.end());
  auto scene = load_scene(*scene_path, scene_args);
  if (!scene) {
    print_error("solve-captured", scene.error());
    return 1;
  }
  sim::Model& model = scene->model;
  model.dt = rec->dt;
  if (std::string e = rec->mismatch(model); !e.empty()) {
    print_error("solve-captured", rec_path + ": " + e);
    return 1;
  }
  sim::SolverOptions options = rec->options;
  if (std::string e = apply_solver_overrides(options, *args); !e.empty()) {
    print_error("solve-captured", e);
    return 2;
  }
  const bool comparison = !args->values("set").empty();
  int system_iteration = -1;
  if (auto k = args->value("export-system")) {
    long long v = -1;
    if (!parse_integer_argument("export-system", *k, 0, options.newton_iterations, v).empty() || !args->value("out")) {
      std::fprintf(stderr, "coulomb solve-captured: --export-system expects a Newton iteration 0..%d and --out folder\n",
                   options.newton_iterations);
      return 2;
    }
    system_iteration = static_cast<int>(v);
  }

  // A: the step as captured (recorded options); B: with the --set options, when given.
  using Solve = sim::ResolvedStep;
  auto solve = [&](const sim::SolverOptions& o, int system) {
    return sim::resolve_captured_step(model, o, rec->initial, rec->controls.front(), system);
  };
  const Solve a = solve(rec->options, comparison ? -1 : system_iteration);
  std::printf("re-solved step %lld of %s (%d rows, %d contacts)%s%s\n", static_cast<long long>(rec->initial.step_index),
              scene_path->c_str(), a.capture.rows.count(), a.capture.contact_count, a.report.ok() ? "" : ": FAILED: ",
              a.report.ok() ? "" : a.report.message.c_str());
  if (!a.capture.filled) {
    std::fprintf(stderr, "coulomb solve-captured: the solver (%s) records no iterates: only the non-smooth Newton "
                         "solver is captured\n", std::string(sim::to_string(rec->options.kind)).c_str());
    return 1;
  }
  const std::string difference = sim::compare_captures(*captured, a.capture);
  Solve b;
  if (comparison) b = solve(options, system_iteration);
  print_series(a.capture, comparison && b.capture.filled ? &b.capture : nullptr);
  if (comparison)
    std::printf("A: the captured configuration (%zu iterates), B: with the --set options (%zu iterates%s)\n",
                a.capture.iterates.size(), b.capture.iterates.size(), b.report.ok() ? "" : ", the step FAILED");
  const Solve& exported = comparison ? b : a;
  if (system_iteration >= 0) {
    if (exported.capture.system.iteration < 0) {
      std::fprintf(stderr, "coulomb solve-captured: the solve ended before Newton iteration %d\n", system_iteration);
      return 1;
    }
    if (auto saved = sim::save_capture(exported.capture, model, *scene_path, *args->value("out")); !saved) {
      print_error("solve-captured", saved.error());
      return 1;
    }
    std::printf("Newton system of iteration %d written to %s (system_{J,Hinv,C,b,x}.mtx)\n", system_iteration,
                args->value("out")->c_str());
  }
  if (!difference.empty()) {
    std::printf("iterates DIFFER from the capture: %s\n", difference.c_str());
    return 3;
  }
  std::printf("iterates identical to the capture bit for bit (%zu iterates)\n", a.capture.iterates.size());
  return a.report.ok() && (!comparison || b.report.ok()) ? 0 : 3;
}

}  // namespace coulomb
