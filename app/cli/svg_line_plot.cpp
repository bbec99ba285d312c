#include "cli/svg_line_plot.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace coulomb {

namespace {

constexpr double kWidth = 720, kHeight = 480;
constexpr double kLeft = 80, kRight = 170, kTop = 40, kBottom = 60;  // margins [px]

bool plottable(const std::pair<double, double>& p) {
  return std::isfinite(p.first) && std::isfinite(p.second) && p.first > 0 && p.second > 0;
}

std::string escape(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (c == '<') out += "&lt;";
    else if (c == '>') out += "&gt;";
    else if (c == '&') out += "&amp;";
    else if (c == '"') out += "&quot;";
    else out += c;
  }
  return out;
}

std::string format(const char* f, double a, double b = 0, double c = 0, double d = 0) {
  char text[200];
  std::snprintf(text, sizeof text, f, a, b, c, d);
  return text;
}

// Whole decades around [lo, hi] (one decade at least).
void decades(double lo, double hi, int& first, int& last) {
  first = int(std::floor(std::log10(lo)));
  last = int(std::ceil(std::log10(hi)));
  if (last <= first) last = first + 1;
}

}  // namespace

std::string log_log_plot_svg(const std::string& title, const std::string& x_label, const std::string& y_label,
                             const std::vector<PlotSeries>& series) {
  double x_lo = INFINITY, x_hi = 0, y_lo = INFINITY, y_hi = 0;
  for (const PlotSeries& s : series)
    for (const auto& p : s.points)
      if (plottable(p)) {
        x_lo = std::min(x_lo, p.first), x_hi = std::max(x_hi, p.first);
        y_lo = std::min(y_lo, p.second), y_hi = std::max(y_hi, p.second);
      }
  if (!(x_hi > 0)) x_lo = 1, x_hi = 10, y_lo = 1, y_hi = 10;  // nothing plottable: empty axes
  int x0, x1, y0, y1;
  decades(x_lo, x_hi, x0, x1);
  decades(y_lo, y_hi, y0, y1);
  const double plot_w = kWidth - kLeft - kRight, plot_h = kHeight - kTop - kBottom;
  auto px = [&](double x) { return kLeft + (std::log10(x) - x0) / (x1 - x0) * plot_w; };
  auto py = [&](double y) { return kTop + (y1 - std::log10(y)) / (y1 - y0) * plot_h; };

  std::string svg = format("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" "
                           "viewBox=\"0 0 %.0f %.0f\" font-family=\"sans-serif\" font-size=\"12\">\n",
                           kWidth, kHeight, kWidth, kHeight);
  svg += "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
  svg += format("<text x=\"%.1f\" y=\"22\" text-anchor=\"middle\" font-size=\"14\">", kLeft + plot_w / 2) +
         escape(title) + "</text>\n";
  // Decade grid and labels.
  for (int e = x0; e <= x1; ++e) {
    const double x = px(std::pow(10.0, e));
    svg += format("<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#ddd\"/>\n", x, kTop, x, kTop + plot_h);
    svg += format("<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">1e%.0f</text>\n", x, kTop + plot_h + 18, e);
  }
  for (int e = y0; e <= y1; ++e) {
    const double y = py(std::pow(10.0, e));
    svg += format("<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#ddd\"/>\n", kLeft, y, kLeft + plot_w, y);
    svg += format("<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">1e%.0f</text>\n", kLeft - 6, y + 4, e);
  }
  svg += format("<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"none\" stroke=\"black\"/>\n", kLeft,
                kTop, plot_w, plot_h);
  svg += format("<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">", kLeft + plot_w / 2, kHeight - 14) +
         escape(x_label) + "</text>\n";
  svg += format("<text x=\"16\" y=\"%.1f\" text-anchor=\"middle\" transform=\"rotate(-90 16 %.1f)\">",
                kTop + plot_h / 2, kTop + plot_h / 2) +
         escape(y_label) + "</text>\n";
  // One polyline and markers per series; the legend at the right.
  for (std::size_t k = 0; k < series.size(); ++k) {
    const PlotSeries& s = series[k];
    std::string line;
    int off_axes = 0;
    for (const auto& p : s.points) {
      if (!plottable(p)) {
        ++off_axes;
        continue;
      }
      line += format("%.1f,%.1f ", px(p.first), py(p.second));
    }
    if (!line.empty()) {
      svg += "<polyline fill=\"none\" stroke-width=\"2\" stroke=\"" + escape(s.colour) + "\" points=\"" + line + "\"/>\n";
      for (const auto& p : s.points)
        if (plottable(p))
          svg += format("<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3\" ", px(p.first), py(p.second)) + "fill=\"" +
                 escape(s.colour) + "\"/>\n";
    }
    const double ly = kTop + 14 + 20 * double(k);
    svg += format("<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke-width=\"2\" ", kLeft + plot_w + 12, ly - 4,
                  kLeft + plot_w + 32, ly - 4) +
           "stroke=\"" + escape(s.colour) + "\"/>\n";
    std::string label = s.name;
    if (off_axes > 0) label += " (" + std::to_string(off_axes) + (off_axes == 1 ? " point" : " points") + " off the axes)";
    svg += format("<text x=\"%.1f\" y=\"%.1f\">", kLeft + plot_w + 38, ly) + escape(label) + "</text>\n";
  }
  svg += "</svg>\n";
  return svg;
}

}  // namespace coulomb
