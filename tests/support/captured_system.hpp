// The Newton system of one iteration of a shipped scene, captured by the solver debugger
// (sim/solve_capture.hpp: J, H⁻¹, C + εI, b and the solver's x) and assembled with Eigen,
// A = J H⁻¹ Jᵀ + C + εI: the oracle the linear solvers are checked against.
#pragma once

#include <Eigen/SparseCore>
#include <string>
#include <vector>

#include "sim/solve_capture.hpp"
#include "support/shipped_run.hpp"

namespace test {

using SpMat = Eigen::SparseMatrix<sim::Real>;
using VecX = Eigen::Matrix<sim::Real, Eigen::Dynamic, 1>;

inline SpMat triplets(int rows, int cols, const std::vector<int>& r, const std::vector<int>& c,
                      const std::vector<sim::Real>& v) {
  std::vector<Eigen::Triplet<sim::Real>> t;
  for (std::size_t k = 0; k < v.size(); ++k) t.emplace_back(r[k], c[k], v[k]);
  SpMat m(rows, cols);
  m.setFromTriplets(t.begin(), t.end());
  return m;
}

// A of the captured system, assembled.
inline SpMat assembled_schur(const sim::CapturedSystem& sys) {
  const SpMat J = triplets(sys.rows, sys.dofs, sys.j_row, sys.j_col, sys.j_value);
  const SpMat Hinv = triplets(sys.dofs, sys.dofs, sys.hinv_row, sys.hinv_col, sys.hinv_value);
  SpMat A = SpMat(J * Hinv * SpMat(J.transpose()));
  for (int i = 0; i < sys.rows; ++i) A.coeffRef(i, i) += sys.c_diagonal[i];
  return A;
}

// The last of `steps` steps of a scene with `solver` (`linear_iterations` per solve, no warm
// start: every step starts from λ = 0, so the first Newton system is never trivial), capturing
// the system of Newton iteration `iteration`.
inline sim::SolveCapture capture_scene_system(const sim::SceneSpec& spec, const sim::Model& m, int steps,
                                              int iteration, sim::LinearSolver solver, int linear_iterations) {
  sim::SolverOptions o = spec.solver;
  o.linear_solver = solver;
  o.linear_iterations = o.linear_iterations_max = linear_iterations;
  o.warm_start = false;
  sim::State s = sim::make_initial_state(m);
  sim::Workspace ws;
  const sim::Control control = sim::make_initial_control(m);
  for (int i = 0; i + 1 < steps; ++i) sim::step(m, o, s, control, ws);
  sim::SolveCapture c;
  c.system_iteration = iteration;
  ws.capture = &c;
  sim::step(m, o, s, control, ws);
  return c;
}

// The same for a shipped scene.
inline sim::SolveCapture capture_shipped_system(const std::string& scene, int steps, int iteration,
                                                sim::LinearSolver solver, int linear_iterations) {
  const sim::Model m = load_shipped_model(scene);
  auto spec = sim::load_scene_file(scene_path(scene));
  REQUIRE(spec.ok());
  return capture_scene_system(*spec, m, steps, iteration, solver, linear_iterations);
}

}  // namespace test
