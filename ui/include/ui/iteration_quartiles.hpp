// Convergence over many steps (issue 15 item 3; the NSN paper's Fig. 16): per Newton iteration,
// the median and the 25 % / 75 % quartiles across the last N steps of the residual at that
// iterate, so a scene's typical convergence and its spread read at a glance where the last step's
// curve is one sample. The residual of an iterate is the largest of its row kinds' (normal [m],
// friction [m/s], bilateral [m]: IterationTrace::*_max), as the timeline's final residual. A step
// that stopped before iteration k (it converged) counts with its last iterate's residual there.
// A fixed ring: no allocation once constructed (the simulation thread pushes every taken step
// and the Snapshot carries a copy).
#pragma once

#include <vector>

#include "sim/trace.hpp"

namespace ui {

class IterationTraces {
 public:
  explicit IterationTraces(int steps = 240, int iterations = 32);
  // One step's trace (every substep's iterates in order, at most `iterations` of them).
  void push(const sim::SolverTrace& trace);
  void clear() { size_ = 0, longest_ = 0; }
  int size() const { return size_; }              // steps kept
  int capacity() const { return capacity_; }
  int iterations() const { return longest_; }     // the most iterates a kept step has
  int iterate_capacity() const { return per_step_; }  // iterates kept per step (a longer step: its first ones)
  // Step i (0: the oldest kept) at iterate k (its last one past its end); 0 when i has none.
  float residual(int i, int k) const;
  int length(int i) const { return length_[static_cast<std::size_t>(index(i))]; }

 private:
  int index(int i) const { return (head_ - size_ + i + 2 * capacity_) % capacity_; }
  int capacity_, per_step_, head_ = 0, size_ = 0, longest_ = 0;
  std::vector<float> values_;  // capacity × per_step
  std::vector<int> length_;
};

// The p-quantile (0 <= p <= 1) of `values` by linear interpolation between the order statistics
// (Hyndman & Fan's type 7, NumPy's default): sorted x, h = (n − 1) p, x[⌊h⌋] + (h − ⌊h⌋)(x[⌊h⌋+1] − x[⌊h⌋]).
// Sorts `values` in place; NaN for none.
double quantile(std::vector<double>& values, double p);

struct IterationQuartiles {
  std::vector<double> q25, median, q75;  // per Newton iterate 0 .. traces.iterations() − 1
  int steps = 0;                         // over how many steps
};

// Per iterate the quartiles over the kept steps (non-finite residuals count as the largest).
// `scratch` is reused.
void iteration_quartiles(const IterationTraces& traces, IterationQuartiles& out, std::vector<double>& scratch);

}  // namespace ui
