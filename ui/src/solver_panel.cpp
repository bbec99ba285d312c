#include "ui/solver_panel.hpp"

#include <imgui.h>

#include <iterator>
#include <string>

#include "sim/load_limits.hpp"

namespace ui {

namespace {

constexpr const char* kKind[] = {"nsn", "pgs", "dual", "primal"};  // sim::kSolverKinds' names, in order
static_assert(std::size(kKind) == std::size(sim::kSolverKinds), "a combo entry per solver kind");
constexpr const char* kKindLabel[] = {"nsn: non-smooth Newton", "pgs: projected Gauss-Seidel",
                                      "dual: dual ascent (XPBD-style)", "primal: primal descent"};  // as shown
static_assert(std::size(kKindLabel) == std::size(kKind), "a label per solver kind");
constexpr const char* kNcp[] = {"fischer_burmeister", "min_map"};
constexpr const char* kPre[] = {"identity", "h2", "effective_mass"};
constexpr const char* kLin[] = {"pcr", "pcg", "jacobi", "gauss_seidel", "direct", "auto"};
constexpr int kLinCount = static_cast<int>(std::size(kLin));

template <std::size_t N>
void choose(sim::SolverOptions& o, const char* const (&names)[N], int index, const char* key) {
  if (index >= 0 && index < static_cast<int>(N)) sim::set_solver_option(o, key, names[index]);
}

template <std::size_t N>
int index_of(std::string_view value, const char* const (&names)[N]) {
  for (std::size_t i = 0; i < N; ++i)
    if (value == names[i]) return static_cast<int>(i);
  return 0;
}

bool combo(const char* label, int& index, const char* const* names, int count) {
  return ImGui::Combo(label, &index, names, count);
}

bool slider_real(const char* label, sim::Real& value, float lo, float hi, const char* format, bool log) {
  float v = static_cast<float>(value);
  const bool changed = ImGui::SliderFloat(label, &v, lo, hi, format, log ? ImGuiSliderFlags_Logarithmic : 0);
  if (changed) value = static_cast<sim::Real>(v);
  return changed;
}

}  // namespace

const char* const* solver_kind_choices(int& count) { count = static_cast<int>(std::size(kKind)); return kKind; }
const char* const* ncp_choices(int& count) { count = 2; return kNcp; }
const char* const* preconditioner_choices(int& count) { count = 3; return kPre; }
const char* const* linear_solver_choices(int& count) { count = kLinCount; return kLin; }
void choose_solver_kind(sim::SolverOptions& o, int index) { choose(o, kKind, index, "kind"); }
void choose_ncp(sim::SolverOptions& o, int index) { choose(o, kNcp, index, "ncp"); }
void choose_preconditioner(sim::SolverOptions& o, int index) { choose(o, kPre, index, "preconditioner"); }
void choose_linear_solver(sim::SolverOptions& o, int index) { choose(o, kLin, index, "linear_solver"); }

bool solver_panel(SolverPanelView& view) {
  sim::SolverOptions& o = view.options;
  bool changed = false;
  if (!ImGui::Begin("Solver")) {
    ImGui::End();
    return false;
  }
  if (view.device) {
    int backend = view.use_device ? 1 : 0;
    const char* const backends[] = {"CPU", "CUDA"};
    if (combo("Backend", backend, backends, 2)) {
      view.use_device = backend == 1;
      changed = true;
    }
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s: the Newton loop's large PCR solves on the GPU", view.device);
  } else {
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
    ImGui::TextWrapped("Backend: CPU (%s)", view.device_missing ? view.device_missing : "no CUDA device");
    ImGui::PopStyleColor();
  }
  int kind = index_of(sim::to_string(o.kind), kKind);
  if (combo("Solver", kind, kKindLabel, static_cast<int>(std::size(kKindLabel)))) { choose_solver_kind(o, kind); changed = true; }
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", std::string(sim::describe(o.kind)).c_str());
  if (o.kind == sim::SolverKind::NonSmoothNewton) {
    int ncp = index_of(sim::to_string(o.ncp), kNcp);
    if (combo("NCP function", ncp, kNcp, 2)) { choose_ncp(o, ncp); changed = true; }
    int pre = index_of(sim::to_string(o.preconditioner), kPre);
    if (combo("Preconditioner", pre, kPre, 3)) { choose_preconditioner(o, pre); changed = true; }
    int lin = index_of(sim::to_string(o.linear_solver), kLin);
    if (combo("Linear solver", lin, kLin, kLinCount)) { choose_linear_solver(o, lin); changed = true; }
    if (ImGui::IsItemHovered() && o.linear_solver == sim::LinearSolver::Auto)
      ImGui::SetTooltip("auto: direct (sparse LDL^T) on jointed bodies with few contacts, PCR otherwise");
    changed |= ImGui::SliderInt("Newton iterations (cap)", &o.newton_iterations, 1, 50);
    changed |= ImGui::SliderInt("Linear iterations", &o.linear_iterations, 1, 200);
    if (o.linear_solver != sim::LinearSolver::Direct) {
      changed |= slider_real("Linear forcing max (0: off)", o.linear_forcing_max, 0.0f, 0.9f, "%.2f", false);
      if (ImGui::IsItemHovered())
        ImGui::SetTooltip("Inexact Newton (Eisenstat-Walker): each PCR/PCG solve stops at a relative residual\n"
                          "that follows the Newton residual's decrease, at most this; 0 runs every solve to\n"
                          "the linear iterations");
    }
    changed |= ImGui::Checkbox("Line search (off: the paper's fixed t)", &o.line_search);
    if (!o.line_search) changed |= slider_real("Damping t", o.damping, 0.05f, 1.0f, "%.2f", false);
    if (o.line_search) {
      changed |= ImGui::Checkbox("  friction merit: natural map", &o.friction_merit_natural_map);
      if (ImGui::IsItemHovered())
        ImGui::SetTooltip("The line search measures friction by each contact's natural-map error (what the\n"
                          "convergence test reads) instead of the rows' residual, which jumps when a sliding\n"
                          "contact starts to carry load and swings when its load moves. On by default; off: the rows'\n"
                          "residual, as before 8 Dec 2026 (docs/benchmarks.md).");
    }
    changed |= slider_real("Regularization eps", o.regularization, 1e-10f, 1e-2f, "%.1e", true);
    if (o.linear_solver == sim::LinearSolver::Jacobi)
      changed |= slider_real("Jacobi weight", o.jacobi_weight, 0.05f, 1.0f, "%.2f", false);
    changed |= ImGui::Checkbox("Geometric stiffness", &o.geometric_stiffness);
    if (o.geometric_stiffness)
      changed |= ImGui::Checkbox("  exact per element (soft bodies)", &o.element_geometric_stiffness);
    if (o.geometric_stiffness)
      changed |= ImGui::Checkbox("  exact per rope link", &o.rope_geometric_stiffness);
    changed |= ImGui::Checkbox("Project friction onto cone", &o.project_friction);
  } else if (o.kind == sim::SolverKind::ProjectedGaussSeidel) {
    changed |= ImGui::SliderInt("PGS sweeps (cap)", &o.pgs_iterations, 1, 1000, "%d", ImGuiSliderFlags_Logarithmic);
    changed |= slider_real("PGS relaxation", o.pgs_relaxation, 0.05f, 1.95f, "%.2f", false);
    changed |= slider_real("Regularization eps", o.regularization, 1e-10f, 1e-2f, "%.1e", true);
  } else if (o.kind == sim::SolverKind::PrimalDescent) {
    changed |= ImGui::SliderInt("Primal iterations (cap)", &o.primal_iterations, 1, 1000, "%d", ImGuiSliderFlags_Logarithmic);
    changed |= slider_real("Primal step alpha", o.primal_step, 0.05f, 1.95f, "%.2f", false);
    changed |= slider_real("Joint stiffness [N/m]", o.primal_stiffness, 1e2f, 1e12f, "%.1e", true);
    changed |= slider_real("Contact stiffness k_n [N/m]", o.primal_contact_stiffness, 1e2f, 1e12f, "%.1e", true);
    changed |= slider_real("Friction stiffness k_f [N/m]", o.primal_friction_stiffness, 1e2f, 1e12f, "%.1e", true);
  } else {
    changed |= ImGui::SliderInt("Dual iterations (cap)", &o.dual_iterations, 1, 1000, "%d", ImGuiSliderFlags_Logarithmic);
    changed |= slider_real("Dual step (relaxation)", o.dual_relaxation, 0.05f, 1.95f, "%.2f", false);
    changed |= ImGui::Checkbox("Gauss-Seidel order (off: Jacobi, mass splitting)", &o.dual_gauss_seidel);
    changed |= ImGui::Checkbox("Consistent velocity (off: the paper's incremental update)", &o.dual_consistent);
  }
  changed |= ImGui::Checkbox("Warm start", &o.warm_start);
  changed |= ImGui::Checkbox("Implicit gyroscopic term", &o.implicit_gyroscopic);
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("On: the spin of a body about a non-principal axis is integrated by the implicit\n"
                      "midpoint rule, which keeps its energy. Off: the paper's explicit term, which spins such a body up\n"
                      "until the step blows up (fast tumbling ellipsoids, boxes, tools).");
  changed |= slider_real("Tolerance [m]", o.newton_tolerance, 1e-10f, 1e-2f, "%.1e", true);
  changed |= slider_real("Velocity tolerance [m/s]", o.newton_velocity_tolerance, 1e-9f, 1e-1f, "%.1e", true);
  changed |= slider_real("Contact margin [m]", o.contact_margin, 0.0f, 0.05f, "%.3f", false);
  changed |= slider_real("Max depenetration velocity [m/s]", o.max_depenetration_velocity, 0.0f, 10.0f, "%.2f", false);
  changed |= slider_real("Joint angle error limit [rad]", o.joint_angle_error_limit, 0.001f, 1.0f, "%.3f", true);
  changed |= slider_real("Joint position error limit [x radius]", o.joint_position_error_limit, 0.01f, 2.0f, "%.2f", true);
  ImGui::Separator();
  changed |= ImGui::SliderFloat("dt [s]", &view.dt, 1e-4f, 0.05f, "%.4f", ImGuiSliderFlags_Logarithmic);
  changed |= ImGui::SliderInt("Substeps", &o.substeps, 1, 32);
  changed |= ImGui::SliderInt("Retries of a failed step", &o.step_retries, 0, sim::limits::kMaxStepRetries);
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("A step that blows up or diverges is undone and taken again with twice the substeps,\n"
                      "up to this many times; the Stats panel counts the steps so saved. 0: a failed step\n"
                      "stays failed and the run pauses there (to debug the failure itself).");
  ImGui::End();
  return changed;
}

}  // namespace ui
