#include "gui/state_history.hpp"

#include <algorithm>

namespace coulomb::gui {

namespace {

// The payload of every vector a State holds (members added to sim::State belong here too).
std::size_t state_payload_bytes(const sim::State& s) {
  const sim::WarmStart& w = s.warm_start;
  return (s.q.size() + s.u.size() + s.joint_position.size() + w.contact_lambda.size() + w.row_lambda.size()) *
             sizeof(sim::Real) +
         w.contact_key.size() * sizeof(std::uint64_t);
}

}  // namespace

void HistoryControl::record(const sim::Control& control) {
  joint_target = control.joint_target;
  joint_target_velocity = control.joint_target_velocity;
  soft_pressure = control.soft_pressure;
}

void HistoryControl::apply_to(sim::Control& control) const {
  auto set = [](std::vector<sim::Real>& to, const std::vector<sim::Real>& from) {
    if (from.size() == to.size()) to = from;
  };
  set(control.joint_target, joint_target);
  set(control.joint_target_velocity, joint_target_velocity);
  set(control.soft_pressure, soft_pressure);
}

std::size_t history_entry_bytes(const sim::State& state, const sim::Control& control) {
  return sizeof(HistoryEntry) + state_payload_bytes(state) +
         (control.joint_target.size() + control.joint_target_velocity.size() + control.soft_pressure.size()) *
             sizeof(sim::Real);
}

void StateHistory::clear() {
  head_ = count_ = 0;
  bytes_ = 0;
}

void StateHistory::evict_oldest() {
  bytes_ -= slots_[head_].bytes;
  head_ = (head_ + 1) % slots_.size();
  --count_;
}

void StateHistory::fit() {
  while (count_ > 2 && bytes_ > budget_) evict_oldest();
}

void StateHistory::set_budget(std::size_t bytes) {
  budget_ = bytes;
  fit();
  // Free slots beyond what the new budget could ever reuse go back to the system.
  std::rotate(slots_.begin(), slots_.begin() + std::ptrdiff_t(slots_.empty() ? 0 : head_), slots_.end());
  head_ = 0;
  const std::size_t per_entry = count_ > 0 ? std::max<std::size_t>(slots_[count_ - 1].bytes, 1) : 1;
  const std::size_t keep = std::max(count_, std::min(slots_.size(), budget_ / per_entry + 1));
  slots_.resize(keep);
}

void StateHistory::push(const sim::State& state, const sim::Control& control) {
  if (count_ == slots_.size()) {
    // Every slot holds an entry: a new slot after the newest (only while the history first fills).
    std::rotate(slots_.begin(), slots_.begin() + std::ptrdiff_t(slots_.empty() ? 0 : head_), slots_.end());
    head_ = 0;
    slots_.emplace_back();
  }
  HistoryEntry& e = slots_[slot(count_)];
  // Assignments reuse the slot's vectors when they are large enough.
  e.state = state;
  e.control.record(control);
  e.bytes = history_entry_bytes(state, control);
  bytes_ += e.bytes;
  ++count_;
  fit();
}

void StateHistory::truncate_after(std::size_t index) {
  while (count_ > index + 1) {
    bytes_ -= slots_[slot(count_ - 1)].bytes;
    --count_;
  }
}

std::size_t StateHistory::capacity() const {
  if (count_ == 0) return 0;
  return std::max<std::size_t>(2, budget_ / std::max<std::size_t>(at(count_ - 1).bytes, 1));
}

}  // namespace coulomb::gui
