#include "ui/plot_axis.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace ui {

namespace {

constexpr double kLogFloor = 1e-300;

// "1.5e-5" style: mantissa with `decimals`, exponent without '+' or leading zeros.
std::string scientific(double value, int decimals) {
  if (value == 0) return "0";
  int exponent = static_cast<int>(std::floor(std::log10(std::abs(value))));
  double mantissa = value / std::pow(10.0, exponent);
  char m[32];
  std::snprintf(m, sizeof m, "%.*f", std::max(decimals, 0), mantissa);
  // Rounding may carry to 10.0: renormalise.
  if (std::abs(std::atof(m)) >= 10.0) {
    ++exponent;
    mantissa /= 10.0;
    std::snprintf(m, sizeof m, "%.*f", std::max(decimals, 0), mantissa);
  }
  std::string s = m;
  if (s.find('.') != std::string::npos) {  // "1.50" -> "1.5", "2.0" -> "2"
    while (s.back() == '0') s.pop_back();
    if (s.back() == '.') s.pop_back();
  }
  return s + "e" + std::to_string(exponent);
}

}  // namespace

double Axis::fraction(double value) const {
  if (log) {
    const double a = std::log10(lo), b = std::log10(hi), v = std::log10(std::max(value, kLogFloor));
    return b > a ? (v - a) / (b - a) : 0.5;
  }
  return hi > lo ? (value - lo) / (hi - lo) : 0.5;
}

double Axis::value_at(double f) const {
  if (log) return std::pow(10.0, std::log10(lo) + f * (std::log10(hi) - std::log10(lo)));
  return lo + f * (hi - lo);
}

Axis linear_axis(double lo, double hi, int max_ticks) {
  Axis a;
  max_ticks = std::max(max_ticks, 2);
  if (!std::isfinite(lo) || !std::isfinite(hi)) lo = 0, hi = 1;
  if (lo > hi) std::swap(lo, hi);
  if (hi - lo <= 1e-12 * std::max(std::abs(lo), std::abs(hi))) {  // one value: a unit around it
    const double half = lo == 0 ? 1.0 : 0.5 * std::pow(10.0, std::floor(std::log10(std::abs(lo))));
    lo -= half;
    hi += half;
  }
  const double raw = (hi - lo) / (max_ticks - 1);
  double decade = std::pow(10.0, std::floor(std::log10(raw)));
  double step = raw;
  long first = 0, last = 0;
  // The smallest of 1, 2, 5 x 10^k (from the raw step's decade up) whose whole steps covering
  // [lo, hi] are at most max_ticks ticks.
  // (Straddling zero needs 3 ticks at least: max_ticks 2 takes the step that gives 3.)
  for (int tries = 0, found = 0; !found && tries < 40; decade *= 10, ++tries)
    for (const double m : {1.0, 2.0, 5.0}) {
      const double s = m * decade;
      const long f = static_cast<long>(std::floor(lo / s + 1e-9)), l = static_cast<long>(std::ceil(hi / s - 1e-9));
      if (l - f + 1 <= std::max(max_ticks, lo < 0 && hi > 0 ? 3 : 2)) {
        step = s, first = f, last = l, found = 1;
        break;
      }
    }
  if (last == first) last = first + 1;
  a.step = step;
  a.lo = first * step;
  a.hi = last * step;
  for (long k = first; k <= last; ++k) {
    const double v = k == 0 ? 0.0 : k * step;
    a.ticks.push_back({v, linear_tick_label(v, step), true});
  }
  return a;
}

Axis log_axis(double lo, double hi, int max_ticks) {
  Axis a;
  a.log = true;
  max_ticks = std::max(max_ticks, 2);
  if (!(lo > kLogFloor) || !std::isfinite(lo)) lo = kLogFloor;
  if (!(hi > kLogFloor) || !std::isfinite(hi)) hi = lo;
  if (lo > hi) std::swap(lo, hi);
  int e_lo = static_cast<int>(std::floor(std::log10(lo) + 1e-9));
  int e_hi = static_cast<int>(std::ceil(std::log10(hi) - 1e-9));
  if (e_hi <= e_lo) e_hi = e_lo + 1;
  const int stride = std::max(1, (e_hi - e_lo + max_ticks - 2) / (max_ticks - 1));  // ceil(decades / (max - 1))
  const auto floor_div = [](int v, int k) { return v >= 0 ? v / k : -((-v + k - 1) / k); };
  e_lo = floor_div(e_lo, stride) * stride;
  e_hi = -floor_div(-e_hi, stride) * stride;
  a.step = stride;
  a.lo = std::pow(10.0, e_lo);
  a.hi = std::pow(10.0, e_hi);
  for (int e = e_lo; e <= e_hi; e += stride) {
    a.ticks.push_back({std::pow(10.0, e), decade_label(e), true});
    if (stride == 1 && e < e_hi)
      for (int m = 2; m <= 9; ++m) a.ticks.push_back({m * std::pow(10.0, e), std::string(), false});
  }
  return a;
}

std::string linear_tick_label(double value, double step) {
  if (value == 0 || std::abs(value) < 1e-9 * step) return "0";
  if (step >= 1e4 || step < 1e-3) {
    const int digits = static_cast<int>(std::floor(std::log10(std::abs(value))) - std::floor(std::log10(step) + 1e-9));
    return scientific(value, std::max(digits, 0));
  }
  const int decimals = std::max(0, -static_cast<int>(std::floor(std::log10(step) + 1e-9)));
  char text[48];
  std::snprintf(text, sizeof text, "%.*f", decimals, value);
  return text;
}

std::string decade_label(int exponent) {
  if (exponent >= -3 && exponent <= 3) {
    char text[16];
    std::snprintf(text, sizeof text, "%.*f", std::max(0, -exponent), std::pow(10.0, exponent));
    return text;
  }
  return "1e" + std::to_string(exponent);
}

std::string readout(double value) {
  if (std::isnan(value)) return "nan";
  if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
  if (value == 0) return "0";
  const double m = std::abs(value);
  if (m >= 1e-3 && m < 1e5) {
    char text[32];
    std::snprintf(text, sizeof text, "%.3g", value);
    return text;
  }
  return scientific(value, 2);
}

}  // namespace ui
