// The Contact forces panel: per watched body (e.g. each gripper finger) the sum of its contact
// normal forces over recent steps, as a strip chart, with the latest value.
#pragma once

#include <string>
#include <vector>

namespace ui {

class ForceHistory {
 public:
  ForceHistory(std::vector<std::string> names, int capacity = 600);
  void push(const std::vector<float>& values);  // one value per watched body
  int size() const { return size_; }
  int series_count() const { return static_cast<int>(names_.size()); }
  const std::string& name(int s) const { return names_[s]; }
  float value(int s, int i) const;               // i = 0: oldest kept
  float latest(int s) const { return size_ ? value(s, size_ - 1) : 0.0f; }

 private:
  std::vector<std::string> names_;
  int capacity_, head_ = 0, size_ = 0;
  std::vector<float> data_;                      // series-major (series_count * capacity)
};

void contact_force_panel(const ForceHistory& history);
// The strip charts alone, inside the current window (the Teleop panel shows them too).
void contact_force_plots(const ForceHistory& history);

}  // namespace ui
