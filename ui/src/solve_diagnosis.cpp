#include "ui/solve_diagnosis.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "ui/plot_axis.hpp"

namespace ui {

namespace {

using sim::CapturedIterate;
using sim::Real;

bool row_finite(const CapturedIterate& it, int i) {
  return std::isfinite(it.lambda[static_cast<std::size_t>(i)]) && std::isfinite(it.residual[static_cast<std::size_t>(i)]);
}

std::string number(double v) {
  return readout(v);
}

// What the row constrains: "joint 'hinge'", "contact 4", "distance 2".
std::string row_source(const sim::Model& m, const sim::SolveCapture& c, int row) {
  const auto i = static_cast<std::size_t>(row);
  const int kind = c.rows.kind[i], source = c.rows.source[i];
  if (const int joint = row_joint(m, c, row); joint >= 0 && joint < static_cast<int>(m.joint_name.size()))
    return "joint '" + m.joint_name[static_cast<std::size_t>(joint)] + "'";
  if (kind == 3 || kind == 4) return "contact " + std::to_string(source);
  return (kind == 0 ? "element " : "source ") + std::to_string(source);
}

std::string nodes_of(const sim::Model& m, const sim::SolveCapture& c, int row) {
  const auto i = static_cast<std::size_t>(row);
  std::string out;
  for (int e = c.rows.node_first[i]; e < c.rows.node_first[i + 1]; ++e) {
    if (!out.empty()) out += e + 1 == c.rows.node_first[i + 1] ? " and " : ", ";
    out += node_name(m, c.rows.node[static_cast<std::size_t>(e)]);
  }
  return out.empty() ? "the world" : out;
}

}  // namespace

int row_joint(const sim::Model& m, const sim::SolveCapture& c, int row) {
  const auto i = static_cast<std::size_t>(row);
  const int kind = c.rows.kind[i], source = c.rows.source[i];
  bool bodies_only = true;
  for (int e = c.rows.node_first[i]; e < c.rows.node_first[i + 1]; ++e)
    bodies_only &= c.rows.node[static_cast<std::size_t>(e)] < m.body_count;
  const bool joint = kind == 1 || kind == 2 || (kind == 0 && bodies_only);  // drive, limit; bilateral on bodies
  return joint && source >= 0 && source < m.joint_count ? source : -1;
}

std::string node_name(const sim::Model& m, int node) {
  if (node >= 0 && node < m.body_count && node < static_cast<int>(m.body_name.size()))
    return "body '" + m.body_name[static_cast<std::size_t>(node)] + "'";
  return "particle " + std::to_string(node - m.body_count);
}

SolveDiagnosis diagnose_failed_step(const sim::Model& model, const sim::SolveCapture& capture,
                                    const sim::StepReport& report) {
  SolveDiagnosis d;
  d.non_finite = (report.flags & sim::kStepNonFinite) != 0;
  const int n = capture.filled ? capture.rows.count() : 0;
  if (n == 0 || capture.iterates.empty()) {
    // Refused before collision and the solve (non-finite input, wrong sizes): the report says
    // what and where; no rows to show.
    d.explanation = report.message.empty() ? std::string("the step failed before its solve") : report.message;
    return d;
  }
  const std::vector<CapturedIterate>& its = capture.iterates;
  const CapturedIterate& last = its.back();
  // The report's rows (the solver lists the first 16 in row order) and every row non-finite or
  // past the divergence limit at the last iterate, so the worst is among them.
  for (int r : report.offending_rows)
    if (r >= 0 && r < n && std::find(d.rows.begin(), d.rows.end(), r) == d.rows.end()) d.rows.push_back(r);
  for (int i = 0; i < n; ++i)
    if ((!row_finite(last, i) || last.residual[static_cast<std::size_t>(i)] > capture.options.divergence_limit) &&
        std::find(d.rows.begin(), d.rows.end(), i) == d.rows.end())
      d.rows.push_back(i);

  // The first iterate with a non-finite row value.
  d.iteration = static_cast<int>(its.size()) - 1;
  int first_bad_row = -1;
  for (int k = 0; k < static_cast<int>(its.size()) && first_bad_row < 0; ++k)
    for (int i = 0; i < n; ++i)
      if (!row_finite(its[static_cast<std::size_t>(k)], i)) {
        d.iteration = k;
        first_bad_row = i;
        d.non_finite = true;
        break;
      }
  if (first_bad_row >= 0 && std::find(d.rows.begin(), d.rows.end(), first_bad_row) == d.rows.end())
    d.rows.insert(d.rows.begin(), first_bad_row);

  // Worst first: non-finite at the iteration, then by residual there.
  const CapturedIterate& at = its[static_cast<std::size_t>(d.iteration)];
  const auto badness = [&](int i) {
    const Real e = at.residual[static_cast<std::size_t>(i)];
    return row_finite(at, i) ? static_cast<double>(e) : HUGE_VAL;
  };
  std::stable_sort(d.rows.begin(), d.rows.end(), [&](int a, int b) { return badness(a) > badness(b); });
  for (int r : d.rows)
    for (int e = capture.rows.node_first[static_cast<std::size_t>(r)]; e < capture.rows.node_first[static_cast<std::size_t>(r) + 1]; ++e) {
      const int node = capture.rows.node[static_cast<std::size_t>(e)];
      if (node < model.body_count) d.bodies.push_back(node);
    }
  std::sort(d.bodies.begin(), d.bodies.end());
  d.bodies.erase(std::unique(d.bodies.begin(), d.bodies.end()), d.bodies.end());

  if (d.rows.empty()) {
    // The direction itself (the linear solve) broke down, or nothing row-wise is out of range.
    d.explanation = (d.non_finite ? "the Newton direction went non-finite at iteration " + std::to_string(d.iteration)
                                  : std::string("no row out of range")) +
                    (report.message.empty() ? std::string() : ": " + report.message);
    return d;
  }
  d.worst_row = d.rows.front();
  const int w = d.worst_row;
  const auto wi = static_cast<std::size_t>(w);
  const std::string kind = sim::row_kind_name(capture.rows.kind[wi]);
  const std::string which = kind + " row " + std::to_string(w) + " (" + row_source(model, capture, w) + ", " +
                            nodes_of(model, capture, w) + ")";
  std::string what;
  if (d.non_finite) {
    const bool lambda_bad = !std::isfinite(at.lambda[wi]);
    const Real v = lambda_bad ? at.lambda[wi] : at.residual[wi];
    what = std::string(lambda_bad ? "lambda" : "residual") + " became " + (std::isnan(v) ? "nan" : "inf") +
           " at Newton iteration " + std::to_string(d.iteration);
  } else if (report.flags & sim::kStepResidualExploded) {
    what = "residual grew from " + number(its.front().residual[wi]) + " to " + number(last.residual[wi]) + " over " +
           std::to_string(its.size() - 1) + " Newton iterations (divergence limit " +
           number(capture.options.divergence_limit) + ")";
  } else if (report.flags & (sim::kStepJointViolated | sim::kStepOutOfBounds)) {
    what = report.message.empty() ? std::string("blew up after the solve") : report.message;
  } else {
    what = report.message.empty() ? std::string("failed") : report.message;
  }
  d.explanation = which + ": " + what;
  if (d.rows.size() > 1) d.explanation += "; " + std::to_string(d.rows.size()) + " rows flagged";
  return d;
}

SolveDiagnosis describe_captured_step(const sim::Model& model, const sim::SolveCapture& capture, const std::string& why) {
  SolveDiagnosis d;
  const int n = capture.filled ? capture.rows.count() : 0;
  if (n == 0 || capture.iterates.empty()) {
    d.explanation = why + (capture.filled ? "; the solve had no rows" : "; no solve was captured");
    return d;
  }
  d.iteration = static_cast<int>(capture.iterates.size()) - 1;
  const CapturedIterate& last = capture.iterates.back();
  int worst = 0;
  const auto badness = [&](int i) {
    return row_finite(last, i) ? static_cast<double>(last.residual[static_cast<std::size_t>(i)]) : HUGE_VAL;
  };
  for (int i = 1; i < n; ++i)
    if (badness(i) > badness(worst)) worst = i;
  d.rows.push_back(worst);
  d.worst_row = worst;
  d.non_finite = !row_finite(last, worst);
  const auto wi = static_cast<std::size_t>(worst);
  for (int e = capture.rows.node_first[wi]; e < capture.rows.node_first[wi + 1]; ++e)
    if (capture.rows.node[static_cast<std::size_t>(e)] < model.body_count) d.bodies.push_back(capture.rows.node[static_cast<std::size_t>(e)]);
  std::sort(d.bodies.begin(), d.bodies.end());
  d.bodies.erase(std::unique(d.bodies.begin(), d.bodies.end()), d.bodies.end());
  d.explanation = why + "; worst row: " + sim::row_kind_name(capture.rows.kind[wi]) + " row " + std::to_string(worst) +
                  " (" + row_source(model, capture, worst) + ", " + nodes_of(model, capture, worst) + "), residual " +
                  number(last.residual[wi]) + " after " + std::to_string(capture.iterates.size() - 1) + " Newton iterations";
  return d;
}

}  // namespace ui
