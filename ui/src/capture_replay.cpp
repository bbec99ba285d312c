#include "ui/capture_replay.hpp"

#include <algorithm>
#include <cmath>

#include "ui/contact_readout.hpp"
#include "ui/joint_row_axis.hpp"
#include "ui/solve_diagnosis.hpp"

namespace ui {

namespace {

// Row kinds (sim's RowKind, constraint/rows.hpp).
constexpr int kBilateral = 0, kLimit = 2, kNormal = 3, kFriction = 4;

bool ncp_row(int kind) { return kind == kLimit || kind == kNormal || kind == kFriction; }

// Larger with non-finite values above every finite one.
bool worse(double a, double b) {
  if (!std::isfinite(a)) return std::isfinite(b);
  return std::isfinite(b) && a > b;
}

}  // namespace

const char* replay_quantity_name(ReplayQuantity q) {
  switch (q) {
    case ReplayQuantity::Residual: return "residual";
    case ReplayQuantity::Complementarity: return "complementarity violation";
    case ReplayQuantity::ActiveSet: return "active / inactive";
    case ReplayQuantity::StickSlip: return "stick / slip";
  }
  return "?";
}

bool replay_quantity_continuous(ReplayQuantity q) {
  return q == ReplayQuantity::Residual || q == ReplayQuantity::Complementarity;
}

const char* replay_state_name(ReplayState s) {
  switch (s) {
    case ReplayState::None: return "n/a";
    case ReplayState::Inactive: return "inactive";
    case ReplayState::Active: return "active";
    case ReplayState::Stick: return "stick";
    case ReplayState::Slip: return "slip";
  }
  return "?";
}

std::array<float, 3> replay_state_color(ReplayState s) {
  switch (s) {
    case ReplayState::Inactive: return {0.05f, 0.05f, 0.05f};  // near black: separated / not acting
    case ReplayState::Active: return {0.0f, 0.9f, 0.2f};       // green
    case ReplayState::Stick: return {0.0f, 0.35f, 1.0f};       // blue
    case ReplayState::Slip: return {1.0f, 0.35f, 0.0f};        // orange
    case ReplayState::None: break;
  }
  return {0.5f, 0.5f, 0.5f};  // grey: the quantity does not apply
}

void build_capture_replay(const sim::Model& model, const sim::SolveCapture& c, std::span<const sim::Contact> contacts,
                          int iteration, ReplayQuantity quantity, CaptureReplay& out) {
  out.marks.clear();
  out.normal_force.assign(static_cast<std::size_t>(std::max(c.contact_count, 0)), sim::Real(0));
  out.friction_force.assign(out.normal_force.size(), sim::Vec2::Zero());
  out.joint_force.assign(static_cast<std::size_t>(std::max(model.joint_count, 0)), sim::Vec3::Zero());
  out.quantity = quantity;
  out.lo = out.hi = 0;
  out.non_finite = 0;
  out.largest_force = 0;
  out.iteration = -1;
  if (!c.filled || c.iterates.empty()) return;
  out.iteration = std::clamp(iteration, 0, static_cast<int>(c.iterates.size()) - 1);
  const sim::CapturedIterate& it = c.iterates[static_cast<std::size_t>(out.iteration)];
  const bool continuous = replay_quantity_continuous(quantity);

  // One mark per contact and per joint that has rows, in that order.
  std::vector<int> contact_mark(out.normal_force.size(), -1), joint_mark(static_cast<std::size_t>(model.joint_count), -1);
  std::vector<int> row_mark(static_cast<std::size_t>(c.rows.count()), -1);
  for (int pass = 0; pass < 2; ++pass)
    for (int r = 0; r < c.rows.count(); ++r) {
      const int kind = c.rows.kind[static_cast<std::size_t>(r)], source = c.rows.source[static_cast<std::size_t>(r)];
      const bool contact = (kind == kNormal || kind == kFriction) && source >= 0 && source < c.contact_count;
      const int joint = contact ? -1 : row_joint(model, c, r);
      if (pass == 0 && contact) {
        int& m = contact_mark[static_cast<std::size_t>(source)];
        if (m < 0) m = static_cast<int>(out.marks.size()), out.marks.push_back(ReplayMark{.contact = source});
        row_mark[static_cast<std::size_t>(r)] = m;
      } else if (pass == 1 && joint >= 0) {
        int& m = joint_mark[static_cast<std::size_t>(joint)];
        if (m < 0) m = static_cast<int>(out.marks.size()), out.marks.push_back(ReplayMark{.joint = joint});
        row_mark[static_cast<std::size_t>(r)] = m;
      }
    }
  // Contact marks were pushed in row order: normal rows come before friction rows and both are in
  // contact order, so they are ascending already.

  std::vector<char> has_normal(out.marks.size(), 0), normal_active(out.marks.size(), 0), slipping(out.marks.size(), 0);
  std::vector<char> has_limit(out.marks.size(), 0), limit_active(out.marks.size(), 0);
  for (int r = 0; r < c.rows.count(); ++r) {
    const int m = row_mark[static_cast<std::size_t>(r)];
    if (m < 0) continue;
    const auto i = static_cast<std::size_t>(r);
    const int kind = c.rows.kind[i];
    ReplayMark& mark = out.marks[static_cast<std::size_t>(m)];
    const bool active = it.active[i] != 0;
    if (kind == kNormal) has_normal[std::size_t(m)] = 1, normal_active[std::size_t(m)] |= active;
    if (kind == kFriction) slipping[std::size_t(m)] |= active;
    if (kind == kLimit) has_limit[std::size_t(m)] = 1, limit_active[std::size_t(m)] |= active;
    if (mark.contact >= 0) {
      const auto k = static_cast<std::size_t>(mark.contact);
      if (kind == kNormal) out.normal_force[k] = it.lambda[i];
      if (kind == kFriction) out.friction_force[k][c.rows.sub[i] == 2 ? 1 : 0] = it.lambda[i];
    }
    if (mark.joint >= 0 && kind == kBilateral) {  // a positional row puts λ w on body b (rotational: w = 0)
      const sim::Vec3 w = joint_positional_axis(model, c.start, mark.joint, c.rows.sub[i]);
      if (w != sim::Vec3::Zero()) out.joint_force[static_cast<std::size_t>(mark.joint)] += it.lambda[i] * w;
    }
    if (continuous && (quantity == ReplayQuantity::Residual || ncp_row(kind))) {
      const double v = std::abs(static_cast<double>(it.residual[i]));
      if (mark.worst_row < 0 || worse(v, mark.value)) mark.value = v, mark.worst_row = r;
    } else if (!continuous && mark.worst_row < 0) {
      mark.worst_row = r;
    }
  }
  for (std::size_t m = 0; m < out.marks.size(); ++m) {
    ReplayMark& mark = out.marks[m];
    if (quantity == ReplayQuantity::ActiveSet) {
      if (mark.contact >= 0) mark.state = normal_active[m] ? ReplayState::Active : ReplayState::Inactive;
      else mark.state = !has_limit[m] || limit_active[m] ? ReplayState::Active : ReplayState::Inactive;
    } else if (quantity == ReplayQuantity::StickSlip && mark.contact >= 0 && has_normal[m]) {
      const auto k = static_cast<std::size_t>(mark.contact);
      const bool sliding = static_cast<int>(contacts.size()) == c.contact_count
                               ? friction_cone_ratio(contacts[k], static_cast<double>(out.normal_force[k]),
                                                     out.friction_force[k]) > kSlidingConeRatio
                               : slipping[m] != 0;
      mark.state = !normal_active[m] ? ReplayState::Inactive : sliding ? ReplayState::Slip : ReplayState::Stick;
    }
    if (!continuous || mark.worst_row < 0) continue;
    if (!std::isfinite(mark.value)) {
      ++out.non_finite;
    } else if (mark.value > 0) {
      out.lo = out.lo > 0 ? std::min(out.lo, mark.value) : mark.value;
      out.hi = std::max(out.hi, mark.value);
    }
  }
  for (std::size_t k = 0; k < out.normal_force.size(); ++k) {
    const double f = std::hypot(static_cast<double>(out.normal_force[k]), static_cast<double>(out.friction_force[k].norm()));
    if (std::isfinite(f)) out.largest_force = std::max(out.largest_force, f);
  }
  for (const sim::Vec3& force : out.joint_force)
    if (const double f = static_cast<double>(force.norm()); std::isfinite(f)) out.largest_force = std::max(out.largest_force, f);
}

float replay_map_position(const CaptureReplay& r, const ReplayMark& mark) {
  if (!replay_quantity_continuous(r.quantity) || mark.worst_row < 0) return std::numeric_limits<float>::quiet_NaN();
  const double v = mark.value;
  if (!std::isfinite(v)) return 1.0f;
  if (!(r.hi > r.lo) || !(r.lo > 0)) return v > 0 && v >= r.hi ? 1.0f : 0.0f;
  if (v <= r.lo) return 0.0f;
  return static_cast<float>(std::clamp(std::log(v / r.lo) / std::log(r.hi / r.lo), 0.0, 1.0));
}

}  // namespace ui
