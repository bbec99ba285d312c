// `coulomb bench <scene> --sweep [--budgets 1,2,4,...] [--plot file.svg]` (issue 18 item 6): every
// solver kind at each iteration budget on the same scene and steps (sim/solver_sweep.hpp), printed
// as a table of CPU time per step against the errors left, and drawn as an error-against-work
// plot (log-log SVG, written atomically).
#pragma once

#include <string>

#include "cli/cli_common.hpp"

namespace coulomb {

// Returns the exit code (2: a bad --budgets, 1: the plot could not be written).
int bench_sweep(const std::string& name, const LoadedScene& scene, const Args& args, int steps);

}  // namespace coulomb
