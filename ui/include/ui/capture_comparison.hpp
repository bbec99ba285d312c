// An A/B comparison and a sweep of a captured step (issue 15 item 4), as the Solve capture panel
// shows them: the open capture (A, its own options) solved again with one option changed (B), and
// solved once per value of one numeric option (an error-vs-work curve). Plain data: the simulation
// thread fills it (sim/captured_resolve.hpp, the code `coulomb solve-captured --set` uses; the
// sweep's solves on a worker thread, app/gui/sweep_worker.hpp, their points added as they come)
// and the Snapshot carries it.
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
  std::string sweep_error;               // a refused value's message, or "cancelled"
  std::vector<sim::SweepPoint> sweep;     // the points done so far
  int sweep_total = 0;                    // the solves asked for
  bool sweep_running = false;             // the worker is still solving
};

}  // namespace ui
