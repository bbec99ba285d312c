#include "gui/pose_bridge.hpp"

namespace coulomb::gui {

void PoseBridge::attach(render::PoseSink* sink) {
  std::lock_guard<std::mutex> lock(mutex_);
  sink_ = sink;
  last_sequence_ = 0;  // a fresh sink holds the model's initial state: take any state
}

void PoseBridge::detach() {
  std::lock_guard<std::mutex> lock(mutex_);
  sink_ = nullptr;
}

bool PoseBridge::attached() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return sink_ != nullptr;
}

bool PoseBridge::write(const sim::Model& model, const sim::State& state, std::uint64_t sequence) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (!sink_ || sequence <= last_sequence_) return false;
  if (sink_->body_count() != model.body_count || sink_->particle_count() != model.particle_count) return false;
  if (static_cast<int>(state.q.size()) != model.coord_count()) return false;
  render::write_state_poses(model, state, *sink_);
  sink_->publish();
  last_sequence_ = sequence;
  ++writes_;
  return true;
}

std::uint64_t PoseBridge::writes() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return writes_;
}

}  // namespace coulomb::gui
