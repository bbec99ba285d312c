#include "sim/solver_options.hpp"
#include "core/trace_bound.hpp"

#include "sim/load_limits.hpp"

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <initializer_list>
#include <utility>
#include <cstdlib>
#include <string>

namespace sim {

std::string_view to_string(SolverKind v) {
  switch (v) {
    case SolverKind::NonSmoothNewton: return "nsn";
    case SolverKind::ProjectedGaussSeidel: return "pgs";
    case SolverKind::DualAscent: return "dual";
    case SolverKind::PrimalDescent: return "primal";
  }
  return "?";
}

std::string_view describe(SolverKind v) {
  switch (v) {
    case SolverKind::NonSmoothNewton: return "non-smooth Newton (the paper's method)";
    case SolverKind::ProjectedGaussSeidel: return "projected Gauss-Seidel (velocity level, linearised at the step's start)";
    case SolverKind::DualAscent: return "dual ascent (XPBD-style: Jacobi with mass splitting, rows re-evaluated each iteration)";
    case SolverKind::PrimalDescent: return "primal descent (penalty forces, block-Jacobi preconditioned gradient descent)";
  }
  return "?";
}

namespace {
// The field that caps the selected kind's iterations (const or not).
template <class Options>
auto& iteration_cap_field(Options& o) {
  switch (o.kind) {
    case SolverKind::NonSmoothNewton: return o.newton_iterations;
    case SolverKind::ProjectedGaussSeidel: return o.pgs_iterations;
    case SolverKind::DualAscent: return o.dual_iterations;
    case SolverKind::PrimalDescent: return o.primal_iterations;
  }
  return o.newton_iterations;
}
}  // namespace

int iteration_cap(const SolverOptions& o) { return iteration_cap_field(o); }

void set_iteration_cap(SolverOptions& o, int cap) { iteration_cap_field(o) = cap; }

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
    case LinearSolver::Auto: return "auto";
  }
  return "?";
}

