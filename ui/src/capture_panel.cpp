#include "ui/capture_panel.hpp"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numeric>

#include "ui/contact_readout.hpp"
#include "ui/plot.hpp"
#include "ui/plot_axis.hpp"

namespace ui {

namespace {

// Magnitude with non-finite values above every finite one.
double magnitude(sim::Real v) { return std::isfinite(v) ? std::abs(static_cast<double>(v)) : HUGE_VAL; }

int first_node(const sim::SolveCapture& c, int row) {
  const auto i = static_cast<std::size_t>(row);
  return c.rows.node_first[i] < c.rows.node_first[i + 1] ? c.rows.node[static_cast<std::size_t>(c.rows.node_first[i])] : -1;
}

bool offending(const SolveDiagnosis* d, int row) {
  return d && std::find(d->rows.begin(), d->rows.end(), row) != d->rows.end();
}


// The triggers and the kept solves (issue 15 item 1).
void ring_section(const CaptureRingStatus& ring, std::uint64_t opened_id, bool open_by_default, CapturePanelEdits& edits) {
  if (!ImGui::CollapsingHeader("Triggers and kept solves", open_by_default ? ImGuiTreeNodeFlags_DefaultOpen : 0)) return;
  CaptureTriggers t = ring.triggers;
  ImGui::TextDisabled("Keep a step's solve when (failures always):");
  ImGui::Checkbox("residual above", &t.residual);
  ImGui::SameLine();
  ImGui::SetNextItemWidth(90);
  ImGui::InputDouble("##threshold", &t.residual_threshold, 0.0, 0.0, "%.3g");
  if (!(t.residual_threshold > 0)) t.residual_threshold = ring.triggers.residual_threshold;
  ImGui::Checkbox("the contact count changes", &t.contact_change);
  ImGui::Checkbox("every step (continuous)", &t.continuous);
  ImGui::SetNextItemWidth(120);
  ImGui::SliderInt("ring size", &t.ring_size, 1, CaptureTriggers::kMaxSlots);
  if (!(t == ring.triggers)) {
    edits.triggers_changed = true;
    edits.triggers = t;
  }
  if (ring.next_armed) ImGui::BeginDisabled();
  if (ImGui::Button(ring.next_armed ? "The next step will be kept" : "Keep the next step (F9)")) edits.capture_next = true;
  if (ring.next_armed) ImGui::EndDisabled();
  ImGui::TextDisabled("%d of %d solves kept, %s MB", static_cast<int>(ring.kept.size()), ring.triggers.ring_size,
                      readout(static_cast<double>(ring.bytes) / 1048576.0).c_str());
  if (ring.kept.empty()) return;
  const ImGuiTableFlags flags = ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV | ImGuiTableFlags_ScrollY |
                                ImGuiTableFlags_SizingFixedFit;
  const float row = ImGui::GetTextLineHeightWithSpacing();
  const float height = row * (1.5f + static_cast<float>(std::min<std::size_t>(ring.kept.size(), 5)));
  if (!ImGui::BeginTable("kept", 5, flags, ImVec2(0, height))) return;
  ImGui::TableSetupScrollFreeze(0, 1);
  ImGui::TableSetupColumn("#");
  ImGui::TableSetupColumn("t [s]");
  ImGui::TableSetupColumn("trigger");
  ImGui::TableSetupColumn("its");
  ImGui::TableSetupColumn("residual", ImGuiTableColumnFlags_WidthStretch);
  ImGui::TableHeadersRow();
  for (auto k = ring.kept.rbegin(); k != ring.kept.rend(); ++k) {  // newest first
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    char id[32];
    std::snprintf(id, sizeof id, "%llu##kept", static_cast<unsigned long long>(k->id));
    if (ImGui::Selectable(id, k->id == opened_id, ImGuiSelectableFlags_SpanAllColumns)) edits.open = k->id;
    ImGui::TableNextColumn();
    ImGui::Text("%.4g", k->time);
    ImGui::TableNextColumn();
    if (k->trigger == CaptureTrigger::Failure) ImGui::TextColored(ImVec4(1.0f, 0.45f, 0.35f, 1.0f), "failure");
    else ImGui::TextUnformatted(trigger_name(k->trigger));
    ImGui::TableNextColumn();
    ImGui::Text("%d", k->iterations - 1);
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(readout(k->residual).c_str());
  }
  ImGui::EndTable();
}

int key_index(const std::vector<std::string>& keys, const char* name) {
  const auto it = std::find(keys.begin(), keys.end(), name);
  return it == keys.end() ? 0 : static_cast<int>(it - keys.begin());
}

bool key_combo(const char* id, const std::vector<std::string>& keys, int& index) {
  bool changed = false;
  if (ImGui::BeginCombo(id, keys[static_cast<std::size_t>(index)].c_str())) {
    for (int i = 0; i < static_cast<int>(keys.size()); ++i)
      if (ImGui::Selectable(keys[static_cast<std::size_t>(i)].c_str(), i == index)) {
        index = i;
        changed = true;
      }
    ImGui::EndCombo();
  }
  return changed;
}

// A/B: the capture solved again with one option changed, both convergence curves on one plot;
// the sweep: one solve per value of a numeric option, the error against the work (issue 15 item 4).
void comparison_section(CapturePanelView& v, CapturePanelEdits& edits) {
  if (v.ab_open) ImGui::SetNextItemOpen(true, ImGuiCond_Always);
  if (!ImGui::CollapsingHeader("A/B and sweep")) return;
  static const std::vector<std::string> keys = sim::solver_option_keys();
  if (keys.empty()) return;
  if (v.ab_key < 0 || v.ab_key >= static_cast<int>(keys.size())) v.ab_key = key_index(keys, "preconditioner");
  if (v.sweep_key < 0 || v.sweep_key >= static_cast<int>(keys.size())) v.sweep_key = key_index(keys, "newton_iterations");
  ImGui::TextDisabled("B: this step solved again with");
  ImGui::SetNextItemWidth(150);
  key_combo("##ab_key", keys, v.ab_key);
  ImGui::SameLine();
  ImGui::TextUnformatted("=");
  ImGui::SameLine();
  ImGui::SetNextItemWidth(90);
  ImGui::InputText("##ab_value", v.ab_value, sizeof v.ab_value);
  ImGui::SameLine();
  if (ImGui::Button("Solve B")) {
    edits.compare = true;
    edits.compare_key = keys[static_cast<std::size_t>(v.ab_key)];
    edits.compare_value = v.ab_value;
  }
  const CaptureComparison* cmp = v.comparison;
  if (cmp && !cmp->key.empty()) {
    if (!cmp->error.empty()) {
      ImGui::TextColored(ImVec4(1.0f, 0.5f, 0.4f, 1.0f), "%s", cmp->error.c_str());
    } else {
      const std::size_t n = std::max(cmp->a.size(), cmp->b.size());
      std::vector<PlotSeries> series(2);
      series[0].name = "A: as captured";
      series[0].color = IM_COL32(120, 190, 255, 255);
      series[1].name = "B: " + cmp->key + " = " + cmp->value;
      series[1].color = IM_COL32(255, 170, 80, 255);
      for (std::size_t k = 0; k < n; ++k) {
        series[0].y.push_back(k < cmp->a.size() ? static_cast<double>(sim::iterate_residual(cmp->a[k])) : NAN);
        series[1].y.push_back(k < cmp->b.size() ? static_cast<double>(sim::iterate_residual(cmp->b[k])) : NAN);
      }
      PlotSpec spec;
      spec.id = "ab_plot";
      spec.x_label = "Newton iteration";
      spec.y_label = "max residual";
      spec.integer_x = true;
      plot(spec, series);
      ImGui::Text("final: A %s, B %s%s", readout(series[0].y[cmp->a.size() - 1]).c_str(),
                  cmp->b.empty() ? "-" : readout(series[1].y[cmp->b.size() - 1]).c_str(),
                  cmp->b_ok ? "" : " (B's step FAILED)");
    }
  }
  ImGui::Separator();
  ImGui::TextDisabled("Sweep: error against work");
  ImGui::SetNextItemWidth(150);
  key_combo("##sweep_key", keys, v.sweep_key);
  ImGui::SetNextItemWidth(150);
  ImGui::InputFloat("from", &v.sweep_from, 0, 0, "%g");
  ImGui::SetNextItemWidth(150);
  ImGui::InputFloat("to", &v.sweep_to, 0, 0, "%g");
  ImGui::SetNextItemWidth(150);
  ImGui::SliderInt("solves", &v.sweep_count, 2, 24);
  const bool sweeping = cmp && cmp->sweep_running;
  if (sweeping) {
    // Solved on a worker thread: the run goes on; its points arrive one by one.
    char progress[48];
    std::snprintf(progress, sizeof progress, "%d of %d solves", static_cast<int>(cmp->sweep.size()), cmp->sweep_total);
    ImGui::ProgressBar(cmp->sweep_total > 0 ? static_cast<float>(cmp->sweep.size()) / static_cast<float>(cmp->sweep_total) : 0.0f,
                       ImVec2(150, 0), progress);
    ImGui::SameLine();
    if (ImGui::Button("Cancel")) edits.sweep_cancel = true;
  } else if (ImGui::Button("Run the sweep")) {
    edits.sweep = true;
    edits.sweep_key = keys[static_cast<std::size_t>(v.sweep_key)];
    edits.sweep_from = v.sweep_from;
    edits.sweep_to = v.sweep_to;
    edits.sweep_count = v.sweep_count;
  }
  if (cmp && !cmp->sweep_key.empty()) {
    if (!cmp->sweep_error.empty()) ImGui::TextColored(ImVec4(1.0f, 0.5f, 0.4f, 1.0f), "%s", cmp->sweep_error.c_str());
    if (!cmp->sweep.empty()) {
      // Error against work (linear iterations over the solve), in order of work.
      std::vector<sim::SweepPoint> pts = cmp->sweep;
      std::stable_sort(pts.begin(), pts.end(), [](const sim::SweepPoint& a, const sim::SweepPoint& b) {
        return a.linear_iterations < b.linear_iterations;
      });
      std::vector<double> x;
      std::vector<PlotSeries> series(1);
      series[0].name = "final residual";
      series[0].color = IM_COL32(160, 230, 140, 255);
      for (const sim::SweepPoint& p : pts) {
        x.push_back(p.linear_iterations);
        series[0].y.push_back(static_cast<double>(p.residual));
      }
      PlotSpec spec;
      spec.id = "sweep_plot";
      spec.x_label = "linear iterations (work)";
      spec.y_label = "max residual";
      spec.x = &x;
      plot(spec, series);
      for (const sim::SweepPoint& p : cmp->sweep)
        ImGui::TextDisabled("%s = %g: %d Newton, %d linear its, residual %s%s", cmp->sweep_key.c_str(), p.value,
                            p.newton_iterations, p.linear_iterations, readout(p.residual).c_str(), p.ok ? "" : " FAILED");
    }
  }
}

// On-screen (sRGB) colour of a linear one, for ImGui.
ImU32 screen_color(const std::array<float, 3>& linear) {
  auto encode = [](float c) {
    c = std::clamp(c, 0.0f, 1.0f);
    return c <= 0.0031308f ? 12.92f * c : 1.055f * std::pow(c, 1.0f / 2.4f) - 0.055f;
  };
  return ImGui::GetColorU32(ImVec4(encode(linear[0]), encode(linear[1]), encode(linear[2]), 1.0f));
}

// The viewport replay: the quantity, the arrows, the legend (colour map or states) and the scale.
void replay_section(CapturePanelView& v) {
  if (!ImGui::CollapsingHeader("Viewport replay", ImGuiTreeNodeFlags_DefaultOpen)) return;
  ImGui::Checkbox("show in the viewport", &v.replay_shown);
  if (!v.replay_shown) return;
  ImGui::SameLine();
  ImGui::Checkbox("lambda arrows", &v.replay_arrows);
  const char* names[kReplayQuantities];
  for (int q = 0; q < kReplayQuantities; ++q) names[q] = replay_quantity_name(static_cast<ReplayQuantity>(q));
  int q = static_cast<int>(v.replay_quantity);
  ImGui::SetNextItemWidth(-1);
  if (ImGui::Combo("##quantity", &q, names, kReplayQuantities)) v.replay_quantity = static_cast<ReplayQuantity>(q);
  const CaptureReplay* r = v.replay && v.replay->quantity == v.replay_quantity ? v.replay : nullptr;
  if (r && replay_quantity_continuous(v.replay_quantity)) {
    // The map as a bar, its ends in plain numbers (log scale).
    if (!v.map_colors.empty()) {
      const ImVec2 at = ImGui::GetCursorScreenPos();
      const float width = std::max(60.0f, ImGui::GetContentRegionAvail().x), height = 10.0f;
      const float step = width / static_cast<float>(v.map_colors.size());
      ImDrawList* draw = ImGui::GetWindowDrawList();
      for (std::size_t i = 0; i < v.map_colors.size(); ++i) {
        const auto& c = v.map_colors[i];
        draw->AddRectFilled(ImVec2(at.x + step * static_cast<float>(i), at.y),
                            ImVec2(at.x + step * static_cast<float>(i + 1), at.y + height),
                            ImGui::GetColorU32(ImVec4(c[0], c[1], c[2], 1.0f)));
      }
      ImGui::Dummy(ImVec2(width, height));
    }
    if (r->hi > 0)
      ImGui::TextWrapped("%s .. %s, log scale (a mark: its largest row)%s", readout(r->lo).c_str(), readout(r->hi).c_str(),
                         v.replay_quantity == ReplayQuantity::Complementarity ? "; grey: no NCP row" : "");
    else
      ImGui::TextUnformatted("every value 0");
    if (r->non_finite > 0) ImGui::TextColored(ImVec4(1.0f, 0.5f, 0.4f, 1.0f), "%d non-finite (top colour)", r->non_finite);
  } else if (r) {
    const bool active_set = v.replay_quantity == ReplayQuantity::ActiveSet;
    const ReplayState shown[] = {active_set ? ReplayState::Active : ReplayState::Stick,
                                 active_set ? ReplayState::Inactive : ReplayState::Slip, ReplayState::Inactive,
                                 ReplayState::None};
    int counts[kReplayStates] = {};
    for (const ReplayMark& m : r->marks) ++counts[static_cast<int>(m.state)];
    const int n = active_set ? 2 : 4;
    for (int i = 0; i < n; ++i) {
      const ImVec2 at = ImGui::GetCursorScreenPos();
      const float size = ImGui::GetTextLineHeight();
      ImGui::GetWindowDrawList()->AddRectFilled(at, ImVec2(at.x + size, at.y + size), screen_color(replay_state_color(shown[i])));
      ImGui::Dummy(ImVec2(size, size));
      ImGui::SameLine();
      const char* name = !active_set && shown[i] == ReplayState::Inactive ? "separated"
                         : !active_set && shown[i] == ReplayState::None ? "joint, rope"
                                                                         : replay_state_name(shown[i]);
      ImGui::Text("%s %d", name, counts[static_cast<int>(shown[i])]);
      if (i % 2 == 0 && i + 1 < n) ImGui::SameLine(0.0f, 2.0f * size);  // two to a line
    }
  }
  if (v.replay_arrows && v.force_scale > 0) {
    // The scale in plain words: how long one newton (and the largest force here) is drawn.
    const double largest = r ? r->largest_force : 0;
    ImGui::TextWrapped("arrows (red: normal, joint and distance-row force; green: friction): 1 N = %s m; the largest here, %s N, is %s m (clamped at %s m)",
                       readout(v.force_scale).c_str(), readout(largest).c_str(), readout(largest * v.force_scale).c_str(),
                       readout(v.max_arrow).c_str());
  }
  if (!v.replay_note.empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1.0f, 0.85f, 0.4f, 1.0f));
    ImGui::TextWrapped("%s", v.replay_note.c_str());
    ImGui::PopStyleColor();
  }
}

}  // namespace

