#include "ui/stats_panel.hpp"

#include <imgui.h>

namespace ui {

void stats_panel(const StatsView& v) {
  if (!ImGui::Begin("Stats")) {
    ImGui::End();
    return;
  }
  const sim::StepTimings& t = v.report.timings;
  ImGui::Text("time %.3f s   real-time factor %.2f", v.sim_time, v.real_time_factor);
  ImGui::TextWrapped("backend: %s", v.backend ? v.backend : "CPU");
  if (v.retried_steps > 0) {  // at the top: the panel is short, and this is news
    // Amber: taken, but only with more substeps than asked (SolverOptions::step_retries).
    ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1, 0.75f, 0.2f, 1));
    ImGui::TextWrapped("%lld step%s failed and passed with more substeps; the last at %s", v.retried_steps,
                       v.retried_steps == 1 ? "" : "s", v.last_retry ? v.last_retry : "");
    ImGui::PopStyleColor();
  }
  ImGui::Separator();
  ImGui::Text("bodies %d   particles %d   joints %d   dofs %d", v.bodies, v.particles, v.joints, v.dofs);
  ImGui::Text("contacts %d   rows %d", v.report.contact_count, v.report.row_count);
  ImGui::Text("iterations %d   linear %d", v.report.newton_iterations, v.report.linear_iterations);
  ImGui::Separator();
  if (ImGui::BeginTable("stages", 2)) {
    const struct { const char* name; double ms; } rows[] = {
        {"collision", t.collision}, {"assembly", t.assembly}, {"linear solve", t.solve},
        {"integrate", t.integrate}, {"total", t.total}};
    for (const auto& r : rows) {
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(r.name);
      ImGui::TableNextColumn();
      ImGui::Text("%8.3f ms", r.ms);
    }
    ImGui::EndTable();
  }
  if (!v.report.ok()) ImGui::TextColored(ImVec4(1, 0.3f, 0.3f, 1), "step failed: %s", v.report.message.c_str());
  ImGui::End();
}

}  // namespace ui
