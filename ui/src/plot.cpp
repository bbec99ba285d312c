#include "ui/plot.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "ui/plot_axis.hpp"

namespace ui {

namespace {

constexpr ImU32 kFrame = IM_COL32(110, 110, 120, 255);
constexpr ImU32 kGrid = IM_COL32(255, 255, 255, 28);
constexpr ImU32 kMinorGrid = IM_COL32(255, 255, 255, 12);
constexpr ImU32 kText = IM_COL32(200, 200, 205, 255);
constexpr ImU32 kMarker = IM_COL32(255, 200, 80, 220);

bool plottable(double v, bool log) { return std::isfinite(v) && (!log || v > 0); }

}  // namespace

PlotResult plot(const PlotSpec& spec, const std::vector<PlotSeries>& series) {
  PlotResult result;
  ImGui::PushID(spec.id);
  const float width = std::max(120.0f, ImGui::GetContentRegionAvail().x);
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const float line = ImGui::GetTextLineHeight();
  const bool released = ImGui::InvisibleButton("##area", ImVec2(width, spec.height));
  const bool hovered = ImGui::IsItemHovered();
  const bool held = ImGui::IsItemActive();
  ImDrawList* draw = ImGui::GetWindowDrawList();

  // Data ranges.
  std::size_t n = 0;
  for (const PlotSeries& s : series) n = std::max(n, s.y.size());
  const auto x_of = [&](std::size_t i) { return spec.x && i < spec.x->size() ? (*spec.x)[i] : static_cast<double>(i); };
  double x_lo = n ? x_of(0) : 0, x_hi = n ? x_of(n - 1) : 1;
  double y_lo = std::numeric_limits<double>::infinity(), y_hi = -y_lo;
  for (const PlotSeries& s : series)
    for (double v : s.y)
      if (plottable(v, spec.log_y)) y_lo = std::min(y_lo, v), y_hi = std::max(y_hi, v);
  if (!(y_lo <= y_hi)) y_lo = spec.log_y ? 1e-6 : 0, y_hi = spec.log_y ? 1 : 1;
  if (!spec.log_y && y_lo > 0 && y_lo < 0.5 * y_hi) y_lo = 0;  // counts and times start at zero
  const Axis ya = spec.log_y ? log_axis(y_lo, y_hi, spec.y_ticks) : linear_axis(y_lo, y_hi, spec.y_ticks);
  Axis xa = linear_axis(x_lo, x_hi, spec.x_ticks);
  if (spec.integer_x && xa.step < 1) xa = linear_axis(x_lo, std::max(x_hi, x_lo + 1), static_cast<int>(x_hi - x_lo) + 1);
  xa.lo = x_lo;  // the data's own range: no empty margins left and right
  xa.hi = x_hi > x_lo ? x_hi : x_lo + 1;

  // Layout: y labels left, x labels and the axis name below, the y axis' name over the frame.
  float label_width = 0;
  for (const AxisTick& t : ya.ticks) label_width = std::max(label_width, ImGui::CalcTextSize(t.label.c_str()).x);
  const ImVec2 p0(origin.x + label_width + 6, origin.y + line + 2);
  const ImVec2 p1(origin.x + width - 4, origin.y + spec.height - 2 * line - 4);
  const float pw = std::max(1.0f, p1.x - p0.x), ph = std::max(1.0f, p1.y - p0.y);
  const auto sx = [&](double x) { return p0.x + static_cast<float>(xa.fraction(x)) * pw; };
  const auto sy = [&](double y) { return p1.y - static_cast<float>(ya.fraction(y)) * ph; };

  draw->AddText(ImVec2(origin.x, origin.y), kText, spec.y_label.c_str());
  for (const AxisTick& t : ya.ticks) {
    const float y = sy(t.value);
    if (y < p0.y - 0.5f || y > p1.y + 0.5f) continue;
    draw->AddLine(ImVec2(p0.x, y), ImVec2(p1.x, y), t.major ? kGrid : kMinorGrid);
    if (t.major) {
      const ImVec2 size = ImGui::CalcTextSize(t.label.c_str());
      draw->AddText(ImVec2(p0.x - size.x - 4, y - size.y / 2), kText, t.label.c_str());
    }
  }
  for (const AxisTick& t : xa.ticks) {
    if (t.value < xa.lo - 1e-9 * std::abs(xa.hi - xa.lo) || t.value > xa.hi + 1e-9 * std::abs(xa.hi - xa.lo)) continue;
    const float x = sx(t.value);
    draw->AddLine(ImVec2(x, p0.y), ImVec2(x, p1.y), kGrid);
    const ImVec2 size = ImGui::CalcTextSize(t.label.c_str());
    draw->AddText(ImVec2(std::clamp(x - size.x / 2, p0.x - 4, p1.x - size.x), p1.y + 2), kText, t.label.c_str());
  }
  const ImVec2 xl = ImGui::CalcTextSize(spec.x_label.c_str());
  draw->AddText(ImVec2(p0.x + (pw - xl.x) / 2, p1.y + line + 3), kText, spec.x_label.c_str());
  draw->AddRect(p0, p1, kFrame);

  // Series: polylines broken at unplottable values.
  draw->PushClipRect(p0, ImVec2(p1.x + 1, p1.y + 1), true);
  for (const PlotSeries& s : series) {
    ImVec2 prev;
    bool have = false;
    for (std::size_t i = 0; i < s.y.size(); ++i) {
      if (!plottable(s.y[i], spec.log_y)) {
        have = false;
        continue;
      }
      const ImVec2 p(sx(x_of(i)), sy(s.y[i]));
      if (have) draw->AddLine(prev, p, s.color, 1.5f);
      else if (i + 1 >= s.y.size() || !plottable(s.y[i + 1], spec.log_y)) draw->AddCircleFilled(p, 2.0f, s.color);
      prev = p;
      have = true;
    }
  }
  if (spec.marker) draw->AddLine(ImVec2(sx(spec.marker_x), p0.y), ImVec2(sx(spec.marker_x), p1.y), kMarker, 1.5f);
  draw->PopClipRect();

  // Legend, top right inside the frame.
  float lx = p1.x - 4;
  for (auto it = series.rbegin(); it != series.rend(); ++it) {
    const ImVec2 size = ImGui::CalcTextSize(it->name.c_str());
    lx -= size.x;
    draw->AddText(ImVec2(lx, p0.y + 2), it->color, it->name.c_str());
    lx -= 10;
  }

  // Hover read-out and clicks: the nearest sample in x.
  const ImVec2 mouse = ImGui::GetIO().MousePos;
  if ((hovered || held) && n > 0) {
    const double x = xa.value_at(std::clamp((mouse.x - p0.x) / pw, 0.0f, 1.0f));
    std::size_t best = 0;
    for (std::size_t i = 1; i < n; ++i)
      if (std::abs(x_of(i) - x) < std::abs(x_of(best) - x)) best = i;
    result.hovered = static_cast<int>(best);
    const float hx = sx(x_of(best));
    draw->AddLine(ImVec2(hx, p0.y), ImVec2(hx, p1.y), IM_COL32(255, 255, 255, 90));
    ImGui::BeginTooltip();
    ImGui::Text("%s %s", spec.x_label.c_str(), readout(x_of(best)).c_str());
    for (const PlotSeries& s : series)
      if (best < s.y.size())
        ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(s.color), "%s: %s", s.name.c_str(), readout(s.y[best]).c_str());
    ImGui::EndTooltip();
    if (held || released) {  // pressed, held (dragging scrubs) or released on the plot
      result.clicked = true;
      result.clicked_x = x;
      result.clicked_index = static_cast<int>(best);
    }
  }
  ImGui::PopID();
  return result;
}

}  // namespace ui