void capture_row_nodes(const sim::SolveCapture& c, int row, std::vector<int>& out) {
  out.clear();
  if (row < 0 || row >= c.rows.count()) return;
  const auto i = static_cast<std::size_t>(row);
  for (int e = c.rows.node_first[i]; e < c.rows.node_first[i + 1]; ++e) out.push_back(c.rows.node[static_cast<std::size_t>(e)]);
}

const char* trigger_name(CaptureTrigger t) {
  switch (t) {
    case CaptureTrigger::Failure: return "failure";
    case CaptureTrigger::Residual: return "residual";
    case CaptureTrigger::ContactChange: return "contacts";
    case CaptureTrigger::Key: return "key";
    case CaptureTrigger::Continuous: return "continuous";
  }
  return "?";
}

void sort_capture_rows(const sim::SolveCapture& c, int iteration, CaptureColumn sort, bool descending, int limit,
                       std::vector<int>& out, std::span<const ReplayState> contact_states) {
  out.clear();
  const int n = c.rows.count();
  if (n == 0 || c.iterates.empty()) return;
  const sim::CapturedIterate& it =
      c.iterates[static_cast<std::size_t>(std::clamp(iteration, 0, static_cast<int>(c.iterates.size()) - 1))];
  out.resize(static_cast<std::size_t>(n));
  std::iota(out.begin(), out.end(), 0);
  const auto key = [&](int r) -> double {
    const auto i = static_cast<std::size_t>(r);
    switch (sort) {
      case CaptureColumn::Row: return r;
      case CaptureColumn::Kind: return c.rows.kind[i];
      case CaptureColumn::Bodies: return first_node(c, r);
      case CaptureColumn::Residual: return magnitude(it.residual[i]);
      case CaptureColumn::Lambda: return magnitude(it.lambda[i]);
      case CaptureColumn::State: return static_cast<double>(capture_row_state(c, contact_states, it, r));
    }
    return r;
  };
  std::stable_sort(out.begin(), out.end(), [&](int a, int b) { return descending ? key(a) > key(b) : key(a) < key(b); });
  if (limit >= 0 && static_cast<int>(out.size()) > limit) out.resize(static_cast<std::size_t>(limit));
}

