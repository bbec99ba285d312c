// Axis ticks for the panels' plots (issue 15 item 3): "nice" values on linear axes (steps of 1, 2
// or 5 times a power of ten, the range widened outward to whole steps) and on log axes (powers of
// ten, every k-th decade when there are too many, with unlabelled minor ticks at 2..9 x 10^e),
// labelled in plain numbers: "0.02", "1e-6", "100", never a logarithm such as "1e-11.4". Pure
// functions, no ImGui: the plot widget (plot.hpp) draws what they return.
#pragma once

#include <string>
#include <vector>

namespace ui {

struct AxisTick {
  double value = 0;      // in data units (a log axis' ticks too: 1e-6, not -6)
  std::string label;     // empty for minor ticks
  bool major = true;
};

struct Axis {
  double lo = 0, hi = 1; // the axis' range in data units (widened to the outer ticks)
  bool log = false;
  double step = 1;       // linear: the tick step; log: decades between major ticks
  std::vector<AxisTick> ticks;  // ascending
  // Where `value` falls on the axis: 0 at lo, 1 at hi (log axes in log10).
  double fraction(double value) const;
  // The data value at `fraction` along the axis (the inverse of fraction()).
  double value_at(double fraction) const;
};

// At most `max_ticks` (>= 2) major ticks over [lo, hi]; lo == hi widens to a unit around it.
Axis linear_axis(double lo, double hi, int max_ticks);
// lo, hi > 0 (values below 1e-300 are raised to it): at most `max_ticks` labelled decades.
Axis log_axis(double lo, double hi, int max_ticks);

// A linear tick's label: as many decimals as the step needs ("0.25" at step 0.05, "3" at step
// 1), "0" for zero, and a power of ten ("2e4", "1.5e-5") when the step is >= 1e4 or < 1e-3.
std::string linear_tick_label(double value, double step);
// A decade's label: "0.001" .. "1000" in plain decimals, beyond them "1e-6", "1e4".
std::string decade_label(int exponent);
// A read-out value (hover): 3 significant digits, plain or with a power of ten ("0.0123", "4.5e-7").
std::string readout(double value);

}  // namespace ui
