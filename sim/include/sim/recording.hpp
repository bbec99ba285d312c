// Session recording: the initial State, the solver options and the Control of every step, so a
// replay reproduces the session bit for bit (same final state hash). Binary, little-endian,
// doubles as written (no text round-off).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "sim/model.hpp"
#include "sim/result.hpp"
#include "sim/solver_options.hpp"
#include "sim/state.hpp"

namespace sim {

struct Recording {
  std::string scene_file;               // the scene the session ran (as given)
  SolverOptions options;                // options in force (the same for the whole session)
  Real dt = 0;                          // model dt in force
  int body_count = 0, particle_count = 0, joint_count = 0;  // fingerprint of the model
  State initial;
  std::vector<Control> controls;        // one per recorded step
  std::uint64_t final_hash = 0;         // state_hash after the last step, for verification

  void begin(const std::string& scene, const Model& model, const SolverOptions& options, const State& state);
  void record(const Control& control) { controls.push_back(control); }
  // Checks that the recording fits `model`; returns an error message or "".
  std::string mismatch(const Model& model) const;
};

// Writes atomically (temporary file in the same directory, then rename).
Result<bool> save_recording(const Recording& recording, const std::string& path);
Result<Recording> load_recording(const std::string& path);

}  // namespace sim