CapturePanelEdits capture_panel(CapturePanelView& v) {
  CapturePanelEdits edits;
  if (v.open) ImGui::SetNextWindowCollapsed(false, ImGuiCond_Always);
  v.open = false;
  if (!ImGui::Begin("Solve capture")) {
    ImGui::End();
    return edits;
  }
  const sim::SolveCapture* c = v.capture;
  if (v.ring) ring_section(*v.ring, v.opened_id, c == nullptr, edits);
  if (!c) {
    if (v.ring && !v.ring->kept.empty())
      ImGui::TextWrapped("No capture open: click a kept solve above to open it.");
    else
      ImGui::TextWrapped("No capture open: set a trigger above, press F9 to keep the next step's solve, or let a step "
                         "fail (the run pauses and opens it here).");
    ImGui::End();
    return edits;
  }
  if (!v.headline.empty()) ImGui::TextWrapped("%s", v.headline.c_str());
  if (v.diagnosis) {
    ImGui::PushStyleColor(ImGuiCol_Text, v.failed ? ImVec4(1.0f, 0.5f, 0.4f, 1.0f) : ImVec4(1.0f, 0.85f, 0.4f, 1.0f));
    ImGui::TextWrapped("%s", v.diagnosis->explanation.c_str());
    ImGui::PopStyleColor();
  }
  if (!c->filled || c->iterates.empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
    ImGui::TextWrapped("no solve captured: the step was refused before its solve");
    ImGui::PopStyleColor();
    ImGui::End();
    return edits;
  }
  const int last = static_cast<int>(c->iterates.size()) - 1;
  v.iteration = std::clamp(v.iteration, 0, last);
  ImGui::Separator();
  // Scrubbing the Newton iterations.
  if (ImGui::ArrowButton("##previous", ImGuiDir_Left)) v.iteration = std::max(0, v.iteration - 1);
  ImGui::SameLine();
  if (ImGui::ArrowButton("##next", ImGuiDir_Right)) v.iteration = std::min(last, v.iteration + 1);
  ImGui::SameLine();
  ImGui::SetNextItemWidth(-1);
  char label[64];
  std::snprintf(label, sizeof label, "Newton iterate %d of %d", v.iteration, last);
  ImGui::SliderInt("##iterate", &v.iteration, 0, last, label);
  const sim::IterationTrace& t = c->iterates[static_cast<std::size_t>(v.iteration)].trace;
  ImGui::Text("merit %s J   step t %s   linear its %d", readout(t.merit).c_str(), readout(t.step_size).c_str(),
              t.linear_iterations);
  ImGui::Text("max residual: normal %s m, friction %s m/s,", readout(t.normal_max).c_str(), readout(t.friction_max).c_str());
  ImGui::Text("  bilateral %s", readout(t.bilateral_max).c_str());
  ImGui::TextDisabled("%d rows, %d contacts, h = %s s, substep %d", c->rows.count(), c->contact_count,
                      readout(c->h).c_str(), c->substep);

  replay_section(v);
  comparison_section(v, edits);

  // The rows at this iterate, worst first by default.
  constexpr int kShown = 64;
  const ImGuiTableFlags flags = ImGuiTableFlags_Sortable | ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV |
                                ImGuiTableFlags_ScrollY | ImGuiTableFlags_SizingFixedFit;
  // At least eight rows: in a short panel it scrolls (the wheel) rather than hiding the table.
  const float height = std::max(9.0f * ImGui::GetTextLineHeightWithSpacing(), ImGui::GetContentRegionAvail().y);
  if (ImGui::BeginTable("rows", 6, flags, ImVec2(0, height))) {
    ImGui::TableSetupScrollFreeze(0, 1);
    // Bodies last: the column that takes the width left (names are long, the panel narrow).
    ImGui::TableSetupColumn("row", 0, 0.0f, static_cast<ImGuiID>(CaptureColumn::Row));
    ImGui::TableSetupColumn("kind", 0, 0.0f, static_cast<ImGuiID>(CaptureColumn::Kind));
    ImGui::TableSetupColumn("residual", ImGuiTableColumnFlags_DefaultSort | ImGuiTableColumnFlags_PreferSortDescending, 0.0f,
                            static_cast<ImGuiID>(CaptureColumn::Residual));
    ImGui::TableSetupColumn("lambda", ImGuiTableColumnFlags_PreferSortDescending, 0.0f, static_cast<ImGuiID>(CaptureColumn::Lambda));
    ImGui::TableSetupColumn("state", 0, 0.0f, static_cast<ImGuiID>(CaptureColumn::State));
    ImGui::TableSetupColumn("bodies", ImGuiTableColumnFlags_WidthStretch, 0.0f, static_cast<ImGuiID>(CaptureColumn::Bodies));
    // The headers one by one, for the state column's tooltip.
    ImGui::TableNextRow(ImGuiTableRowFlags_Headers);
    for (int column = 0; column < 6; ++column) {
      if (!ImGui::TableSetColumnIndex(column)) continue;
      ImGui::PushID(column);
      ImGui::TableHeader(ImGui::TableGetColumnName(column));
      ImGui::PopID();
      if (column == 4 && ImGui::IsItemHovered())
        ImGui::SetTooltip("Contact rows (normal and friction): the contact's state, as the viewport replay colours it:\n"
                          "inactive (separated) when the normal row is inactive, else slip when the friction\n"
                          "force is on its cone (friction_cone_ratio > %.2f, as the Contact panel says), else stick.\n"
                          "Not the solver's friction flag (W > 0 of eq. 106), which Fischer-Burmeister sets at\n"
                          "any slip speed. Limit rows: active / inactive.",
                          kSlidingConeRatio);
    }
    if (ImGuiTableSortSpecs* specs = ImGui::TableGetSortSpecs(); specs && specs->SpecsCount > 0) {
      v.sort = static_cast<CaptureColumn>(specs->Specs[0].ColumnUserID);
      v.descending = specs->Specs[0].SortDirection == ImGuiSortDirection_Descending;
      specs->SpecsDirty = false;
    }
    capture_contact_states(*c, v.contacts, v.iteration, v.contact_normal, v.contact_friction, v.contact_states);
    sort_capture_rows(*c, v.iteration, v.sort, v.descending, kShown, v.order, v.contact_states);
    const sim::CapturedIterate& it = c->iterates[static_cast<std::size_t>(v.iteration)];
    for (int r : v.order) {
      const auto i = static_cast<std::size_t>(r);
      const bool bad = offending(v.diagnosis, r);
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      if (bad) ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1.0f, 0.45f, 0.35f, 1.0f));
      char id[32];
      std::snprintf(id, sizeof id, "%d", r);
      if (ImGui::Selectable(id, v.selected_row == r, ImGuiSelectableFlags_SpanAllColumns)) {
        v.selected_row = r;
        const int node = first_node(*c, r);
        if (v.model && node >= 0 && node < v.model->body_count) edits.select_body = node;
        capture_row_nodes(*c, r, edits.frame_nodes);
      }
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(sim::row_kind_name(c->rows.kind[i]));
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(readout(it.residual[i]).c_str());
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(readout(it.lambda[i]).c_str());
      ImGui::TableNextColumn();
      const ReplayState state = capture_row_state(*c, v.contact_states, it, r);
      ImGui::TextUnformatted(state == ReplayState::None ? "" : replay_state_name(state));
      ImGui::TableNextColumn();
      std::string bodies;
      for (int e = c->rows.node_first[i]; e < c->rows.node_first[i + 1]; ++e) {
        const int node = c->rows.node[static_cast<std::size_t>(e)];
        if (!bodies.empty()) bodies += ", ";
        bodies += v.model && node < v.model->body_count ? v.model->body_name[static_cast<std::size_t>(node)]
                                                        : "p" + std::to_string(node - (v.model ? v.model->body_count : 0));
      }
      ImGui::TextUnformatted(bodies.empty() ? "world" : bodies.c_str());
      if (bad) ImGui::PopStyleColor();
    }
    ImGui::EndTable();
  }
  ImGui::End();
  return edits;
}

}  // namespace ui