std::string_view to_string(ElasticFactorization v) {
  switch (v) {
    case ElasticFactorization::Simplicial: return "simplicial";
    case ElasticFactorization::Supernodal: return "supernodal";
    case ElasticFactorization::Auto: return "auto";
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

std::string bad_value(std::string_view key, std::string_view value, std::string_view expected) {
  return "solver option '" + std::string(key) + "': bad value '" + std::string(value) +
         "' (expected " + std::string(expected) + ")";
}

std::string number_text(double v) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  return buf;
}

// One option's reader and writer. The table below lists every option once (key, field, range);
// set_solver_option, get_solver_option and solver_option_keys are loops over it.
using Setter = std::string (*)(SolverOptions&, std::string_view key, std::string_view value);
using Getter = std::string (*)(const SolverOptions&);
struct OptionField {
  std::string_view key;
  Setter set;
  Getter get;
};

// Integers in [Min, Max]. Counts are bounded (sim/load_limits.hpp): substeps="2000000000" from a
// file ran out of memory reserving the trace, and would never finish.
template <int SolverOptions::*Field, int Min, int Max = limits::kMaxSolverIterations>
std::string set_int(SolverOptions& o, std::string_view key, std::string_view value) {
  int v = 0;
  if (!parse_int(value, v) || v < Min || v > Max)
    return bad_value(key, value, "an integer in " + std::to_string(Min) + ".." + std::to_string(Max));
  o.*Field = v;
  return {};
}
template <int SolverOptions::*Field>
std::string get_int(const SolverOptions& o) { return std::to_string(o.*Field); }

// Reals in a range: [0, inf) (NonNegative), (0, inf] (Positive), (0, 1] (UnitInterval), [0, 1)
// (Fraction) or (0, 2) (Relaxation).
enum class Range { NonNegative, Positive, UnitInterval, Fraction, Relaxation };
constexpr bool in_range(Range r, Real v) {
  switch (r) {
    case Range::NonNegative: return v >= 0;
    case Range::Positive: return v > 0;
    case Range::UnitInterval: return v > 0 && v <= 1;
    case Range::Fraction: return v >= 0 && v < 1;
    case Range::Relaxation: return v > 0 && v < 2;  // projected SOR converges for 0 < ω < 2
  }
  return false;
}
constexpr std::string_view describe(Range r) {
  switch (r) {
    case Range::NonNegative: return "a number >= 0";
    case Range::Positive: return "a number > 0 (inf: off)";
    case Range::UnitInterval: return "a number in (0, 1]";
    case Range::Fraction: return "a number in [0, 1) (0: off)";
    case Range::Relaxation: return "a number in (0, 2)";
  }
  return "";
}
template <Real SolverOptions::*Field, Range R>
std::string set_real(SolverOptions& o, std::string_view key, std::string_view value) {
  Real v = 0;
  if (!parse_real(value, v) || !in_range(R, v)) return bad_value(key, value, describe(R));
  o.*Field = v;
  return {};
}
template <Real SolverOptions::*Field>
std::string get_real(const SolverOptions& o) { return number_text(o.*Field); }

template <bool SolverOptions::*Field>
std::string set_bool(SolverOptions& o, std::string_view key, std::string_view value) {
  if (!parse_bool(value, o.*Field)) return bad_value(key, value, "true or false");
  return {};
}
template <bool SolverOptions::*Field>
std::string get_bool(const SolverOptions& o) { return o.*Field ? "true" : "false"; }

// Enumerations, by their to_string names (and the aliases of `alias`, "short=long" pairs).
template <class Enum, std::size_t N>
std::string set_choice(Enum& field, const Enum (&values)[N], std::string_view key, std::string_view value,
                       std::initializer_list<std::pair<std::string_view, std::string_view>> aliases = {}) {
  for (const auto& [alias, name] : aliases)
    if (value == alias) value = name;
  for (Enum v : values)
    if (to_string(v) == value) {
      field = v;
      return {};
    }
  std::string known;
  for (std::size_t i = 0; i < N; ++i)
    known += (i == 0 ? "" : i + 1 == N ? " or " : ", ") + std::string(to_string(values[i]));
  return bad_value(key, value, known);
}
template <auto Field>
std::string get_choice(const SolverOptions& o) { return std::string(to_string(o.*Field)); }

constexpr NcpFunction kNcpFunctions[] = {NcpFunction::FischerBurmeister, NcpFunction::MinMap};
constexpr Preconditioner kPreconditioners[] = {Preconditioner::Identity, Preconditioner::TimeStepSquared,
                                               Preconditioner::EffectiveMass};
constexpr LinearSolver kLinearSolvers[] = {LinearSolver::PCR, LinearSolver::PCG, LinearSolver::Jacobi,
                                           LinearSolver::GaussSeidel, LinearSolver::Direct, LinearSolver::Auto};
constexpr ElasticFactorization kElasticFactorizations[] = {ElasticFactorization::Simplicial,
                                                           ElasticFactorization::Supernodal, ElasticFactorization::Auto};

using O = SolverOptions;
constexpr OptionField kOptionFields[] = {
    {"kind", [](O& o, std::string_view k, std::string_view v) { return set_choice(o.kind, kSolverKinds, k, v); },
     get_choice<&O::kind>},
    {"ncp",
     [](O& o, std::string_view k, std::string_view v) {
       return set_choice(o.ncp, kNcpFunctions, k, v, {{"fb", "fischer_burmeister"}, {"min", "min_map"}});
     },
     get_choice<&O::ncp>},
    {"preconditioner",
     [](O& o, std::string_view k, std::string_view v) { return set_choice(o.preconditioner, kPreconditioners, k, v); },
     get_choice<&O::preconditioner>},
    {"linear_solver",
     [](O& o, std::string_view k, std::string_view v) { return set_choice(o.linear_solver, kLinearSolvers, k, v); },
     get_choice<&O::linear_solver>},
    {"newton_iterations", set_int<&O::newton_iterations, 1>, get_int<&O::newton_iterations>},
    {"linear_iterations", set_int<&O::linear_iterations, 1>, get_int<&O::linear_iterations>},
    {"linear_iterations_max", set_int<&O::linear_iterations_max, 1>, get_int<&O::linear_iterations_max>},
    {"newton_stall_iterations", set_int<&O::newton_stall_iterations, 0>, get_int<&O::newton_stall_iterations>},
    {"newton_tolerance", set_real<&O::newton_tolerance, Range::NonNegative>, get_real<&O::newton_tolerance>},
    {"newton_velocity_tolerance", set_real<&O::newton_velocity_tolerance, Range::NonNegative>,
     get_real<&O::newton_velocity_tolerance>},
    {"linear_tolerance", set_real<&O::linear_tolerance, Range::NonNegative>, get_real<&O::linear_tolerance>},
    {"linear_forcing_max", set_real<&O::linear_forcing_max, Range::Fraction>, get_real<&O::linear_forcing_max>},
    {"damping", set_real<&O::damping, Range::UnitInterval>, get_real<&O::damping>},
    {"line_search", set_bool<&O::line_search>, get_bool<&O::line_search>},
    {"friction_merit_natural_map", set_bool<&O::friction_merit_natural_map>,
     get_bool<&O::friction_merit_natural_map>},
    {"regularization", set_real<&O::regularization, Range::NonNegative>, get_real<&O::regularization>},
    {"implicit_gyroscopic", set_bool<&O::implicit_gyroscopic>, get_bool<&O::implicit_gyroscopic>},
    {"warm_start", set_bool<&O::warm_start>, get_bool<&O::warm_start>},
    {"geometric_stiffness", set_bool<&O::geometric_stiffness>, get_bool<&O::geometric_stiffness>},
    {"element_geometric_stiffness", set_bool<&O::element_geometric_stiffness>,
     get_bool<&O::element_geometric_stiffness>},
    {"rope_geometric_stiffness", set_bool<&O::rope_geometric_stiffness>,
     get_bool<&O::rope_geometric_stiffness>},
    {"condense_elastic", set_bool<&O::condense_elastic>, get_bool<&O::condense_elastic>},
    {"elastic_factorization",
     [](O& o, std::string_view k, std::string_view v) {
       return set_choice(o.elastic_factorization, kElasticFactorizations, k, v);
     },
     get_choice<&O::elastic_factorization>},
    {"project_friction", set_bool<&O::project_friction>, get_bool<&O::project_friction>},
    {"jacobi_weight", set_real<&O::jacobi_weight, Range::UnitInterval>, get_real<&O::jacobi_weight>},
    {"substeps", set_int<&O::substeps, 1, limits::kMaxSubsteps>, get_int<&O::substeps>},
    {"step_retries", set_int<&O::step_retries, 0, limits::kMaxStepRetries>, get_int<&O::step_retries>},
    {"contact_margin", set_real<&O::contact_margin, Range::NonNegative>, get_real<&O::contact_margin>},
    {"max_depenetration_velocity", set_real<&O::max_depenetration_velocity, Range::NonNegative>,
     get_real<&O::max_depenetration_velocity>},
    {"divergence_limit", set_real<&O::divergence_limit, Range::NonNegative>, get_real<&O::divergence_limit>},
    {"joint_angle_error_limit", set_real<&O::joint_angle_error_limit, Range::NonNegative>,
     get_real<&O::joint_angle_error_limit>},
    {"joint_position_error_limit", set_real<&O::joint_position_error_limit, Range::NonNegative>,
     get_real<&O::joint_position_error_limit>},
    {"world_bound", set_real<&O::world_bound, Range::Positive>, get_real<&O::world_bound>},
    {"speed_limit", set_real<&O::speed_limit, Range::Positive>, get_real<&O::speed_limit>},
    {"angular_speed_limit", set_real<&O::angular_speed_limit, Range::Positive>, get_real<&O::angular_speed_limit>},
    {"pgs_iterations", set_int<&O::pgs_iterations, 1>, get_int<&O::pgs_iterations>},
    {"pgs_relaxation", set_real<&O::pgs_relaxation, Range::Relaxation>, get_real<&O::pgs_relaxation>},
    {"dual_iterations", set_int<&O::dual_iterations, 1>, get_int<&O::dual_iterations>},
    {"dual_relaxation", set_real<&O::dual_relaxation, Range::Relaxation>, get_real<&O::dual_relaxation>},
    {"dual_gauss_seidel", set_bool<&O::dual_gauss_seidel>, get_bool<&O::dual_gauss_seidel>},
    {"dual_consistent", set_bool<&O::dual_consistent>, get_bool<&O::dual_consistent>},
    {"primal_iterations", set_int<&O::primal_iterations, 1>, get_int<&O::primal_iterations>},
    {"primal_step", set_real<&O::primal_step, Range::Relaxation>, get_real<&O::primal_step>},
    {"primal_stiffness", set_real<&O::primal_stiffness, Range::Positive>, get_real<&O::primal_stiffness>},
    {"primal_contact_stiffness", set_real<&O::primal_contact_stiffness, Range::Positive>,
     get_real<&O::primal_contact_stiffness>},
    {"primal_friction_stiffness", set_real<&O::primal_friction_stiffness, Range::Positive>,
     get_real<&O::primal_friction_stiffness>},
};

const OptionField* find_option(std::string_view key) {
  for (const OptionField& f : kOptionFields)
    if (f.key == key) return &f;
  return nullptr;
}

}  // namespace

