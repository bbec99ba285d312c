// The history scrubber's memory (MuJoCo simulate's history): the last states of the running
// simulation, whole sim::State objects with the drive targets they were stepped with, in a ring
// whose size is set by a byte budget. Once the ring is full the oldest entry's storage is reused,
// so recording allocates nothing after the first lap and never holds more than the budget. No Qt.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "sim/state.hpp"

namespace coulomb::gui {

struct HistoryEntry {
  sim::State state;
  std::vector<sim::Real> joint_target;
  std::vector<sim::Real> joint_target_velocity;
};

// Bytes one entry of `state` and `control` holds (payload: what the budget counts).
std::size_t history_entry_bytes(const sim::State& state, const sim::Control& control);

class StateHistory {
 public:
  static constexpr std::size_t kDefaultBudget = std::size_t(256) << 20;  // 256 MiB

  explicit StateHistory(std::size_t byte_budget = kDefaultBudget) : budget_(byte_budget) {}

  // Forgets every entry (another model: its states do not fit). Keeps the storage.
  void clear();
  // A new budget; drops the oldest entries that no longer fit.
  void set_budget(std::size_t bytes);
  // Records a state: the newest entry. When the ring is full the oldest is overwritten.
  void push(const sim::State& state, const sim::Control& control);
  // Drops the entries newer than `index` (resuming from an earlier state starts a new branch).
  void truncate_after(std::size_t index);

  std::size_t size() const { return count_; }
  bool empty() const { return count_ == 0; }
  // 0: the oldest, size() - 1: the newest.
  const HistoryEntry& at(std::size_t index) const;
  // How many entries the budget holds for the states recorded now (0 before the first push).
  std::size_t capacity() const { return capacity_; }
  std::size_t budget() const { return budget_; }
  std::size_t bytes() const { return count_ * entry_bytes_; }  // payload held now

 private:
  std::size_t slot(std::size_t index) const { return (first_ + index) % capacity_; }

  std::vector<HistoryEntry> ring_;
  std::size_t budget_;
  std::size_t entry_bytes_ = 0;
  std::size_t capacity_ = 0;
  std::size_t first_ = 0;   // ring slot of the oldest entry
  std::size_t count_ = 0;
};

}  // namespace coulomb::gui
