#include "sim/solver_options.hpp"

#include <charconv>
#include <cstdlib>
#include <string>

namespace sim {

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
  return {"ncp", "preconditioner", "linear_solver", "newton_iterations", "linear_iterations",
          "linear_iterations_max", "newton_stall_iterations",
          "newton_tolerance", "newton_velocity_tolerance", "linear_tolerance", "damping", "line_search", "regularization", "warm_start",
          "geometric_stiffness", "project_friction", "jacobi_weight", "substeps", "contact_margin", "max_depenetration_velocity",
          "divergence_limit", "joint_angle_error_limit", "joint_position_error_limit"};
}

std::string set_solver_option(SolverOptions& o, std::string_view key, std::string_view value) {
  static constexpr NcpFunction kNcp[] = {NcpFunction::FischerBurmeister, NcpFunction::MinMap};
  static constexpr Preconditioner kPre[] = {Preconditioner::Identity, Preconditioner::TimeStepSquared,
                                            Preconditioner::EffectiveMass};
  static constexpr LinearSolver kLin[] = {LinearSolver::PCR, LinearSolver::PCG, LinearSolver::Jacobi,
                                          LinearSolver::GaussSeidel, LinearSolver::Direct};
  auto positive_int = [&](int& field) -> std::string {
    int v = 0;
    if (!parse_int(value, v) || v < 1) return bad_value(key, value, "an integer >= 1");
    field = v;
    return {};
  };
  auto nonnegative_int = [&](int& field) -> std::string {
    int v = 0;
    if (!parse_int(value, v) || v < 0) return bad_value(key, value, "an integer >= 0");
    field = v;
    return {};
  };
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
  if (key == "substeps") return positive_int(o.substeps);
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
