// The Convergence panel's quartile plot over many steps (ui/iteration_quartiles.hpp, the NSN
// paper's Fig. 16) against quartiles worked by hand: NumPy's linear interpolation between order
// statistics, the residual of an iterate the largest of its row kinds, a step that stopped early
// counted with its last value, the oldest step dropped from a full ring.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <vector>

#include "ui/iteration_quartiles.hpp"

namespace {

// A step whose iterates have these residuals, spread over the row kinds (the largest counts).
sim::SolverTrace trace(const std::vector<double>& residuals) {
  sim::SolverTrace t;
  for (std::size_t k = 0; k < residuals.size(); ++k) {
    sim::IterationTrace it;
    it.normal_max = k % 3 == 0 ? residuals[k] : residuals[k] / 10;
    it.friction_max = k % 3 == 1 ? residuals[k] : 0;
    it.bilateral_max = k % 3 == 2 ? residuals[k] : residuals[k] / 100;
    t.iterations.push_back(it);
  }
  return t;
}

}  // namespace

TEST_CASE("quantiles: linear interpolation between order statistics", "[ui][quartiles]") {
  std::vector<double> v{5, 1, 4, 2, 3};
  CHECK(ui::quantile(v, 0.25) == 2);
  CHECK(ui::quantile(v, 0.5) == 3);
  CHECK(ui::quantile(v, 0.75) == 4);
  std::vector<double> w{4, 3, 2, 1};
  CHECK(ui::quantile(w, 0.25) == Approx(1.75));
  CHECK(ui::quantile(w, 0.5) == Approx(2.5));
  CHECK(ui::quantile(w, 0.75) == Approx(3.25));
  std::vector<double> none;
  CHECK(std::isnan(ui::quantile(none, 0.5)));
  std::vector<double> inf{1, std::numeric_limits<double>::infinity()};
  CHECK(std::isinf(ui::quantile(inf, 0.75)));  // a non-finite iterate is the largest
}

TEST_CASE("quartiles per Newton iteration over the last steps equal the hand-worked ones", "[ui][quartiles]") {
  ui::IterationTraces traces(4, 8);
  traces.push(trace({1, 0.1, 0.01}));
  traces.push(trace({2, 0.2}));  // converged after one update: 0.2 counts at iterate 2 too
  traces.push(trace({3, 0.3, 0.03}));
  traces.push(trace({4, 0.4, 0.04}));
  REQUIRE(traces.size() == 4);
  REQUIRE(traces.iterations() == 3);
  CHECK(traces.residual(1, 2) == 0.2f);
  ui::IterationQuartiles q;
  std::vector<double> scratch;
  ui::iteration_quartiles(traces, q, scratch);
  CHECK(q.steps == 4);
  REQUIRE(q.median.size() == 3);
  // Iterate 0: {1, 2, 3, 4}; iterate 1: {0.1, 0.2, 0.3, 0.4}; iterate 2: {0.01, 0.03, 0.04, 0.2}.
  CHECK(q.q25[0] == Approx(1.75));
  CHECK(q.median[0] == Approx(2.5));
  CHECK(q.q75[0] == Approx(3.25));
  CHECK(q.q25[1] == Approx(0.175));
  CHECK(q.median[1] == Approx(0.25));
  CHECK(q.q75[1] == Approx(0.325));
  CHECK(q.q25[2] == Approx(0.025));
  CHECK(q.median[2] == Approx(0.035));
  CHECK(q.q75[2] == Approx(0.08));

  // A fifth step drops the first: iterate 0 over {2, 3, 4, 5}.
  traces.push(trace({5, 0.5, 0.05}));
  ui::iteration_quartiles(traces, q, scratch);
  CHECK(traces.size() == 4);
  CHECK(q.q25[0] == Approx(2.75));
  CHECK(q.median[0] == Approx(3.5));
  CHECK(q.q75[0] == Approx(4.25));
  // Iterate 2 now {0.2, 0.03, 0.04, 0.05}: sorted 0.03, 0.04, 0.05, 0.2.
  CHECK(q.median[2] == Approx(0.045));
  CHECK(q.q75[2] == Approx(0.0875));
  // A non-finite iterate counts as the largest.
  traces.push(trace({std::numeric_limits<double>::quiet_NaN()}));
  CHECK(std::isinf(traces.residual(3, 0)));
  // More iterates than the ring holds per step are cut at its width.
  traces.push(trace(std::vector<double>(20, 1.0)));
  CHECK(traces.iterations() == 8);
}
