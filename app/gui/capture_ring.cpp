#include "gui/capture_ring.hpp"

#include <algorithm>
#include <numeric>

namespace coulomb::gui {

// The iterates' buffers come from SolveCapture::spare_iterates: a plain copy assignment would
// replace them with `from`'s (and drop `to`'s spares).
void copy_solve(const sim::SolveCapture& from, sim::SolveCapture& to) {
  to.clear_solve();
  to.system_iteration = from.system_iteration;
  to.start = from.start;
  to.control = from.control;
  to.options = from.options;
  to.h = from.h;
  to.substep = from.substep;
  to.body_count = from.body_count;
  to.particle_count = from.particle_count;
  to.contact_count = from.contact_count;
  to.rows = from.rows;
  for (const sim::CapturedIterate& k : from.iterates) {
    if (to.spare_iterates.empty()) {
      to.iterates.push_back(k);
    } else {
      to.iterates.push_back(std::move(to.spare_iterates.back()));
      to.spare_iterates.pop_back();
      to.iterates.back() = k;
    }
  }
  to.linear_residuals = from.linear_residuals;
  to.returned_to_best = from.returned_to_best;
  to.filled = from.filled;
  to.system = from.system;
}

double final_residual(const sim::SolverTrace& t) {
  return std::max({static_cast<double>(t.final_normal_max), static_cast<double>(t.final_friction_max),
                   static_cast<double>(t.final_bilateral_max)});
}

void CaptureRing::configure(const CaptureTriggers& triggers) {
  const int size = std::clamp(triggers.ring_size, 1, CaptureTriggers::kMaxSlots);
  const bool resized = slots_.empty() || size != triggers_.ring_size;
  triggers_ = triggers;
  triggers_.ring_size = size;
  if (resized) resize_slots();
}

void CaptureRing::resize_slots() {
  const int size = triggers_.ring_size;
  const int kept = std::min(count_, size);
  std::vector<Slot> fresh(static_cast<std::size_t>(size + 1));
  // The newest `kept` solves, oldest first.
  for (int i = 0; i < kept; ++i) fresh[static_cast<std::size_t>(i)] = std::move(slot(count_ - kept + i));
  slots_ = std::move(fresh);
  order_.resize(static_cast<std::size_t>(size + 1));
  std::iota(order_.begin(), order_.end(), 0);
  count_ = kept;
  capturing_ = false;
}

sim::SolveCapture* CaptureRing::begin_step() {
  capturing_ = false;
  if (!(triggers_.per_step() || next_)) return nullptr;
  if (slots_.empty()) configure(triggers_);
  capturing_ = true;
  sim::SolveCapture& c = slot(count_).capture;  // the scratch slot: kept or written over by the next step
  make_room(c);
  return &c;
}

void CaptureRing::make_room(sim::SolveCapture& c) {
  // reserve() allocates only below the mark: once the slot has the room, this is a few compares.
  c.linear_residuals.reserve(most_linear_);
  c.rows.kind.reserve(most_rows_);
  c.rows.source.reserve(most_rows_);
  c.rows.sub.reserve(most_rows_);
  c.rows.r.reserve(most_rows_);
  c.rows.node_first.reserve(most_rows_ + 1);
  c.rows.node.reserve(most_nodes_);
  while (c.iterates.size() + c.spare_iterates.size() < most_iterates_) c.spare_iterates.emplace_back();
  const auto room = [&](sim::CapturedIterate& k) {
    k.u.reserve(most_dofs_);
    k.lambda.reserve(most_rows_);
    k.residual.reserve(most_rows_);
    k.w.reserve(most_rows_);
    k.active.reserve(most_rows_);
  };
  for (sim::CapturedIterate& k : c.iterates) room(k);
  for (sim::CapturedIterate& k : c.spare_iterates) room(k);
}

void CaptureRing::note_sizes(const sim::SolveCapture& c) {
  const std::size_t before = most_rows_ + most_nodes_ + most_dofs_ + most_iterates_ + most_linear_;
  most_rows_ = std::max(most_rows_, static_cast<std::size_t>(c.rows.count()));
  most_nodes_ = std::max(most_nodes_, c.rows.node.size());
  most_dofs_ = std::max(most_dofs_, c.start.u.size());
  most_iterates_ = std::max(most_iterates_, c.iterates.size());
  most_linear_ = std::max(most_linear_, c.linear_residuals.size());
  // A solve larger than every one before: every slot gets the room now, in this step, rather than
  // one allocation in each later step whose slot is written.
  if (most_rows_ + most_nodes_ + most_dofs_ + most_iterates_ + most_linear_ != before)
    for (Slot& s : slots_) make_room(s.capture);
}

bool CaptureRing::end_step(const sim::StepReport& report, const sim::SolverTrace& trace,
                           std::span<const sim::Contact> contact_list, CaptureTrigger* fired) {
  const int contacts = static_cast<int>(contact_list.size());
  const bool captured = capturing_;
  capturing_ = false;
  if (!report.ok()) return false;  // a failure is kept by keep() (the runner re-runs it)
  const int previous = last_contacts_;
  last_contacts_ = contacts;
  if (!captured || !slot(count_).capture.filled) return false;  // the PGS solver records nothing
  note_sizes(slot(count_).capture);
  const double residual = final_residual(trace);
  CaptureTrigger trigger;
  if (next_) trigger = CaptureTrigger::Key;
  else if (triggers_.residual && !(residual <= triggers_.residual_threshold)) trigger = CaptureTrigger::Residual;
  else if (triggers_.contact_change && previous >= 0 && contacts != previous) trigger = CaptureTrigger::ContactChange;
  else if (triggers_.continuous) trigger = CaptureTrigger::Continuous;
  else return false;
  next_ = false;
  slot(count_).report = report;
  slot(count_).contacts.assign(contact_list.begin(), contact_list.end());
  commit(trigger, residual, contacts);
  if (fired) *fired = trigger;
  return true;
}

void CaptureRing::keep(const sim::SolveCapture& capture, const sim::StepReport& report, CaptureTrigger trigger,
                       std::span<const sim::Contact> contacts) {
  if (slots_.empty()) configure(triggers_);
  capturing_ = false;
  Slot& s = slot(count_);
  note_sizes(capture);
  make_room(s.capture);
  copy_solve(capture, s.capture);
  s.contacts.assign(contacts.begin(), contacts.end());
  s.report = report;
  double residual = 0;
  if (!capture.iterates.empty()) {
    const sim::IterationTrace& t = capture.iterates.back().trace;
    residual = std::max({static_cast<double>(t.normal_max), static_cast<double>(t.friction_max),
                         static_cast<double>(t.bilateral_max)});
  }
  commit(trigger, residual, capture.contact_count);
}

void CaptureRing::commit(CaptureTrigger trigger, double residual, int contacts) {
  Slot& s = slot(count_);
  s.summary.id = ++next_id_;
  s.summary.time = static_cast<double>(s.capture.start.time);
  s.summary.trigger = trigger;
  s.summary.flags = s.report.flags;
  s.summary.iterations = static_cast<int>(s.capture.iterates.size());
  s.summary.contacts = contacts;
  s.summary.residual = residual;
  s.summary.bytes = s.capture.bytes();
  if (count_ < triggers_.ring_size) {
    ++count_;  // the next free slot becomes the scratch
  } else {
    // Full: the oldest solve's slot becomes the scratch (its buffers reused by the next capture).
    std::rotate(order_.begin(), order_.begin() + 1, order_.end());
  }
}

void CaptureRing::clear() {
  count_ = 0;
  capturing_ = false;
  next_ = false;
  last_contacts_ = -1;
  most_rows_ = most_nodes_ = most_dofs_ = most_iterates_ = most_linear_ = 0;
  for (Slot& s : slots_) s.capture.clear_solve();
}

const CaptureRing::Slot* CaptureRing::find(std::uint64_t id) const {
  for (int i = 0; i < count_; ++i) {
    const Slot& s = slots_[static_cast<std::size_t>(order_[static_cast<std::size_t>(i)])];
    if (s.summary.id == id) return &s;
  }
  return nullptr;
}

void CaptureRing::summaries(std::vector<CaptureSummary>& out) const {
  out.clear();
  for (int i = 0; i < count_; ++i) out.push_back(slots_[static_cast<std::size_t>(order_[static_cast<std::size_t>(i)])].summary);
}

std::size_t CaptureRing::bytes() const {
  std::size_t b = sizeof(CaptureRing) + order_.capacity() * sizeof(int);
  for (const Slot& s : slots_)
    b += s.capture.bytes() - sizeof(sim::SolveCapture) + sizeof(Slot) + s.contacts.capacity() * sizeof(sim::Contact);
  return b;
}

}  // namespace coulomb::gui
