// What makes the app keep a step's Newton solve (issue 15 item 1), and how a kept solve is listed:
// plain data shared by the simulation thread's ring (app/gui/capture_ring.hpp), the Snapshot that
// carries the list to the UI, and the Solve capture panel that sets the triggers and opens a solve.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace ui {

enum class CaptureTrigger : std::uint8_t { Failure = 0, Residual, ContactChange, Key, Continuous };

const char* trigger_name(CaptureTrigger t);  // "failure", "residual", "contacts", "key", "continuous"

// What makes the ring keep a step's solve. Failures are always kept.
struct CaptureTriggers {
  bool residual = false;             // the step's largest final residual above `residual_threshold`
  double residual_threshold = 1e-3;  // in the rows' units (m, m/s): SolverTrace::final_*_max
  bool contact_change = false;       // the contact count differs from the previous step's
  bool continuous = false;           // every step (the ring keeps the last `ring_size`)
  int ring_size = 8;                     // the ring's size: the solves kept (1..kMaxSlots)
  static constexpr int kMaxSlots = 64;
  bool per_step() const { return residual || contact_change || continuous; }
  bool operator==(const CaptureTriggers&) const = default;
};

// One kept solve, as the Solve capture panel lists it (no heap: copied into every snapshot).
struct CaptureSummary {
  std::uint64_t id = 0;      // increases with every solve kept in this run
  double time = 0;           // the step's start [s]
  CaptureTrigger trigger = CaptureTrigger::Continuous;
  std::uint32_t flags = 0;   // StepReport::flags of the step
  int iterations = 0;        // Newton iterates captured
  int contacts = 0;
  double residual = 0;       // the step's largest final residual (SolverTrace::final_*_max)
  std::size_t bytes = 0;     // the slot's memory
};

// The ring as the UI sees it (Snapshot::captures).
struct CaptureRingStatus {
  std::vector<CaptureSummary> kept;  // oldest first
  CaptureTriggers triggers;
  std::size_t bytes = 0;             // the ring's memory, every slot's buffers included
  bool next_armed = false;           // the next step will be kept (the key)
};

}  // namespace ui
