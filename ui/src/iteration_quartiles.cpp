#include "ui/iteration_quartiles.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace ui {

IterationTraces::IterationTraces(int steps, int iterations)
    : capacity_(std::max(steps, 1)),
      per_step_(std::max(iterations, 1)),
      values_(static_cast<std::size_t>(capacity_) * static_cast<std::size_t>(per_step_), 0.0f),
      length_(static_cast<std::size_t>(capacity_), 0) {}

void IterationTraces::push(const sim::SolverTrace& trace) {
  const int n = std::min(static_cast<int>(trace.iterations.size()), per_step_);
  float* row = values_.data() + static_cast<std::size_t>(head_) * static_cast<std::size_t>(per_step_);
  for (int k = 0; k < n; ++k) {
    const sim::IterationTrace& t = trace.iterations[static_cast<std::size_t>(k)];
    const double v = std::max({static_cast<double>(t.normal_max), static_cast<double>(t.friction_max),
                               static_cast<double>(t.bilateral_max)});
    // std::max drops a NaN that is not first: a non-finite kind makes the iterate non-finite.
    const bool finite = std::isfinite(t.normal_max) && std::isfinite(t.friction_max) && std::isfinite(t.bilateral_max);
    row[k] = finite ? static_cast<float>(v) : std::numeric_limits<float>::infinity();
  }
  length_[static_cast<std::size_t>(head_)] = n;
  head_ = (head_ + 1) % capacity_;
  size_ = std::min(size_ + 1, capacity_);
  longest_ = 0;
  for (int i = 0; i < size_; ++i) longest_ = std::max(longest_, length(i));
}

float IterationTraces::residual(int i, int k) const {
  const int n = length(i);
  if (n == 0) return 0.0f;
  const auto base = static_cast<std::size_t>(index(i)) * static_cast<std::size_t>(per_step_);
  return values_[base + static_cast<std::size_t>(std::min(k, n - 1))];
}

double quantile(std::vector<double>& values, double p) {
  if (values.empty()) return std::numeric_limits<double>::quiet_NaN();
  std::sort(values.begin(), values.end());
  const double h = static_cast<double>(values.size() - 1) * std::clamp(p, 0.0, 1.0);
  const auto lo = static_cast<std::size_t>(std::floor(h));
  const std::size_t hi = std::min(lo + 1, values.size() - 1);
  if (!std::isfinite(values[hi]) || values[hi] == values[lo]) return h == static_cast<double>(lo) ? values[lo] : values[hi];
  return values[lo] + (h - static_cast<double>(lo)) * (values[hi] - values[lo]);
}

void iteration_quartiles(const IterationTraces& traces, IterationQuartiles& out, std::vector<double>& scratch) {
  const int n = traces.iterations();
  out.q25.resize(static_cast<std::size_t>(n));
  out.median.resize(static_cast<std::size_t>(n));
  out.q75.resize(static_cast<std::size_t>(n));
  out.steps = 0;
  for (int i = 0; i < traces.size(); ++i) out.steps += traces.length(i) > 0 ? 1 : 0;
  for (int k = 0; k < n; ++k) {
    scratch.clear();
    for (int i = 0; i < traces.size(); ++i)
      if (traces.length(i) > 0) scratch.push_back(static_cast<double>(traces.residual(i, k)));
    // Sorted once by the first call; the later ones find it sorted.
    out.q25[static_cast<std::size_t>(k)] = quantile(scratch, 0.25);
    out.median[static_cast<std::size_t>(k)] = quantile(scratch, 0.5);
    out.q75[static_cast<std::size_t>(k)] = quantile(scratch, 0.75);
  }
}

}  // namespace ui
