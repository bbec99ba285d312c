#include "gui/state_history.hpp"

#include <algorithm>

namespace coulomb::gui {

std::size_t history_entry_bytes(const sim::State& state, const sim::Control& control) {
  const std::size_t reals = state.q.size() + state.u.size() + control.joint_target.size() +
                            control.joint_target_velocity.size();
  // (State members added later must be counted here too: the budget bounds the real memory.)
  return sizeof(HistoryEntry) + reals * sizeof(sim::Real);
}

void StateHistory::clear() {
  first_ = 0;
  count_ = 0;
  capacity_ = 0;
  entry_bytes_ = 0;
}

void StateHistory::set_budget(std::size_t bytes) {
  budget_ = bytes;
  if (entry_bytes_ == 0) return;
  const std::size_t fits = std::max<std::size_t>(2, budget_ / entry_bytes_);
  if (fits == capacity_) return;
  // Re-lay the kept (newest) entries from slot 0 in the new ring.
  const std::size_t keep = std::min(count_, fits);
  std::vector<HistoryEntry> ring(fits);
  for (std::size_t i = 0; i < keep; ++i) ring[i] = std::move(ring_[slot(count_ - keep + i)]);
  ring_ = std::move(ring);
  capacity_ = fits;
  first_ = 0;
  count_ = keep;
}

void StateHistory::push(const sim::State& state, const sim::Control& control) {
  if (capacity_ == 0) {
    entry_bytes_ = history_entry_bytes(state, control);
    capacity_ = std::max<std::size_t>(2, budget_ / entry_bytes_);
    // Slots are filled as they are first used; the vector of empty entries is small.
    if (ring_.size() != capacity_) ring_.assign(capacity_, HistoryEntry{});
    first_ = 0;
    count_ = 0;
  }
  std::size_t s;
  if (count_ < capacity_) {
    s = slot(count_);
    ++count_;
  } else {
    s = first_;
    first_ = (first_ + 1) % capacity_;
  }
  HistoryEntry& e = ring_[s];
  // Assignments reuse the slot's capacity: no allocation once the ring has gone round.
  e.state = state;  // member-wise: every vector of the State, whatever it holds
  e.joint_target = control.joint_target;
  e.joint_target_velocity = control.joint_target_velocity;
}

void StateHistory::truncate_after(std::size_t index) {
  if (index + 1 < count_) count_ = index + 1;
}

const HistoryEntry& StateHistory::at(std::size_t index) const { return ring_[slot(index)]; }

}  // namespace coulomb::gui
