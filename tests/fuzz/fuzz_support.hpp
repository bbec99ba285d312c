// What every libFuzzer target of tests/fuzz shares: a private scratch folder (the loaders read
// files, so an input is written to one there), the resource policy (nothing outside that folder
// is admitted, so a fuzzed `<include file="/etc/...">` or `package://` path is refused as in the
// CLI), the SDF cache inside it, and the size caps under which a loaded spec is also compiled.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "sim/spec.hpp"

namespace fuzz {

// The scratch folder (created on first use, removed at exit): /tmp/coulomb-fuzz-<pid>.
const std::string& scratch_dir();
// Writes `bytes` to <scratch>/<name> (replacing it) and returns the path.
std::string write_scratch(const std::string& name, std::string_view bytes);
// Sets the containment policy (only the scratch folder) and COULOMB_CACHE; call once.
void prepare_process();
// Ends a run that only wrote a seed file (COULOMB_FUZZ_WRITE_SEED=<path>): prints `error` and
// exits 1 when it is not empty, else "wrote <path>" and exits 0.
[[noreturn]] void finish_seed(const std::string& error, const char* path);

// A loaded spec small enough to compile within a fuzz execution's budget (the compile's own cost
// is near-linear, but a 10^4-body spec would make every execution slow, not find more): at most
// 64 bodies, joints and world shapes, 256 particles, and SDF bakes of the default grid size with
// a band of at most 8 voxels.
bool small_enough_to_compile(const sim::SceneSpec& spec);
// Compiles `spec` (the model a loader's output becomes in the CLI): an error is an answer, a
// crash or a sanitizer report is a finding.
void compile_if_small(const sim::SceneSpec& spec);

}  // namespace fuzz
