// A log-log line plot as SVG text (`coulomb bench --sweep --plot`): one polyline with point
// markers per series, decade grid lines and labels on both axes, a legend. Points with a
// non-positive or non-finite coordinate cannot sit on a log axis: they are left out of their
// line and counted in the legend ("2 points off the axes").
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace coulomb {

struct PlotSeries {
  std::string name;
  std::string colour;                             // an SVG colour ("#1f77b4")
  std::vector<std::pair<double, double>> points;  // (x, y), drawn in this order
};

std::string log_log_plot_svg(const std::string& title, const std::string& x_label, const std::string& y_label,
                             const std::vector<PlotSeries>& series);

}  // namespace coulomb
