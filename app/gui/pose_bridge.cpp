#include "gui/pose_bridge.hpp"

#include <algorithm>

namespace coulomb::gui {

void PoseBridge::attach(render::PoseSink* sink) {
  std::lock_guard<std::mutex> lock(mutex_);
  sink_ = sink;
  last_sequence_ = 0;  // a fresh sink holds the model's initial state: take any state
  stale_ = false;
}

void PoseBridge::detach() {
  std::lock_guard<std::mutex> lock(mutex_);
  sink_ = nullptr;
}

bool PoseBridge::attached() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return sink_ != nullptr;
}

bool PoseBridge::fits(const sim::Model& model, const sim::State& state) const {
  return sink_ && sink_->body_count() == model.body_count && sink_->particle_count() == model.particle_count &&
         static_cast<int>(state.q.size()) == model.coord_count();
}

bool PoseBridge::write(const sim::Model& model, const sim::State& state, std::uint64_t sequence) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (!sink_) return false;
  if (held_) {
    last_sequence_ = std::max(last_sequence_, sequence);
    return false;
  }
  if (stale_ ? sequence < last_sequence_ : sequence <= last_sequence_) return false;
  if (!fits(model, state)) return false;
  render::write_state_poses(model, state, *sink_);
  sink_->publish();
  last_sequence_ = sequence;
  stale_ = false;
  ++writes_;
  return true;
}

std::uint64_t PoseBridge::writes() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return writes_;
}

bool PoseBridge::hold(const sim::Model& model, const sim::State& state) {
  std::lock_guard<std::mutex> lock(mutex_);
  held_ = true;
  if (!fits(model, state)) return false;
  render::write_state_poses(model, state, *sink_);
  sink_->publish();
  ++writes_;
  return true;
}

void PoseBridge::release() {
  std::lock_guard<std::mutex> lock(mutex_);
  if (!held_) return;
  held_ = false;
  stale_ = true;
}

bool PoseBridge::held() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return held_;
}

void write_frame_poses(PoseBridge& bridge, const sim::Model& model, const sim::State& live, std::uint64_t sequence,
                       const sim::State* replayed) {
  if (replayed) {
    bridge.hold(model, *replayed);
    return;
  }
  bridge.release();
  bridge.write(model, live, sequence);
}

}  // namespace coulomb::gui
