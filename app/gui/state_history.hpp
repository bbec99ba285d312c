// The history scrubber's memory (MuJoCo simulate's history): the last states of the running
// simulation, whole sim::State objects with the user's inputs they were stepped with (drive
// targets, soft groups' active pressure: HistoryControl), oldest
// first, within a byte budget: a push drops the oldest states until the new one fits (the two
// newest are always kept). The entries live in a ring of slots: a dropped entry's slot, vectors
// included, is the next push's, so once the budget is reached recording allocates nothing unless a
// state outgrows the slot it reuses (more contacts than before); the ring grows only while the
// history first fills. No Qt.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "sim/state.hpp"

namespace coulomb::gui {

// The parts of sim::Control the user sets and a history entry restores with its state (the
// Joints and Teleop panels' drive targets, the soft groups' chamber pressure). Wrenches and
// particle forces are not recorded: they are re-applied each frame by whoever applies them
// (the grab spring). An input added to sim::Control that the user sets belongs here.
struct HistoryControl {
  std::vector<sim::Real> joint_target;
  std::vector<sim::Real> joint_target_velocity;
  std::vector<sim::Real> soft_pressure;

  // Copies the inputs of `control` (assignments reuse this one's vectors when large enough).
  void record(const sim::Control& control);
  // Sets them in `control`, each only where its size matches (another model's are ignored).
  void apply_to(sim::Control& control) const;
  static HistoryControl of(const sim::Control& control) {
    HistoryControl h;
    h.record(control);
    return h;
  }
};

struct HistoryEntry {
  sim::State state;
  HistoryControl control;
  std::size_t bytes = 0;  // what the budget counts for this entry (history_entry_bytes)
};

// Bytes an entry holding `state` and `control` counts against the budget: the payload of every
// vector of the State and of the recorded inputs (HistoryControl), plus the entry itself.
std::size_t history_entry_bytes(const sim::State& state, const sim::Control& control);

class StateHistory {
 public:
  static constexpr std::size_t kDefaultBudget = std::size_t(256) << 20;  // 256 MiB

  explicit StateHistory(std::size_t byte_budget = kDefaultBudget) : budget_(byte_budget) {}

  // Forgets every entry (another model: its states do not fit).
  void clear();
  // A new budget; drops the oldest entries that no longer fit.
  void set_budget(std::size_t bytes);
  // Records a state: the newest entry; the oldest go while the budget is exceeded.
  void push(const sim::State& state, const sim::Control& control);
  // Drops the entries newer than `index` (resuming from an earlier state starts a new branch).
  void truncate_after(std::size_t index);

  std::size_t size() const { return count_; }
  bool empty() const { return count_ == 0; }
  // 0: the oldest, size() - 1: the newest.
  const HistoryEntry& at(std::size_t index) const { return slots_[slot(index)]; }
  // About how many states of the newest one's size the budget holds (0 when empty).
  std::size_t capacity() const;
  std::size_t budget() const { return budget_; }
  std::size_t bytes() const { return bytes_; }  // held now, <= budget() unless two entries exceed it

 private:
  void evict_oldest();
  void fit();
  std::size_t slot(std::size_t index) const { return (head_ + index) % slots_.size(); }

  // The ring: entries 0 .. count_-1 are slots head_, head_+1, ... (mod slots_.size()); the other
  // slots are dropped entries whose vectors the next pushes reuse.
  std::vector<HistoryEntry> slots_;
  std::size_t head_ = 0, count_ = 0;
  std::size_t budget_;
  std::size_t bytes_ = 0;
};

}  // namespace coulomb::gui
