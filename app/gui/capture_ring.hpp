// Capture triggers and the ring of the last captured solves (issue 15 item 1). The simulation
// thread asks the ring for a capture before every step (`begin_step`: null while no per-step
// trigger is armed, so a run without triggers neither captures nor allocates) and tells it how
// the step went (`end_step`): the ring keeps the solve when a trigger fires (the final residual
// above a threshold, the contact count changed, the key asked for the next step, or always:
// continuous) and otherwise writes the next step into the same slot. A failed step's capture (the
// runner's re-run, failed_step.hpp) is kept too. The ring holds at most `ring_size` solves, oldest
// dropped first; its slots are reused in place (SolveCapture keeps its buffers), so once every
// slot has held a solve as large, capturing allocates nothing: when a solve is larger than every
// one before it (rows, nodes, Newton iterates, linear residuals), every slot is given room for it
// at once, so only such a step allocates.
// Its memory is reported (bytes()).
// Owned by the simulation thread; the UI sees `summaries()` (copied into the Snapshot) and asks
// for one capture by id (`find`).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "sim/solve_capture.hpp"
#include "sim/step.hpp"
#include "sim/trace.hpp"
#include "ui/capture_triggers.hpp"

namespace coulomb::gui {

using ui::CaptureSummary;
using ui::CaptureTrigger;
using ui::CaptureTriggers;

class CaptureRing {
 public:
  struct Slot {
    sim::SolveCapture capture;
    sim::StepReport report;
    CaptureSummary summary;
    std::vector<sim::Contact> contacts;  // the step's contacts (their geometry, for the viewport replay)
  };

  // Sets the triggers; a changed slot count resizes the ring (a user's request, not the step loop)
  // and drops the oldest solves that no longer fit.
  void configure(const CaptureTriggers& triggers);
  const CaptureTriggers& triggers() const { return triggers_; }
  // Keep the next step's solve whatever the triggers (the key); it stays armed until a step is taken.
  void arm_next() { next_ = true; }
  bool next_armed() const { return next_; }

  // Before a step: the capture to set as Workspace::capture, or null when nothing would keep it.
  sim::SolveCapture* begin_step();
  // After the step begun with begin_step (its capture, if any, is filled): keeps it when a
  // trigger fires (true, the trigger in *fired), else returns false. `contacts` are the step's
  // contacts: their count is tracked even without a capture (the contact-change trigger), and a
  // kept solve keeps a copy (into the slot's buffer: it allocates only when the slot never held as
  // many).
  bool end_step(const sim::StepReport& report, const sim::SolverTrace& trace, std::span<const sim::Contact> contacts,
                CaptureTrigger* fired = nullptr);
  // Keeps a failed step's capture and its contacts (copied into a slot; its buffers reused).
  void keep(const sim::SolveCapture& capture, const sim::StepReport& report, CaptureTrigger trigger,
            std::span<const sim::Contact> contacts = {});

  // Forgets every solve (another model: its rows no longer apply); keeps the buffers.
  void clear();

  int size() const { return count_; }                      // solves kept
  int capacity() const { return triggers_.ring_size; }
  const Slot* find(std::uint64_t id) const;                // null: dropped or never kept
  std::uint64_t newest_id() const { return next_id_; }     // the last solve kept (0: none)
  // The kept solves, oldest first, into `out` (its capacity reused).
  void summaries(std::vector<CaptureSummary>& out) const;
  std::size_t bytes() const;                               // every slot's memory, the scratch slot's too

 private:
  Slot& slot(int i) { return slots_[static_cast<std::size_t>(order_[static_cast<std::size_t>(i)])]; }
  void commit(CaptureTrigger trigger, double residual, int contacts);
  void resize_slots();
  void make_room(sim::SolveCapture& c);  // reserve the largest solve's sizes (the high-water marks)
  void note_sizes(const sim::SolveCapture& c);

  CaptureTriggers triggers_;
  std::vector<Slot> slots_;      // ring_size + 1: the kept ones and the one being written
  std::vector<int> order_;       // slot indices: kept ones oldest first (first count_), then the free ones
  int count_ = 0;
  bool next_ = false;
  bool capturing_ = false;       // begin_step handed out the scratch slot
  int last_contacts_ = -1;       // the previous step's contact count (-1: none yet)
  std::uint64_t next_id_ = 0;
  // The largest solve kept so far.
  std::size_t most_rows_ = 0, most_nodes_ = 0, most_dofs_ = 0, most_iterates_ = 0, most_linear_ = 0;
};

// `to` = `from`'s solve and input, reusing `to`'s buffers (a copy assignment would replace them).
void copy_solve(const sim::SolveCapture& from, sim::SolveCapture& to);

// The largest of a trace's final residuals (normal, friction, bilateral): what the residual
// trigger compares with its threshold.
double final_residual(const sim::SolverTrace& trace);

}  // namespace coulomb::gui
