// The plots' axis ticks (ui/plot_axis.hpp) against hand-worked cases: nice linear steps (1, 2, 5
// x 10^k, the fewest ticks within the limit, the range widened to whole steps), decades on log
// axes (every k-th when there are too many) and labels in plain numbers, never a logarithm.
#include <catch2/catch.hpp>

#include <cmath>
#include <string>
#include <vector>

#include "ui/plot_axis.hpp"

namespace {

std::vector<std::string> major_labels(const ui::Axis& a) {
  std::vector<std::string> out;
  for (const ui::AxisTick& t : a.ticks)
    if (t.major) out.push_back(t.label);
  return out;
}

}  // namespace

TEST_CASE("linear ticks: steps of 1, 2 or 5 times a power of ten within the tick limit", "[ui][plot]") {
  // [0, 1] with 6 ticks: raw step 0.2 is itself nice.
  ui::Axis a = ui::linear_axis(0, 1, 6);
  CHECK(a.step == Approx(0.2));
  CHECK(major_labels(a) == std::vector<std::string>{"0", "0.2", "0.4", "0.6", "0.8", "1.0"});
  // [0, 7.3] with 5: step 1 needs 9 ticks (0..8), step 2 needs 5 (0, 2, .., 8): widened to 8.
  a = ui::linear_axis(0, 7.3, 5);
  CHECK(a.step == Approx(2));
  CHECK(a.lo == 0);
  CHECK(a.hi == Approx(8));
  CHECK(major_labels(a) == std::vector<std::string>{"0", "2", "4", "6", "8"});
  // [-0.013, 0.047] with 7: 0.01 needs 8 ticks (-0.02 .. 0.05), 0.02 needs 5 (-0.02 .. 0.06).
  a = ui::linear_axis(-0.013, 0.047, 7);
  CHECK(a.step == Approx(0.02));
  CHECK(a.lo == Approx(-0.02));
  CHECK(a.hi == Approx(0.06));
  CHECK(major_labels(a) == std::vector<std::string>{"-0.02", "0", "0.02", "0.04", "0.06"});
  // Iterations 0..37 with 6 ticks: 5 needs 9, 10 needs 5 (0 .. 40).
  a = ui::linear_axis(0, 37, 6);
  CHECK(a.step == Approx(10));
  CHECK(major_labels(a) == std::vector<std::string>{"0", "10", "20", "30", "40"});
  // Large and tiny steps get a power of ten, without '+' or leading zeros.
  a = ui::linear_axis(0, 95000, 6);
  CHECK(a.step == Approx(20000));
  CHECK(major_labels(a) == std::vector<std::string>{"0", "2e4", "4e4", "6e4", "8e4", "1e5"});
  CHECK(ui::linear_tick_label(1.5e-5, 5e-6) == "1.5e-5");
  CHECK(ui::linear_tick_label(120000, 20000) == "1.2e5");
  // One value: a unit around it (0.5 x its decade each side).
  a = ui::linear_axis(3, 3, 5);
  CHECK(a.lo <= 2.5);
  CHECK(a.hi >= 3.5);
  CHECK(a.ticks.size() <= 5);
}

TEST_CASE("log ticks: decades labelled in plain numbers, thinned when there are too many", "[ui][plot]") {
  // 1e-3 .. 1e2 with up to 8: all six decades, plain decimals up to 1000.
  ui::Axis a = ui::log_axis(1e-3, 1e2, 8);
  CHECK(a.log);
  CHECK(a.step == 1);
  CHECK(major_labels(a) == std::vector<std::string>{"0.001", "0.01", "0.1", "1", "10", "100"});
  // Minor ticks at 2..9 x 10^e between the decades, unlabelled: 5 gaps x 8.
  int minor = 0;
  for (const ui::AxisTick& t : a.ticks) minor += t.major ? 0 : (t.label.empty() ? 1 : 100);
  CHECK(minor == 40);
  // 3e-7 .. 0.02 with up to 6: decades -7 .. -1 are 7 ticks; every second one, from 1e-8 to 1.
  a = ui::log_axis(3e-7, 0.02, 6);
  CHECK(a.step == 2);
  CHECK(a.lo == Approx(1e-8));
  CHECK(a.hi == Approx(1));
  CHECK(major_labels(a) == std::vector<std::string>{"1e-8", "1e-6", "1e-4", "0.01", "1"});
  // The residual that used to read "1e-11.4": within its decades 1e-12 .. 1e-11.
  a = ui::log_axis(4e-12, 4e-12, 5);
  CHECK(major_labels(a) == std::vector<std::string>{"1e-12", "1e-11"});
  CHECK(a.fraction(std::pow(10.0, -11.4)) == Approx(0.6));
  CHECK(a.value_at(0.6) == Approx(std::pow(10.0, -11.4)));
  // Zeros and negatives (a converged residual) sit at the floor instead of breaking the axis.
  a = ui::log_axis(0, 1e-3, 5);
  CHECK(a.lo > 0);
  CHECK(ui::decade_label(4) == "1e4");
  CHECK(ui::decade_label(3) == "1000");
  CHECK(ui::decade_label(-4) == "1e-4");
}

TEST_CASE("hover read-outs: three significant digits, plain where it reads better", "[ui][plot]") {
  CHECK(ui::readout(0.0123456) == "0.0123");
  CHECK(ui::readout(4.5e-7) == "4.5e-7");
  CHECK(ui::readout(12.0) == "12");
  CHECK(ui::readout(2.5e6) == "2.5e6");
  CHECK(ui::readout(0) == "0");
  CHECK(ui::readout(std::nan("")) == "nan");
  CHECK(ui::readout(-HUGE_VAL) == "-inf");
}
