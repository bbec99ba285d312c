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

// The particle distance row (Model::distance_*) capture row `row` is, or -1: sim lays them out as
// bilateral rows with row_sub −1 (constraint/row_assembly.cpp; joints' rows count from 0, the
// tets', membranes', hinges' and attachments' sub are below −1).
int row_distance(const sim::Model& m, const sim::SolveCapture& c, int row) {
  const auto i = static_cast<std::size_t>(row);
  const int source = c.rows.source[i];
  return c.rows.kind[i] == kBilateral && c.rows.sub[i] == -1 && source >= 0 && source < m.distance_count ? source : -1;
}

// n = (x_b − x_a)/|x_b − x_a| of distance row d at `state`: its gradient on particle b (+z where
// the two coincide, as kernels/distance_row_kernel.hpp takes it).
sim::Vec3 distance_row_direction(const sim::Model& m, const sim::State& state, int d) {
  const auto i = static_cast<std::size_t>(d);
  auto position = [&](int p) {
    const std::size_t at = static_cast<std::size_t>(m.particle_coord(p));
    return sim::Vec3(state.q[at], state.q[at + 1], state.q[at + 2]);
  };
  const sim::Vec3 delta = position(m.distance_particle_b[i]) - position(m.distance_particle_a[i]);
  const sim::Real length = delta.norm();
  return length > sim::Real(1e-12) ? sim::Vec3(delta / length) : sim::Vec3::UnitZ();
}

