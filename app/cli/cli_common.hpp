// Shared pieces of the headless subcommands: argument parsing, scene lookup, option overrides.
#pragma once

#include <functional>
#include <initializer_list>
#include <optional>
#include <string>
#include <vector>

#include "sim/load_limits.hpp"
#include "sim/model.hpp"
#include "sim/recording.hpp"
#include "sim/result.hpp"
#include "sim/spec.hpp"

namespace coulomb {

// Command-line arguments after the subcommand: positionals and --flag [value] pairs.
struct Args {
  std::vector<std::string> positional;
  std::vector<std::pair<std::string, std::string>> options;  // in order; repeated flags kept
  std::vector<std::string> flags;                           // value-less flags

  bool has_flag(const std::string& name) const;
  std::optional<std::string> value(const std::string& name) const;   // last occurrence
  std::vector<std::string> values(const std::string& name) const;    // all occurrences
};

// Parses argv[first..]; `value_options` lists the options that take a value.
sim::Result<Args> parse_args(int argc, char** argv, int first, const std::vector<std::string>& value_options,
                             const std::vector<std::string>& bare_flags);

// parse_args with "-o FILE" accepted as "--out FILE" (bake, tetmesh).
sim::Result<Args> parse_args_with_short_out(int argc, char** argv, int first, const std::vector<std::string>& value_options,
                                            const std::vector<std::string>& bare_flags);
// The one parser of numeric arguments (issue 19): the whole text must be a number (std::from_chars:
// no trailing characters, no "nan" or "inf", nothing out of range of the type) inside
// [min, max] (above min when `min_exclusive`). Returns "" and sets `out`, else the complaint
// ("--steps: 'abc' is not a whole number (expected 0 .. 1000000000)").
struct NumberRange {
  double min = -1e300, max = 1e300;
  bool min_exclusive = false;
};
std::string parse_number_argument(const std::string& name, const std::string& text, const NumberRange& range, double& out);
std::string parse_integer_argument(const std::string& name, const std::string& text, long long min, long long max,
                                   long long& out);
// The value of --name into `out` (left as it is when the option is absent); false, after
// "coulomb <command>: <complaint>" on stderr, when it does not parse or is out of range (the
// caller prints its usage and exits with 2).
bool number_option(const Args& args, const char* name, const char* command, double& out, const NumberRange& range = {});
bool integer_option(const Args& args, const char* name, const char* command, int& out, long long min, long long max);
// The printable form of a message that may quote file content or arguments: control characters
// escaped (sim::escape_control_characters), printed as "coulomb <command>: <message>".
void print_error(const char* command, const std::string& message);

// "arch" -> <scenes dir>/arch.xml; a path is used as is. Errors name what was tried.
sim::Result<std::string> resolve_scene(const std::string& name_or_path);
// True when `path` lies inside the shipped assets (the scene folders' parent: assets/ of the
// source tree, share/coulomb of an install, $COULOMB_ASSETS): the app never writes there.
bool is_shipped_asset(const std::string& path);
// All shipped scenes (sorted by name).
std::vector<std::string> shipped_scenes();

// The folders whose trees every load may read (sim/resource_policy.hpp package roots): the
// shipped assets (the scene folders' parents) and, beside a source checkout, ../shared/robots,
// which the shipped scenes name.
std::vector<std::string> shipped_package_roots();
// Sets the process's resource policy for loading `path`: references outside its folder tree
// and the package roots (shipped_package_roots, every --package-root DIR, $COULOMB_PACKAGE_PATH)
// are refused unless --allow-outside-paths is given. parse_args accepts both options for every
// command.
void apply_resource_policy(const std::string& path, const Args& args);

// Loads, applies --dt and --set solver.key=value overrides, compiles.
struct LoadedScene {
  sim::SceneSpec spec;
  sim::Model model;
  double load_seconds = 0;     // reading the file, robot imports included
  double compile_seconds = 0;  // compile_model
};
sim::Result<LoadedScene> load_scene(const std::string& name_or_path, const Args& args);
// Applies every --set solver.key=value to `options`; returns an error message or "".
std::string apply_solver_overrides(sim::SolverOptions& options, const Args& args);
// The scene a session recording ran: --scene if given, else the recorded path, looked up beside
// the recording first when relative (and refused when that leaves its folder tree).
sim::Result<std::string> recording_scene(const std::string& recording_path, const sim::Recording& recording,
                                         const Args& args);
// "loaded in 0.41 s (robot fetch.urdf 0.38 s: 16 bodies, 15 joints, 2 import simplifications),
// compiled in 0.01 s", then per robot each import simplification on its own line
// ("  file:line: <element>: what"), and a line listing the robot link pairs filtered from
// self-collision for overlapping at the initial pose (Model::initial_overlap_pairs), if any.
// load_scene reads --free-base (a URDF opened directly gets a free root link).
std::string load_summary(const LoadedScene& scene);
// "nsn (fischer_burmeister/effective_mass/pcr), at most 16 x 20 iterations" or
// "pgs: projected Gauss-Seidel (...), at most 100 sweeps, relaxation 1": the solver a run uses.
std::string describe_solver(const sim::SolverOptions& options);
// The files a loaded scene was read from: the scene, its includes, robot descriptions, texture
// images (what an output of the run must not replace).
std::vector<std::string> scene_input_files(const LoadedScene& scene);
// False, after "coulomb <command>: <file>: is an input of this run ..." on stderr, when the value
// of one of `output_options` is the same file as one of `inputs` (sim::refuse_input_as_output).
bool check_outputs(const Args& args, const char* command, std::initializer_list<const char*> output_options,
                   const std::vector<std::string>& inputs);
// Whether a load error is a <robot> element's import (e.g. ../shared/robots absent).
bool is_robot_import_error(const std::string& error);

// Step counts (--steps, --every, --capture-step, bench's --steps): 0 .. 1e9.
inline constexpr long long kMaxSteps = 1000000000;
// --threads N: 0 (the default: TBB's choice) .. kMaxThreads; --dt s: above 0, at most the
// scene's largest time step (sim::limits::kMaxTimeStep, 0.1 s).
inline constexpr long long kMaxThreads = 1024;
inline constexpr NumberRange kTimeStepRange{0, sim::limits::kMaxTimeStep, true};
// Checks --threads and --dt where given (false after the complaint on stderr: usage, exit 2).
bool check_common_options(const Args& args, const char* command);

// Runs `body` (a subcommand, argv[first..] its arguments) with the last --threads N (or
// --threads=N) as the parallelism of the TBB work it starts: inside a tbb::task_arena of N slots
// (0, absent or unparsable: TBB's default; the subcommand's check_common_options reports a bad
// value). Not a tbb::global_control: its limit below the core count grew the process by ~0.2 MB
// per step on large scenes (oneTBB issue 1403; docs/benchmarks.md has the measurement).
int with_thread_limit(int argc, char** argv, int first, const std::function<int()>& body);

}  // namespace coulomb
