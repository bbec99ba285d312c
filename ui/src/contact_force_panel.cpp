#include "ui/contact_force_panel.hpp"

#include <imgui.h>

#include <algorithm>
#include <cfloat>
#include <cstdio>

namespace ui {

ForceHistory::ForceHistory(std::vector<std::string> names, int capacity)
    : names_(std::move(names)), capacity_(std::max(1, capacity)), data_(names_.size() * capacity_, 0.0f) {}

void ForceHistory::push(const std::vector<float>& values) {
  for (int s = 0; s < series_count(); ++s)
    data_[s * capacity_ + head_] = s < static_cast<int>(values.size()) ? values[s] : 0.0f;
  head_ = (head_ + 1) % capacity_;
  size_ = std::min(size_ + 1, capacity_);
}

float ForceHistory::value(int s, int i) const {
  return data_[s * capacity_ + (head_ - size_ + i + capacity_) % capacity_];
}

namespace {
struct SeriesRef {
  const ForceHistory* h;
  int s;
};
float series_value(void* data, int i) {
  const SeriesRef* r = static_cast<const SeriesRef*>(data);
  return r->h->value(r->s, i);
}
}  // namespace

void contact_force_plots(const ForceHistory& h) {
  for (int s = 0; s < h.series_count(); ++s) {
    SeriesRef ref{&h, s};
    char overlay[64];
    std::snprintf(overlay, sizeof overlay, "%.2f N", static_cast<double>(h.latest(s)));
    ImGui::PlotLines(h.name(s).c_str(), series_value, &ref, h.size(), 0, overlay, 0.0f, FLT_MAX, ImVec2(0, 50));
  }
}

void contact_force_panel(const ForceHistory& h) {
  if (!ImGui::Begin("Contact forces")) {
    ImGui::End();
    return;
  }
  contact_force_plots(h);
  ImGui::End();
}

}  // namespace ui
