#include "solver/joint_error_check.hpp"

#include <algorithm>
#include <cstdio>

namespace sim {

JointViolation check_joint_error(const Model& m, const SolverOptions& o, const RowSet& rows, SolverTrace& trace,
                                 StepReport& report) {
  JointViolation worst;
  for (int i = 0; i < rows.first_drive; ++i) {
    const int sub = rows.row_sub[i];
    if (sub < 0) continue;  // particle distance rows: cloth and ropes stretch by design
    const int j = rows.row_source[i];
    const int positional = m.joint_type[j] == JointType::Prismatic ? 2 : 3;
    const Real e = rows.row_error[i];
    Real scale = 0, ratio = 0;
    if (sub < positional) {
      const int a = m.joint_body_a[j], b = m.joint_body_b[j];
      scale = std::max(a >= 0 ? m.body_bound_radius[a] : Real(0), m.body_bound_radius[b]);
      if (!(scale > 0)) continue;  // no shapes: no length scale to compare with
      trace.final_joint_position_error_max = std::max(trace.final_joint_position_error_max, e / scale);
      ratio = e / (scale * o.joint_position_error_limit);
    } else {
      trace.final_joint_angle_error_max = std::max(trace.final_joint_angle_error_max, e);
      ratio = e / o.joint_angle_error_limit;
    }
    if (!(ratio > 1)) continue;
    if (report.offending_rows.size() < 16) report.offending_rows.push_back(i);
    if (ratio > worst.ratio) worst = {i, ratio, e, scale};
  }
  return worst;
}

std::string describe_joint_violation(const Model& m, const SolverOptions& o, const RowSet& rows,
                                     const JointViolation& v) {
  const int j = rows.row_source[v.row];
  char detail[160];
  if (v.scale > 0)
    std::snprintf(detail, sizeof detail, "positional row %.3g m = %.3g x bounding radius > joint_position_error_limit %.3g",
                  double(v.error), double(v.error / v.scale), double(o.joint_position_error_limit));
  else
    std::snprintf(detail, sizeof detail, "rotational row %.3g rad > joint_angle_error_limit %.3g", double(v.error),
                  double(o.joint_angle_error_limit));
  return "joint '" + m.joint_name[j] + "' (" + m.body_name[m.joint_body_b[j]] + ") came apart (blow-up): " + detail;
}

}  // namespace sim
