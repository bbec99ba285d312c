#include "sim/solver_options.hpp"

#include "sim/load_limits.hpp"

#include <algorithm>
#include <charconv>
#include <cstdlib>
#include <string>

namespace sim {

std::string_view to_string(SolverKind v) {
  switch (v) {
    case SolverKind::NonSmoothNewton: return "nsn";
    case SolverKind::ProjectedGaussSeidel: return "pgs";
  }
  return "?";
}

std::string_view describe(SolverKind v) {
  switch (v) {
    case SolverKind::NonSmoothNewton: return "non-smooth Newton (the paper's method)";
    case SolverKind::ProjectedGaussSeidel: return "projected Gauss-Seidel (velocity level, linearised at the step's start)";
  }
  return "?";
}

int iteration_cap(const SolverOptions& o) {
  switch (o.kind) {
    case SolverKind::NonSmoothNewton: return o.newton_iterations;
    case SolverKind::ProjectedGaussSeidel: return o.pgs_iterations;
  }
  return o.newton_iterations;
}

std::string_view to_string(NcpFunction v) {
  return v == NcpFunction::FischerBurmeister ? "fischer_burmeister" : "min_map";
}

std::string_view to_string(Preconditioner v) {
  switch (v) {
    case Preconditioner::Identity: return "identity";
    case Preconditioner::TimeStepSquared: return "h2";
    case Preconditioner::EffectiveMass: return "effective_mass";
  }
  return "?";
}

std::string_view to_string(LinearSolver v) {
  switch (v) {
    case LinearSolver::PCR: return "pcr";
    case LinearSolver::PCG: return "pcg";
    case LinearSolver::Jacobi: return "jacobi";
    case LinearSolver::GaussSeidel: return "gauss_seidel";
    case LinearSolver::Direct: return "direct";
  }
  return "?";
}

namespace {

bool parse_real(std::string_view text, Real& out) {
  std::string s(text);
  char* end = nullptr;
  const double v = std::strtod(s.c_str(), &end);
  if (s.empty() || end != s.c_str() + s.size()) return false;
  out = static_cast<Real>(v);
  return true;
}

bool parse_int(std::string_view text, int& out) {
  auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
  return ec == std::errc() && ptr == text.data() + text.size();
}

bool parse_bool(std::string_view text, bool& out) {
  if (text == "true" || text == "1" || text == "on" || text == "yes") { out = true; return true; }
  if (text == "false" || text == "0" || text == "off" || text == "no") { out = false; return true; }
  return false;
}

template <class Enum, std::size_t N>
bool parse_enum(std::string_view text, Enum& out, const Enum (&values)[N]) {
  for (Enum v : values) {
    if (to_string(v) == text) { out = v; return true; }
  }
  return false;
}

std::string bad_value(std::string_view key, std::string_view value, std::string_view expected) {
  return "solver option '" + std::string(key) + "': bad value '" + std::string(value) +
         "' (expected " + std::string(expected) + ")";
}

}  // namespace

std::vector<std::string> solver_option_keys() {
  return {"kind", "ncp", "preconditioner", "linear_solver", "newton_iterations", "linear_iterations",
          "linear_iterations_max", "newton_stall_iterations",
          "newton_tolerance", "newton_velocity_tolerance", "linear_tolerance", "damping", "line_search", "regularization", "warm_start",
          "geometric_stiffness", "project_friction", "jacobi_weight", "substeps", "contact_margin", "max_depenetration_velocity",
          "divergence_limit", "joint_angle_error_limit", "joint_position_error_limit", "pgs_iterations", "pgs_relaxation"};
}

std::string check_solver_counts(const SolverOptions& o) {
  const auto check = [](const char* key, int v, int lo, int hi) -> std::string {
    if (v >= lo && v <= hi) return {};
    return "solver option '" + std::string(key) + "' = " + std::to_string(v) + " is out of range (" +
           std::to_string(lo) + ".." + std::to_string(hi) + ")";
  };
  for (std::string e : {check("substeps", o.substeps, 1, limits::kMaxSubsteps),
                        check("newton_iterations", o.newton_iterations, 1, limits::kMaxSolverIterations),
                        check("linear_iterations", o.linear_iterations, 1, limits::kMaxSolverIterations),
                        check("linear_iterations_max", o.linear_iterations_max, 1, limits::kMaxSolverIterations),
                        check("newton_stall_iterations", o.newton_stall_iterations, 0, limits::kMaxSolverIterations),
                        check("pgs_iterations", o.pgs_iterations, 1, limits::kMaxSolverIterations)})
    if (!e.empty()) return e;
  // What one step reserves for its trace (solver/*: trace_capacity) grows with the product of
  // substeps, Newton iterations and the linear budget: bounded too, so no step can ask for more.
  const double linear = std::max(o.linear_iterations, o.linear_iterations_max);
  const double records = double(o.substeps) * std::max(2.0 * (o.newton_iterations + 1) * linear, double(o.pgs_iterations + 1));
  if (records > limits::kMaxTraceRecordsPerStep)
    return "solver options ask for " + std::to_string(static_cast<long long>(records)) +
           " trace records per step (substeps x (newton_iterations + 1) x 2 linear_iterations(_max), or substeps x "
           "pgs_iterations); at most " + std::to_string(static_cast<long long>(limits::kMaxTraceRecordsPerStep));
  return {};
}

std::string set_solver_option(SolverOptions& o, std::string_view key, std::string_view value) {
  static constexpr NcpFunction kNcp[] = {NcpFunction::FischerBurmeister, NcpFunction::MinMap};
  static constexpr Preconditioner kPre[] = {Preconditioner::Identity, Preconditioner::TimeStepSquared,
                                            Preconditioner::EffectiveMass};
  static constexpr LinearSolver kLin[] = {LinearSolver::PCR, LinearSolver::PCG, LinearSolver::Jacobi,
                                          LinearSolver::GaussSeidel, LinearSolver::Direct};
  // Counts are bounded (sim/load_limits.hpp): substeps="2000000000" from a file ran out of
  // memory reserving the trace, and would never finish.
  auto bounded_int = [&](int& field, int lo, int hi) -> std::string {
    int v = 0;
    if (!parse_int(value, v) || v < lo || v > hi)
      return bad_value(key, value, "an integer in " + std::to_string(lo) + ".." + std::to_string(hi));
    field = v;
    return {};
  };
  auto positive_int = [&](int& field) { return bounded_int(field, 1, limits::kMaxSolverIterations); };
  auto nonnegative_int = [&](int& field) { return bounded_int(field, 0, limits::kMaxSolverIterations); };
  auto nonnegative_real = [&](Real& field) -> std::string {
    Real v = 0;
    if (!parse_real(value, v) || !(v >= 0)) return bad_value(key, value, "a number >= 0");
    field = v;
    return {};
  };
  auto boolean = [&](bool& field) -> std::string {
    if (!parse_bool(value, field)) return bad_value(key, value, "true or false");
    return {};
  };

  if (key == "kind") {
    if (!parse_enum(value, o.kind, kSolverKinds)) {
      std::string known;
      for (SolverKind k : kSolverKinds) known += (known.empty() ? "" : " or ") + std::string(to_string(k));
      return bad_value(key, value, known);
    }
    return {};
  }
  if (key == "ncp") {
    if (value == "fb") value = "fischer_burmeister";
    if (value == "min") value = "min_map";
    if (!parse_enum(value, o.ncp, kNcp)) return bad_value(key, value, "fischer_burmeister or min_map");
    return {};
  }
  if (key == "preconditioner") {
    if (!parse_enum(value, o.preconditioner, kPre))
      return bad_value(key, value, "identity, h2 or effective_mass");
    return {};
  }
  if (key == "linear_solver") {
    if (!parse_enum(value, o.linear_solver, kLin))
      return bad_value(key, value, "pcr, pcg, jacobi, gauss_seidel or direct");
    return {};
  }
  if (key == "newton_iterations") return positive_int(o.newton_iterations);
  if (key == "linear_iterations") return positive_int(o.linear_iterations);
  if (key == "linear_iterations_max") return positive_int(o.linear_iterations_max);
  if (key == "newton_stall_iterations") return nonnegative_int(o.newton_stall_iterations);
  if (key == "substeps") return bounded_int(o.substeps, 1, limits::kMaxSubsteps);
  if (key == "pgs_iterations") return positive_int(o.pgs_iterations);
  if (key == "pgs_relaxation") {  // projected SOR converges for 0 < ω < 2 on a symmetric positive system
    Real v = 0;
    if (!parse_real(value, v) || !(v > 0 && v < 2)) return bad_value(key, value, "a number in (0, 2)");
    o.pgs_relaxation = v;
    return {};
  }
  if (key == "newton_tolerance") return nonnegative_real(o.newton_tolerance);
  if (key == "newton_velocity_tolerance") return nonnegative_real(o.newton_velocity_tolerance);
  if (key == "linear_tolerance") return nonnegative_real(o.linear_tolerance);
  if (key == "regularization") return nonnegative_real(o.regularization);
  if (key == "contact_margin") return nonnegative_real(o.contact_margin);
  if (key == "max_depenetration_velocity") return nonnegative_real(o.max_depenetration_velocity);
  if (key == "divergence_limit") return nonnegative_real(o.divergence_limit);
  if (key == "joint_angle_error_limit") return nonnegative_real(o.joint_angle_error_limit);
  if (key == "joint_position_error_limit") return nonnegative_real(o.joint_position_error_limit);
  if (key == "damping" || key == "jacobi_weight") {
    Real v = 0;
    if (!parse_real(value, v) || !(v > 0 && v <= 1)) return bad_value(key, value, "a number in (0, 1]");
    (key == "damping" ? o.damping : o.jacobi_weight) = v;
    return {};
  }
  if (key == "warm_start") return boolean(o.warm_start);
  if (key == "line_search") return boolean(o.line_search);
  if (key == "geometric_stiffness") return boolean(o.geometric_stiffness);
  if (key == "project_friction") return boolean(o.project_friction);
  std::string known;
  for (const auto& k : solver_option_keys()) known += (known.empty() ? "" : ", ") + k;
  return "unknown solver option '" + std::string(key) + "' (known: " + known + ")";
}

}  // namespace sim
