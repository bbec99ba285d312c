// The colour-field legend over the viewport (issue 14 item 6): the active field's name, the
// colour map as a bar, its low and high ends with units, and a grey swatch for elements the
// field does not apply to. Top centre of the viewport, takes no input.
#pragma once

#include <array>
#include <string>
#include <vector>

namespace ui {

struct ColorLegendView {
  bool shown = false;
  std::string name;                          // "volumetric strain"
  std::string unit;                          // "Pa", or empty for a ratio
  float lo = 0, hi = 0;                      // what the map's ends stand for
  std::vector<std::array<float, 3>> colors;  // the map from lo to hi, evenly spaced, sRGB in [0, 1]
  std::array<float, 3> none{0.5f, 0.5f, 0.5f};  // elements without a value (NaN), sRGB
};

// "1.2e+04", "0.0123", "-3": the legend's number format (4 significant digits, no trailing zeros).
std::string legend_number(float value);

void color_legend(const ColorLegendView& view);

}  // namespace ui
