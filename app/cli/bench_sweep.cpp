#include "cli/bench_sweep.hpp"

#include <cstdio>
#include <sstream>
#include <vector>

#include "cli/svg_line_plot.hpp"
#include "sim/atomic_file.hpp"
#include "sim/solver_sweep.hpp"

namespace coulomb {

namespace {

// "1,2,4" into whole budgets of 1 .. 10,000; "" (and `out` filled) or the complaint.
std::string parse_budgets(const std::string& text, std::vector<int>& out) {
  std::stringstream in(text);
  std::string item;
  while (std::getline(in, item, ',')) {
    double value = 0;
    if (std::string e = parse_number_argument("budgets", item, {1, 10000}, value); !e.empty()) return e;
    if (value != double(int(value))) return "--budgets: '" + item + "' is not a whole number";
    out.push_back(int(value));
  }
  if (out.empty()) return "--budgets: expected whole numbers separated by commas (1,2,4,8)";
  return "";
}

const char* colour_of(sim::SolverKind kind) {
  switch (kind) {
    case sim::SolverKind::NonSmoothNewton: return "#1f77b4";
    case sim::SolverKind::ProjectedGaussSeidel: return "#2ca02c";
    case sim::SolverKind::DualAscent: return "#d62728";
    case sim::SolverKind::PrimalDescent: return "#9467bd";
  }
  return "black";
}

}  // namespace

int bench_sweep(const std::string& name, const LoadedScene& scene, const Args& args, int steps) {
  std::vector<int> budgets;
  if (std::string e = parse_budgets(args.value("budgets").value_or("1,2,4,8,16,32,64"), budgets); !e.empty()) {
    std::fprintf(stderr, "coulomb bench: %s\n", e.c_str());
    return 2;
  }
  const std::vector<sim::SolverKind> kinds(std::begin(sim::kSolverKinds), std::end(sim::kSolverKinds));
  const std::vector<sim::SolverSweepPoint> points =
      sim::sweep_solvers(scene.model, scene.model.solver, steps, kinds, budgets);
  std::printf("sweep %s: %d steps from the initial state per solver and budget, tolerances 0 (every solve spends its "
              "budget)\n",
              name.c_str(), steps);
  std::printf("%-7s %7s %12s %12s %12s %12s %9s\n", "solver", "budget", "cpu ms/step", "constraint", "friction",
              "momentum", "diverged");
  std::vector<PlotSeries> series;
  for (const sim::SolverKind kind : kinds) {
    PlotSeries s{std::string(sim::to_string(kind)), colour_of(kind), {}};
    for (const sim::SolverSweepPoint& p : points) {
      if (p.kind != kind) continue;
      std::printf("%-7s %7d %12.3f %12.3e %12.3e %12.3e %9d\n", s.name.c_str(), p.budget, p.cpu_ms_per_step,
                  p.constraint_error, p.friction_error, p.momentum_error, p.diverged_steps);
      // A run with refused steps has no error to show: off the axes (counted in the legend).
      s.points.emplace_back(p.cpu_ms_per_step, p.diverged_steps > 0 ? -1.0 : p.constraint_error);
    }
    series.push_back(std::move(s));
  }
  std::printf("(cpu ms/step: process CPU time, every thread; constraint: mean over steps of the largest final normal "
              "or bilateral error [m]; friction: of the largest friction residual [m/s]; momentum: of max |M^-1 g| "
              "[m/s]; budget: Newton iterations for nsn, sweeps for pgs, iterations for dual and primal)\n");
  if (const auto plot = args.value("plot")) {
    const std::string svg = log_log_plot_svg("coulomb bench --sweep: " + name + ", " + std::to_string(steps) + " steps",
                                             "CPU time per step [ms]", "constraint error [m]", series);
    if (std::string e = sim::write_file_atomically(*plot, {svg}); !e.empty()) {
      std::fprintf(stderr, "coulomb bench: %s\n", e.c_str());
      return 1;
    }
    std::printf("plot: %s (constraint error against CPU time, one line per solver, budgets increasing along it)\n",
                plot->c_str());
  }
  return 0;
}

}  // namespace coulomb
