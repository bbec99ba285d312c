// `coulomb replay <session>`: reruns a recorded session (initial state + controls per step) and
// checks that it ends on the recorded state hash; optionally exports the states as CSV.
#include <cstdio>
#include <fstream>

#include "cli/cli_common.hpp"
#include "cli/commands.hpp"
#include "cli/state_csv.hpp"
#include "sim/recording.hpp"
#include "sim/step.hpp"

namespace coulomb {

int replay_command(int argc, char** argv, int first) {
  auto args = parse_args(argc, argv, first, {"csv", "scene", "threads"}, {});
  if (!args || args->positional.size() != 1) {
    if (!args) std::fprintf(stderr, "coulomb replay: %s\n", args.error().c_str());
    std::fprintf(stderr, "usage: coulomb replay <session.rec> [--scene file] [--csv states.csv] [--threads N]\n");
    return 2;
  }
  ThreadLimit threads(*args);
  auto rec = sim::load_recording(args->positional[0]);
  if (!rec) {
    std::fprintf(stderr, "coulomb replay: %s\n", rec.error().c_str());
    return 1;
  }
  auto scene_path = recording_scene(args->positional[0], *rec, *args);
  if (!scene_path) {
    std::fprintf(stderr, "coulomb replay: %s\n", scene_path.error().c_str());
    return 1;
  }
  const std::string scene_name = *scene_path;
  auto scene = load_scene(scene_name, *args);
  if (!scene) {
    std::fprintf(stderr, "coulomb replay: %s\n", scene.error().c_str());
    return 1;
  }
  sim::Model& model = scene->model;
  model.dt = rec->dt;
  if (std::string e = rec->mismatch(model); !e.empty()) {
    std::fprintf(stderr, "coulomb replay: %s: %s\n", args->positional[0].c_str(), e.c_str());
    return 1;
  }
  std::ofstream csv;
  if (auto p = args->value("csv")) {
    csv.open(*p);
    if (!csv) {
      std::fprintf(stderr, "coulomb replay: cannot write %s\n", p->c_str());
      return 1;
    }
    write_state_csv_header(csv);
  }
  sim::State state = rec->initial;
  if (csv.is_open()) write_state_csv(csv, model, state);
  sim::Workspace ws;
  int failures = 0;
  for (const sim::Control& control : rec->controls) {
    failures += sim::step(model, rec->options, state, control, ws).ok() ? 0 : 1;
    if (csv.is_open()) write_state_csv(csv, model, state);
  }
  const std::uint64_t hash = sim::state_hash(state);
  std::printf("replayed %zu steps of %s: final state hash %016llx, recorded %016llx: %s\n", rec->controls.size(),
              scene_name.c_str(), static_cast<unsigned long long>(hash),
              static_cast<unsigned long long>(rec->final_hash), hash == rec->final_hash ? "identical" : "DIFFERENT");
  return hash == rec->final_hash && failures == 0 ? 0 : 3;
}

}  // namespace coulomb
