// `coulomb replay <session>`: reruns a recorded session (initial state + controls per step) and
// checks that it ends on the recorded state hash; optionally exports the states as CSV.
#include <cstdio>
#include <optional>
#include <vector>

#include "cli/cli_common.hpp"
#include "cli/commands.hpp"
#include "cli/state_csv.hpp"
#include "sim/atomic_file.hpp"
#include "sim/recording.hpp"
#include "sim/step.hpp"

namespace coulomb {

int replay_command(int argc, char** argv, int first) {
  auto args = parse_args(argc, argv, first, {"csv", "scene", "threads"}, {});
  if (!args || args->positional.size() != 1) {
    if (!args) print_error("replay", args.error());
    std::fprintf(stderr, "usage: coulomb replay <session.rec> [--scene file] [--csv states.csv] [--threads N]\n");
    return 2;
  }
  if (!check_common_options(*args, "replay")) {
    std::fprintf(stderr, "usage: coulomb replay <session.rec> [--scene file] [--csv states.csv] [--threads N]\n");
    return 2;
  }
  auto rec = sim::load_recording(args->positional[0]);
  if (!rec) {
    print_error("replay", rec.error());
    return 1;
  }
  auto scene_path = recording_scene(args->positional[0], *rec, *args);
  if (!scene_path) {
    print_error("replay", scene_path.error());
    return 1;
  }
  const std::string scene_name = *scene_path;
  auto scene = load_scene(scene_name, *args);
  if (!scene) {
    print_error("replay", scene.error());
    return 1;
  }
  sim::Model& model = scene->model;
  model.dt = rec->dt;
  if (std::string e = rec->mismatch(model); !e.empty()) {
    print_error("replay", args->positional[0] + ": " + e);
    return 1;
  }
  // Neither the recording nor the scene's files may be the --csv output.
  std::vector<std::string> inputs = scene_input_files(*scene);
  inputs.push_back(args->positional[0]);
  if (!check_outputs(*args, "replay", {"csv"}, inputs)) return 2;
  // The states go to a temporary file renamed over --csv at the end (sim/atomic_file.hpp).
  std::optional<sim::AtomicFile> csv;
  if (auto p = args->value("csv")) {
    csv.emplace(*p);
    if (!csv->ok()) {
      print_error("replay", csv->error());
      return 1;
    }
    write_state_csv_header(csv->stream());
  }
  sim::State state = rec->initial;
  if (csv) write_state_csv(csv->stream(), model, state);
  sim::Workspace ws;
  int failures = 0;
  for (const sim::Control& control : rec->controls) {
    failures += sim::step(model, rec->options, state, control, ws).ok() ? 0 : 1;
    if (csv) write_state_csv(csv->stream(), model, state);
  }
  if (csv)
    if (std::string e = csv->commit(); !e.empty()) {
      print_error("replay", e);
      return 1;
    }
  const std::uint64_t hash = sim::state_hash(state);
  std::printf("replayed %zu steps of %s: final state hash %016llx, recorded %016llx: %s\n", rec->controls.size(),
              scene_name.c_str(), static_cast<unsigned long long>(hash),
              static_cast<unsigned long long>(rec->final_hash), hash == rec->final_hash ? "identical" : "DIFFERENT");
  return hash == rec->final_hash && failures == 0 ? 0 : 3;
}

}  // namespace coulomb