std::vector<std::string> solver_option_keys() {
  std::vector<std::string> keys;
  for (const OptionField& f : kOptionFields) keys.emplace_back(f.key);
  return keys;
}

double trace_records_per_step(const SolverOptions& o) {
  const double linear = std::max(o.linear_iterations, o.linear_iterations_max);
  return double(o.substeps) * std::max({2.0 * (o.newton_iterations + 1) * linear, double(o.pgs_iterations + 1),
                                        double(o.dual_iterations + 1), double(o.primal_iterations + 1)});
}

int step_retries_within_trace_bound(const SolverOptions& o) {
  int k = std::clamp(o.step_retries, 0, limits::kMaxStepRetries);
  while (k > 0 && trace_records_per_step(o) * double(1 << k) > limits::kMaxTraceRecordsPerStep) --k;
  return k;
}

std::string check_solver_counts(const SolverOptions& o) {
  const auto check = [](const char* key, int v, int lo, int hi) -> std::string {
    if (v >= lo && v <= hi) return {};
    return "solver option '" + std::string(key) + "' = " + std::to_string(v) + " is out of range (" +
           std::to_string(lo) + ".." + std::to_string(hi) + ")";
  };
  for (std::string e : {check("substeps", o.substeps, 1, limits::kMaxSubsteps),
                        check("step_retries", o.step_retries, 0, limits::kMaxStepRetries),
                        check("newton_iterations", o.newton_iterations, 1, limits::kMaxSolverIterations),
                        check("linear_iterations", o.linear_iterations, 1, limits::kMaxSolverIterations),
                        check("linear_iterations_max", o.linear_iterations_max, 1, limits::kMaxSolverIterations),
                        check("newton_stall_iterations", o.newton_stall_iterations, 0, limits::kMaxSolverIterations),
                        check("pgs_iterations", o.pgs_iterations, 1, limits::kMaxSolverIterations),
                        check("dual_iterations", o.dual_iterations, 1, limits::kMaxSolverIterations),
                        check("primal_iterations", o.primal_iterations, 1, limits::kMaxSolverIterations)})
    if (!e.empty()) return e;
  // What one step reserves for its trace (solver/*: trace_capacity) grows with the product of
  // substeps, Newton iterations and the linear budget: bounded too, so no step can ask for more.
  const double records = trace_records_per_step(o);
  if (records > limits::kMaxTraceRecordsPerStep)
    return "solver options ask for " + std::to_string(static_cast<long long>(records)) +
           " trace records per step (substeps x (newton_iterations + 1) x 2 linear_iterations(_max), or substeps x "
           "pgs_iterations, dual_iterations or primal_iterations); at most " + std::to_string(static_cast<long long>(limits::kMaxTraceRecordsPerStep));
  return {};
}

std::string set_solver_option(SolverOptions& o, std::string_view key, std::string_view value) {
  if (const OptionField* f = find_option(key)) return f->set(o, key, value);
  std::string known;
  for (const OptionField& f : kOptionFields) known += (known.empty() ? "" : ", ") + std::string(f.key);
  return "unknown solver option '" + std::string(key) + "' (known: " + known + ")";
}

std::string get_solver_option(const SolverOptions& o, std::string_view key) {
  const OptionField* f = find_option(key);
  return f ? f->get(o) : std::string();
}

}  // namespace sim