// Whether rows a and b are rows of one element: bilateral, the same source and the same nodes.
bool same_element(const sim::SolveCapture& c, int a, int b) {
  const auto i = static_cast<std::size_t>(a), j = static_cast<std::size_t>(b);
  if (c.rows.kind[i] != c.rows.kind[j] || c.rows.source[i] != c.rows.source[j]) return false;
  const int na = c.rows.node_first[i + 1] - c.rows.node_first[i];
  if (na != c.rows.node_first[j + 1] - c.rows.node_first[j]) return false;
  return std::equal(c.rows.node.begin() + c.rows.node_first[i], c.rows.node.begin() + c.rows.node_first[i + 1],
                    c.rows.node.begin() + c.rows.node_first[j]);
}

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
  capture_contact_states(c, contacts, iteration, out.normal_force, out.friction_force, out.contact_state);
  out.joint_force.assign(static_cast<std::size_t>(std::max(model.joint_count, 0)), sim::Vec3::Zero());
  out.distance_force.assign(static_cast<std::size_t>(std::max(model.distance_count, 0)), sim::Vec3::Zero());
  out.quantity = quantity;
  out.lo = out.hi = 0;
  out.non_finite = 0;
  out.largest_force = 0;
  out.iteration = -1;
  if (!c.filled || c.iterates.empty()) return;
  out.iteration = std::clamp(iteration, 0, static_cast<int>(c.iterates.size()) - 1);
  const sim::CapturedIterate& it = c.iterates[static_cast<std::size_t>(out.iteration)];
  const bool continuous = replay_quantity_continuous(quantity);

  // One mark per contact and per joint that has rows, then one per distance row, then one per
  // element (the other bilateral rows: tets, shell triangles, hinges, attachments), in that order.
  std::vector<int> contact_mark(out.normal_force.size(), -1), joint_mark(static_cast<std::size_t>(model.joint_count), -1);
  std::vector<int> row_mark(static_cast<std::size_t>(c.rows.count()), -1);
  for (int pass = 0; pass < 4; ++pass)
    for (int r = 0; r < c.rows.count(); ++r) {
      const int kind = c.rows.kind[static_cast<std::size_t>(r)], source = c.rows.source[static_cast<std::size_t>(r)];
      const bool contact = (kind == kNormal || kind == kFriction) && source >= 0 && source < c.contact_count;
      const int distance = contact ? -1 : row_distance(model, c, r);
      const int joint = contact || distance >= 0 ? -1 : row_joint(model, c, r);
      if (pass == 3 && kind == kBilateral && !contact && distance < 0 && joint < 0) {
        const int previous = r > 0 ? row_mark[static_cast<std::size_t>(r - 1)] : -1;
        if (previous >= 0 && out.marks[static_cast<std::size_t>(previous)].element >= 0 && same_element(c, r - 1, r)) {
          row_mark[static_cast<std::size_t>(r)] = previous;
        } else {
          row_mark[static_cast<std::size_t>(r)] = static_cast<int>(out.marks.size());
          out.marks.push_back(ReplayMark{.element = r});
        }
      } else if (pass == 2 && distance >= 0) {  // one row each
        row_mark[static_cast<std::size_t>(r)] = static_cast<int>(out.marks.size());
        out.marks.push_back(ReplayMark{.distance = distance});
      } else if (pass == 0 && contact) {
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
  // contact order, so they are ascending already; distance rows are in distance order.

  std::vector<char> normal_active(out.marks.size(), 0);
  std::vector<char> has_limit(out.marks.size(), 0), limit_active(out.marks.size(), 0);
  for (int r = 0; r < c.rows.count(); ++r) {
    const int m = row_mark[static_cast<std::size_t>(r)];
    if (m < 0) continue;
    const auto i = static_cast<std::size_t>(r);
    const int kind = c.rows.kind[i];
    ReplayMark& mark = out.marks[static_cast<std::size_t>(m)];
    const bool active = it.active[i] != 0;
    if (kind == kNormal) normal_active[std::size_t(m)] |= active;
    if (kind == kLimit) has_limit[std::size_t(m)] = 1, limit_active[std::size_t(m)] |= active;
    if (mark.joint >= 0 && kind == kBilateral) {  // a positional row puts λ w on body b (rotational: w = 0)
      const sim::Vec3 w = joint_positional_axis(model, c.start, mark.joint, c.rows.sub[i]);
      if (w != sim::Vec3::Zero()) out.joint_force[static_cast<std::size_t>(mark.joint)] += it.lambda[i] * w;
    }
    if (mark.distance >= 0)  // its one row puts λ n on particle b
      out.distance_force[static_cast<std::size_t>(mark.distance)] =
          it.lambda[i] * distance_row_direction(model, c.start, mark.distance);
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
    } else if (quantity == ReplayQuantity::StickSlip && mark.contact >= 0) {
      mark.state = out.contact_state[static_cast<std::size_t>(mark.contact)];
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
  for (const std::vector<sim::Vec3>* forces : {&out.joint_force, &out.distance_force})
    for (const sim::Vec3& force : *forces)
      if (const double f = static_cast<double>(force.norm()); std::isfinite(f)) out.largest_force = std::max(out.largest_force, f);
}

void capture_contact_states(const sim::SolveCapture& c, std::span<const sim::Contact> contacts, int iteration,
                            std::vector<sim::Real>& normal_force, std::vector<sim::Vec2>& friction_force,
                            std::vector<ReplayState>& state) {
  const auto n = static_cast<std::size_t>(std::max(c.contact_count, 0));
  normal_force.assign(n, sim::Real(0));
  friction_force.assign(n, sim::Vec2::Zero());
  state.assign(n, ReplayState::None);
  if (!c.filled || c.iterates.empty()) return;
  const sim::CapturedIterate& it =
      c.iterates[static_cast<std::size_t>(std::clamp(iteration, 0, static_cast<int>(c.iterates.size()) - 1))];
  // First the forces, the normal rows' activity (None → Inactive / Active) and the friction flag.
  for (int r = 0; r < c.rows.count(); ++r) {
    const auto i = static_cast<std::size_t>(r);
    const int kind = c.rows.kind[i], source = c.rows.source[i];
    if ((kind != kNormal && kind != kFriction) || source < 0 || source >= c.contact_count) continue;
    const auto k = static_cast<std::size_t>(source);
    const bool active = it.active[i] != 0;
    if (kind == kNormal) {
      normal_force[k] = it.lambda[i];
      if (state[k] == ReplayState::None) state[k] = active ? ReplayState::Stick : ReplayState::Inactive;
      else if (!active) state[k] = ReplayState::Inactive;
    } else {
      friction_force[k][c.rows.sub[i] == 2 ? 1 : 0] = it.lambda[i];
    }
  }
  const bool with_contacts = contacts.size() == n;
  for (std::size_t k = 0; k < n; ++k) {
    if (state[k] != ReplayState::Stick) continue;  // no normal row, or separated
    if (with_contacts &&
        friction_cone_ratio(contacts[k], static_cast<double>(normal_force[k]), friction_force[k]) > kSlidingConeRatio)
      state[k] = ReplayState::Slip;
  }
  if (with_contacts) return;
  // Without μ: the friction rows' flag.
  for (int r = 0; r < c.rows.count(); ++r) {
    const auto i = static_cast<std::size_t>(r);
    const int source = c.rows.source[i];
    if (c.rows.kind[i] != kFriction || source < 0 || source >= c.contact_count || it.active[i] == 0) continue;
    if (state[static_cast<std::size_t>(source)] == ReplayState::Stick) state[static_cast<std::size_t>(source)] = ReplayState::Slip;
  }
}

ReplayState capture_row_state(const sim::SolveCapture& c, std::span<const ReplayState> contact_states,
                              const sim::CapturedIterate& it, int row) {
  if (row < 0 || row >= c.rows.count()) return ReplayState::None;
  const auto i = static_cast<std::size_t>(row);
  const int kind = c.rows.kind[i], source = c.rows.source[i];
  if (kind == kNormal || kind == kFriction)
    return source >= 0 && source < static_cast<int>(contact_states.size()) ? contact_states[static_cast<std::size_t>(source)]
                                                                           : ReplayState::None;
  if (kind == kLimit) return i < it.active.size() && it.active[i] != 0 ? ReplayState::Active : ReplayState::Inactive;
  return ReplayState::None;
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
