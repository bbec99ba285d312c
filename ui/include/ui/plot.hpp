// A line plot drawn with ImDrawList (Dear ImGui 1.86 has no ImPlot): axes with ticks and labels
// from plot_axis.hpp (log or linear y, linear x), the axes' names with units, a legend, a hover
// read-out (a vertical line at the nearest sample, its x and every series' value in a tooltip),
// an optional marker line (the history cursor) and clicks reported in data units.
#pragma once

#include <imgui.h>

#include <string>
#include <vector>

namespace ui {

struct PlotSeries {
  std::string name;              // legend and read-out ("normal [m]")
  ImU32 color = IM_COL32(230, 230, 230, 255);
  std::vector<double> y;         // one per x; non-finite (and <= 0 on a log axis) break the line
};

struct PlotSpec {
  const char* id = "plot";
  std::string x_label, y_label;  // with units: "Newton iteration", "residual"
  bool log_y = true;
  float height = 110;            // [px], axes and labels included
  const std::vector<double>* x = nullptr;  // ascending sample positions (null: 0, 1, 2, ...)
  bool integer_x = false;        // x ticks on whole numbers only (iterations)
  double marker_x = 0;           // a vertical marker line at this x ...
  bool marker = false;           // ... when set
  int x_ticks = 6, y_ticks = 5;  // at most this many labelled ticks
};

struct PlotResult {
  int hovered = -1;              // sample under the mouse (-1: none)
  bool clicked = false;          // a left click (or drag) in the plot ...
  double clicked_x = 0;          // ... at this x (data units)
  int clicked_index = -1;        // ... nearest sample
};

PlotResult plot(const PlotSpec& spec, const std::vector<PlotSeries>& series);

}  // namespace ui
