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

std::size_t history_entry_bytes(const sim::State& state, const sim::Control& control) {
  return sizeof(HistoryEntry) + state_payload_bytes(state) +
         (control.joint_target.size() + control.joint_target_velocity.size()) * sizeof(sim::Real);
}

void StateHistory::clear() {
  while (!entries_.empty()) evict_oldest();
  bytes_ = 0;
}

void StateHistory::evict_oldest() {
  bytes_ -= entries_.front().bytes;
  spare_.push_back(std::move(entries_.front()));
  entries_.pop_front();
}

void StateHistory::fit() {
  while (entries_.size() > 2 && bytes_ > budget_) evict_oldest();
}

void StateHistory::set_budget(std::size_t bytes) {
  budget_ = bytes;
  fit();
  // Spare storage beyond what the new budget could ever reuse goes back to the system.
  std::size_t keep = 0, kept_bytes = 0;
  while (keep < spare_.size() && kept_bytes < budget_) kept_bytes += spare_[keep++].bytes;
  spare_.resize(keep);
}

void StateHistory::push(const sim::State& state, const sim::Control& control) {
  HistoryEntry e;
  if (!spare_.empty()) {
    e = std::move(spare_.back());
    spare_.pop_back();
  }
  // Assignments reuse the reused entry's vectors when they are large enough.
  e.state = state;
  e.joint_target = control.joint_target;
  e.joint_target_velocity = control.joint_target_velocity;
  e.bytes = history_entry_bytes(state, control);
  bytes_ += e.bytes;
  entries_.push_back(std::move(e));
  fit();
}

void StateHistory::truncate_after(std::size_t index) {
  while (entries_.size() > index + 1) {
    bytes_ -= entries_.back().bytes;
    spare_.push_back(std::move(entries_.back()));
    entries_.pop_back();
  }
}

std::size_t StateHistory::capacity() const {
  if (entries_.empty()) return 0;
  return std::max<std::size_t>(2, budget_ / std::max<std::size_t>(entries_.back().bytes, 1));
}

}  // namespace coulomb::gui
