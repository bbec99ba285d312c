// The solver-option table (core/solver_options.cpp): every key reads back what it wrote, values
// outside an option's range are refused with the key and the expected range, and unknown keys
// list the known ones.
#include <catch2/catch.hpp>

#include <string>

#include "sim/solver_options.hpp"

namespace {

// A value other than the default for each kind of option, in set_solver_option's syntax.
std::string other_value(const sim::SolverOptions& defaults, const std::string& key) {
  const std::string current = sim::get_solver_option(defaults, key);
  if (current == "true") return "false";
  if (current == "false") return "true";
  if (key == "kind") return "pgs";
  if (key == "ncp") return "min_map";
  if (key == "preconditioner") return "h2";
  if (key == "linear_solver") return "gauss_seidel";
  if (key == "elastic_factorization") return "supernodal";
  if (key == "damping" || key == "jacobi_weight" || key == "linear_forcing_max") return "0.25";
  if (key == "pgs_relaxation" || key == "dual_relaxation" || key == "primal_step") return "1.5";
  return current == "3" ? "4" : "3";
}

}  // namespace

TEST_CASE("every solver option reads back what was set, and its default survives a round trip",
          "[unit][io][solver]") {
  const sim::SolverOptions defaults;
  REQUIRE(sim::solver_option_keys().size() >= 26);
  for (const std::string& key : sim::solver_option_keys()) {
    INFO(key);
    const std::string initial = sim::get_solver_option(defaults, key);
    REQUIRE_FALSE(initial.empty());
    sim::SolverOptions o;
    const std::string value = other_value(defaults, key);
    REQUIRE(sim::set_solver_option(o, key, value).empty());
    CHECK(sim::get_solver_option(o, key) != initial);
    sim::SolverOptions copy;
    REQUIRE(sim::set_solver_option(copy, key, sim::get_solver_option(o, key)).empty());
    CHECK(sim::get_solver_option(copy, key) == sim::get_solver_option(o, key));
    REQUIRE(sim::set_solver_option(copy, key, initial).empty());
    CHECK(sim::get_solver_option(copy, key) == initial);
  }
}

TEST_CASE("solver options outside their range are refused and leave the option as it was", "[unit][io][solver]") {
  struct Case {
    const char* key;
    const char* value;
    const char* expected;
  };
  const Case cases[] = {
      {"newton_iterations", "0", "an integer in 1..100000"}, {"newton_stall_iterations", "-1", "an integer in 0..100000"},
      {"newton_tolerance", "-1e-6", "a number >= 0"},      {"damping", "0", "a number in (0, 1]"},
      {"jacobi_weight", "1.5", "a number in (0, 1]"},      {"pgs_relaxation", "2", "a number in (0, 2)"},
      {"line_search", "maybe", "true or false"},           {"ncp", "fb2", "fischer_burmeister or min_map"},
      {"kind", "jacobi", "nsn, pgs, dual or primal"},                    {"substeps", "2000000000", "an integer in 1..1000"},
      {"linear_solver", "cg", "pcr, pcg, jacobi, gauss_seidel, direct or auto"},
      {"elastic_factorization", "cholmod", "simplicial, supernodal or auto"},
      {"linear_forcing_max", "1", "a number in [0, 1) (0: off)"},
      {"contact_margin", "nan", "a number >= 0"},
  };
  for (const Case& c : cases) {
    INFO(c.key << " = " << c.value);
    sim::SolverOptions o;
    const std::string before = sim::get_solver_option(o, c.key);
    const std::string error = sim::set_solver_option(o, c.key, c.value);
    CHECK_THAT(error, Catch::Contains(c.key) && Catch::Contains(c.expected));
    CHECK(sim::get_solver_option(o, c.key) == before);
  }
  sim::SolverOptions o;
  CHECK(sim::set_solver_option(o, "ncp", "fb").empty());  // the short names
  CHECK(o.ncp == sim::NcpFunction::FischerBurmeister);
  CHECK(sim::set_solver_option(o, "ncp", "min").empty());
  CHECK(o.ncp == sim::NcpFunction::MinMap);
  const std::string unknown = sim::set_solver_option(o, "newton_iteration", "3");
  CHECK_THAT(unknown, Catch::Contains("unknown solver option 'newton_iteration'") && Catch::Contains("newton_iterations"));
  CHECK(sim::get_solver_option(o, "newton_iteration").empty());
}
