#include "sim/solver_sweep.hpp"

#include <time.h>

#include <algorithm>

#include "sim/step.hpp"

namespace sim {

namespace {

double process_cpu_ms() {
  timespec t{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return double(t.tv_sec) * 1e3 + double(t.tv_nsec) * 1e-6;
}

}  // namespace

std::vector<SolverSweepPoint> sweep_solvers(const Model& model, const SolverOptions& base, int steps,
                                            const std::vector<SolverKind>& kinds, const std::vector<int>& budgets) {
  std::vector<SolverSweepPoint> points;
  const Control control = make_initial_control(model);
  steps = std::max(steps, 1);
  for (const SolverKind kind : kinds)
    for (const int budget : budgets) {
      SolverOptions o = base;
      o.kind = kind;
      set_iteration_cap(o, budget);
      o.newton_tolerance = 0;           // every solve spends its whole budget
      o.newton_velocity_tolerance = 0;
      State state = make_initial_state(model);
      Workspace ws;
      SolverSweepPoint p;
      p.kind = kind;
      p.budget = budget;
      const double start = process_cpu_ms();
      for (int i = 0; i < steps; ++i) {
        const StepReport report = step(model, o, state, control, ws);
        if (!report.ok()) ++p.diverged_steps;
        const SolverTrace& t = ws.trace;
        p.constraint_error += double(std::max(t.final_normal_max, t.final_bilateral_max));
        p.friction_error += double(t.final_friction_max);
        p.momentum_error += double(t.final_momentum_max);
      }
      p.cpu_ms_per_step = (process_cpu_ms() - start) / steps;
      p.constraint_error /= steps;
      p.friction_error /= steps;
      p.momentum_error /= steps;
      points.push_back(p);
    }
  return points;
}

}  // namespace sim
