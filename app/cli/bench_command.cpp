// `coulomb bench <scene|all|soft>` (soft: the paper's Table 2 soft rows): warm-up, timed repeats from the initial state, and a table (or
// JSON) of steps/s, ms per stage, Newton and linear iterations and final residuals.
#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "cli/backend.hpp"
#include "cli/bench_sweep.hpp"
#include "cli/cli_common.hpp"
#include "cli/commands.hpp"
#include "sim/step.hpp"

namespace coulomb {

namespace {

struct BenchResult {
  std::string scene;
  int bodies = 0, particles = 0, joints = 0;
  double dt = 0;
  int steps = 0, repeats = 0;
  double ms_per_step = 0;            // median over repeats
  double collision_ms = 0, assembly_ms = 0, solve_ms = 0, integrate_ms = 0;  // per step, median repeat
  double newton_per_step = 0, linear_per_newton = 0;
  int newton_max = 0;                // most Newton iterations one step used
  int unconverged = 0;               // steps that ended above the Newton tolerance
  double mean_normal = 0, mean_friction = 0, mean_bilateral = 0;  // final residuals, mean over steps
  double contacts = 0, rows = 0;     // mean per step
  double final_normal = 0, final_friction = 0, final_bilateral = 0, final_complementarity = 0;  // last step
  double max_complementarity = 0;    // over all measured steps
  int diverged = 0;
};

BenchResult bench_one(const std::string& name, const LoadedScene& scene, int warmup, int steps, int repeats,
                      const Backend& backend) {
  BenchResult out;
  const sim::Model& m = scene.model;
  out.scene = name;
  out.bodies = m.body_count;
  out.particles = m.particle_count;
  out.joints = m.joint_count;
  out.dt = m.dt;
  out.steps = steps;
  out.repeats = repeats;
  std::vector<BenchResult> runs;
  for (int r = 0; r < repeats; ++r) {
    sim::State state = sim::make_initial_state(m);
    const sim::Control control = sim::make_initial_control(m);
    sim::Workspace ws;
    ws.device_solver = backend.device;
    for (int i = 0; i < warmup; ++i) sim::step(m, state, control, ws);
    BenchResult run = out;
    double total = 0;
    long newton = 0, linear = 0;
    for (int i = 0; i < steps; ++i) {
      const sim::StepReport rep = sim::step(m, state, control, ws);
      total += rep.timings.total;
      run.collision_ms += rep.timings.collision;
      run.assembly_ms += rep.timings.assembly;
      run.solve_ms += rep.timings.solve;
      run.integrate_ms += rep.timings.integrate;
      newton += rep.newton_iterations;
      run.newton_max = std::max(run.newton_max, rep.newton_iterations);
      run.unconverged += rep.unconverged_solves > 0 ? 1 : 0;
      run.mean_normal += ws.trace.final_normal_max;
      run.mean_friction += ws.trace.final_friction_max;
      run.mean_bilateral += ws.trace.final_bilateral_max;
      linear += rep.linear_iterations;
      run.contacts += rep.contact_count;
      run.rows += rep.row_count;
      run.diverged += rep.ok() ? 0 : 1;
      run.max_complementarity = std::max(run.max_complementarity, double(ws.trace.final_complementarity_max));
    }
    run.ms_per_step = total / steps;
    run.collision_ms /= steps;
    run.assembly_ms /= steps;
    run.solve_ms /= steps;
    run.integrate_ms /= steps;
    run.newton_per_step = double(newton) / steps;
    run.mean_normal /= steps;
    run.mean_friction /= steps;
    run.mean_bilateral /= steps;
    run.linear_per_newton = newton > 0 ? double(linear) / newton : 0;
    run.contacts /= steps;
    run.rows /= steps;
    run.final_normal = ws.trace.final_normal_max;
    run.final_friction = ws.trace.final_friction_max;
    run.final_bilateral = ws.trace.final_bilateral_max;
    run.final_complementarity = ws.trace.final_complementarity_max;
    runs.push_back(run);
  }
  std::sort(runs.begin(), runs.end(), [](const BenchResult& a, const BenchResult& b) { return a.ms_per_step < b.ms_per_step; });
  return runs[runs.size() / 2];
}

void print_table(const std::vector<BenchResult>& results) {
  std::printf("%-14s %6s %6s %7s %9s %8s %6s %6s %6s %6s %6s %4s %7s %8s %9s %9s %9s %9s\n", "scene", "bodies",
              "parts", "contact", "ms/step", "steps/s", "coll", "asm", "solve", "integ", "iters", "max", "unconv",
              "lin/it", "normal", "friction", "bilat", "compl");
  for (const BenchResult& r : results) {
    std::printf("%-14s %6d %6d %7.0f %9.3f %8.0f %6.2f %6.2f %6.2f %6.2f %6.2f %4d %7d %8.1f %9.2e %9.2e %9.2e %9.2e%s\n",
                r.scene.c_str(), r.bodies, r.particles, r.contacts, r.ms_per_step, 1000.0 / r.ms_per_step,
                r.collision_ms, r.assembly_ms, r.solve_ms, r.integrate_ms, r.newton_per_step, r.newton_max,
                r.unconverged, r.linear_per_newton, r.mean_normal, r.mean_friction, r.mean_bilateral,
                r.max_complementarity, r.diverged ? "  DIVERGED" : "");
  }
  std::printf("(ms per step: median of repeats; real time needs ms/step < dt; iters: mean and max solver iterations "
              "per step (Newton iterations for solver.kind=nsn, sweeps for pgs); lin/it: linear iterations per "
              "Newton iteration; unconv: steps that ended above the solver tolerances; normal/friction/bilat: final max "
              "residual, mean over the measured steps [m, m/s, m]; compl: max |min(C, r lambda)| over the measured "
              "steps [m])\n");
}

void print_json(const std::vector<BenchResult>& results) {
  std::printf("[\n");
  for (std::size_t i = 0; i < results.size(); ++i) {
    const BenchResult& r = results[i];
    std::printf("  {\"scene\":\"%s\",\"bodies\":%d,\"particles\":%d,\"joints\":%d,\"dt\":%g,\"steps\":%d,"
                "\"repeats\":%d,\"ms_per_step\":%.6g,\"steps_per_second\":%.6g,\"real_time_factor\":%.6g,"
                "\"ms\":{\"collision\":%.6g,\"assembly\":%.6g,\"solve\":%.6g,\"integrate\":%.6g},"
                "\"newton_per_step\":%.6g,\"newton_max\":%d,\"unconverged_steps\":%d,\"linear_per_newton\":%.6g,\"contacts\":%.6g,\"rows\":%.6g,"
                "\"final\":{\"normal_max\":%.6g,\"friction_max\":%.6g,\"bilateral_max\":%.6g,"
                "\"complementarity_max\":%.6g},\"mean_final\":{\"normal_max\":%.6g,\"friction_max\":%.6g,"
                "\"bilateral_max\":%.6g},\"max_complementarity\":%.6g,\"diverged_steps\":%d}%s\n",
                r.scene.c_str(), r.bodies, r.particles, r.joints, r.dt, r.steps, r.repeats, r.ms_per_step,
                1000.0 / r.ms_per_step, r.dt * 1000.0 / r.ms_per_step, r.collision_ms, r.assembly_ms, r.solve_ms,
                r.integrate_ms, r.newton_per_step, r.newton_max, r.unconverged, r.linear_per_newton, r.contacts, r.rows,
                r.final_normal, r.final_friction, r.final_bilateral, r.final_complementarity, r.mean_normal,
                r.mean_friction, r.mean_bilateral, r.max_complementarity, r.diverged,
                i + 1 < results.size() ? "," : "");
  }
  std::printf("]\n");
}

}  // namespace

int bench_command(int argc, char** argv, int first) {
  auto args = parse_args(argc, argv, first, {"steps", "warmup", "repeats", "dt", "set", "threads", "backend", "budgets", "plot"},
                         {"json", "sweep"});
  if (!args || args->positional.size() != 1) {
    if (!args) print_error("bench", args.error());
    std::fprintf(stderr, "usage: coulomb bench <scene|all|soft> [--steps N] [--warmup N] [--repeats N] [--dt s]\n"
                         "                     [--set solver.key=value ...] [--threads N] [--backend cpu|cuda|auto] [--json]\n"
                         "       coulomb bench <scene> --sweep [--steps N] [--budgets 1,2,4,...] [--plot file.svg]\n");
    return 2;
  }
  if (args->has_flag("sweep")) {
    int sweep_steps = 60;
    if (!integer_option(*args, "steps", "bench", sweep_steps, 1, kMaxSteps) || !check_common_options(*args, "bench"))
      return 2;
    auto scene = load_scene(args->positional[0], *args);
    if (!scene) {
      print_error("bench", scene.error());
      return 1;
    }
    return bench_sweep(args->positional[0], *scene, *args, sweep_steps);
  }
  int steps = 300, warmup = 30, repeats = 3;
  if (!integer_option(*args, "steps", "bench", steps, 1, kMaxSteps) ||
      !integer_option(*args, "warmup", "bench", warmup, 0, kMaxSteps) ||
      !integer_option(*args, "repeats", "bench", repeats, 1, 1000000) || !check_common_options(*args, "bench")) {
    std::fprintf(stderr, "usage: coulomb bench <scene|all|soft> [--steps N] [--warmup N] [--repeats N] [--dt s]\n"
                         "                     [--set solver.key=value ...] [--threads N] [--backend cpu|cuda|auto] [--json]\n");
    return 2;
  }
  Backend backend;
  if (!choose_backend(*args, "bench", backend)) return 2;
  if (backend.device && !args->has_flag("json")) std::fprintf(stderr, "backend: %s\n", backend.description.c_str());
  std::vector<std::string> names;
  // `soft`: the paper's Table 2 soft rows (issue 14 item 9), its figures printed after ours.
  const bool soft = args->positional[0] == "soft";
  if (args->positional[0] == "all") names = shipped_scenes();
  else if (soft) names = {"allegro_ball", "pneunet", "fetch_tomato"};
  else names.push_back(args->positional[0]);
  std::vector<BenchResult> results;
  for (const std::string& name : names) {
    auto scene = load_scene(name, *args);
    if (!scene) {
      // `all` goes on without scenes whose robot description is missing (../shared/robots).
      if (names.size() > 1 && is_robot_import_error(scene.error())) {
        std::fprintf(stderr, "coulomb bench: skipping %s: %s\n", name.c_str(), scene.error().c_str());
        continue;
      }
      print_error("bench", scene.error());
      return 1;
    }
    if (!args->has_flag("json")) std::fprintf(stderr, "bench %s ... %s\n", name.c_str(), load_summary(*scene).c_str());
    results.push_back(bench_one(name, *scene, warmup, steps, repeats, backend));
  }
  if (args->has_flag("json")) print_json(results);
  else print_table(results);
  if (soft && !args->has_flag("json"))
    std::printf("paper (Macklin et al. 2019, Table 2; GPU PCR, h = 8.3 ms): tets, Newton x linear iterations, solve ms\n"
                "  Allegro Ball   427 tets  6 x 50  11.4 ms (sd 1.2)\n"
                "  PneuNet       2241 tets  4 x 80  22.25 ms (sd 1.4)\n"
                "  Fetch Tomato   319 tets  4 x 50  12.2 ms (sd 1.25)\n");
  return 0;
}

}  // namespace coulomb
