// An A/B comparison and a sweep of a captured step (issue 15 item 4), as the Solve capture panel
// shows them: the open capture (A, its own options) solved again with one option changed (B), and
// solved once per value of one numeric option (an error-vs-work curve). Plain data: the simulation
// thread fills it (sim/captured_resolve.hpp, the code `coulomb solve-captured --set` uses) and the
// Snapshot carries it.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "sim/captured_resolve.hpp"
#include "sim/trace.hpp"

namespace ui {

struct CaptureComparison {
  std::uint64_t capture_id = 0;         // the open capture it belongs to (FailedStep::id)
  // A/B: B is A's options with `key` = `value`.
  std::string key, value;
  std::string error;                    // the option refused ("" when B was solved)
  std::vector<sim::IterationTrace> a, b;  // per Newton iterate, as captured
  bool b_ok = false;                    // B's step did not fail (else b_message)
  std::string b_message;
  // The sweep of `sweep_key` (one point per value; empty: none run).
  std::string sweep_key;
  std::string sweep_error;
  std::vector<sim::SweepPoint> sweep;
};

}  // namespace ui
