#include "ui/friction_ellipse.hpp"

#include <imgui.h>

#include <algorithm>
#include <cmath>

#include "ui/plot_axis.hpp"

namespace ui {

FrictionEllipseFigure friction_ellipse_figure(const ContactReadout& r, double radius) {
  FrictionEllipseFigure fig;
  const double bound_t = r.mu * r.normal_force, bound_b = r.mu_bitangent * r.normal_force;
  if (!(r.normal_force > 0) || !(bound_t > 0) || !(bound_b > 0) || !(radius > 0)) return fig;
  const double force = std::hypot(static_cast<double>(r.friction_tangent.x()), static_cast<double>(r.friction_tangent.y()));
  const double extent = std::max({bound_t, bound_b, force});
  fig.loaded = true;
  fig.newtons_per_pixel = extent / radius;
  fig.semi_axis_t = bound_t / fig.newtons_per_pixel;
  fig.semi_axis_b = bound_b / fig.newtons_per_pixel;
  fig.force = r.friction_tangent / static_cast<sim::Real>(fig.newtons_per_pixel);
  const sim::Real slip = r.slip_tangent.norm();
  if (slip > 0) fig.slip = r.slip_tangent * static_cast<sim::Real>(radius) / slip;
  return fig;
}

namespace {

void arrow(ImDrawList* dl, ImVec2 from, ImVec2 to, ImU32 colour, float thickness) {
  dl->AddLine(from, to, colour, thickness);
  const float dx = to.x - from.x, dy = to.y - from.y, length = std::sqrt(dx * dx + dy * dy);
  if (length < 4) return;
  const float ux = dx / length, uy = dy / length, head = std::min(10.0f, 0.4f * length);
  dl->AddTriangleFilled(to, ImVec2(to.x - head * ux + 0.5f * head * uy, to.y - head * uy - 0.5f * head * ux),
                        ImVec2(to.x - head * ux - 0.5f * head * uy, to.y - head * uy + 0.5f * head * ux), colour);
}

}  // namespace

void draw_friction_ellipse(const ContactReadout& r, bool sliding) {
  constexpr float kSide = 160, kRadius = 64;
  const FrictionEllipseFigure fig = friction_ellipse_figure(r, kRadius);
  if (!fig.loaded) return;
  ImGui::Separator();
  ImGui::TextUnformatted(r.anisotropic ? "friction ellipse at this load" : "friction disc at this load");
  const ImVec2 corner = ImGui::GetCursorScreenPos();
  const ImVec2 centre(corner.x + 0.5f * kSide, corner.y + 0.5f * kSide);
  auto at = [&](double x, double y) { return ImVec2(centre.x + static_cast<float>(x), centre.y - static_cast<float>(y)); };
  ImDrawList* dl = ImGui::GetWindowDrawList();
  dl->AddRectFilled(corner, ImVec2(corner.x + kSide, corner.y + kSide), IM_COL32(25, 28, 34, 255));
  const ImU32 axis = IM_COL32(90, 90, 100, 255), outline = IM_COL32(200, 200, 210, 255);
  dl->AddLine(at(-0.5 * kSide + 6, 0), at(0.5 * kSide - 6, 0), axis);
  dl->AddLine(at(0, -0.5 * kSide + 6), at(0, 0.5 * kSide - 6), axis);
  dl->AddText(at(0.5 * kSide - (r.anisotropic ? 42 : 22), 16), axis, r.anisotropic ? "grain" : "t1");
  dl->AddText(at(4, 0.5 * kSide - 6), axis, "t2");
  constexpr int kSegments = 72;
  ImVec2 points[kSegments];
  for (int k = 0; k < kSegments; ++k) {
    const double a = 2 * 3.14159265358979323846 * k / kSegments;
    points[k] = at(fig.semi_axis_t * std::cos(a), fig.semi_axis_b * std::sin(a));
  }
  dl->AddPolyline(points, kSegments, outline, ImDrawFlags_Closed, 1.5f);
  if (fig.slip.squaredNorm() > 0) arrow(dl, at(0, 0), at(fig.slip.x(), fig.slip.y()), IM_COL32(110, 160, 255, 255), 1.5f);
  const ImU32 force = sliding ? IM_COL32(255, 180, 75, 255) : IM_COL32(130, 230, 130, 255);
  arrow(dl, at(0, 0), at(fig.force.x(), fig.force.y()), force, 2.5f);
  ImGui::Dummy(ImVec2(kSide, kSide));
  ImGui::TextDisabled("rim %s N (t1), %s N (t2)", readout(r.mu * r.normal_force).c_str(),
                      readout(r.mu_bitangent * r.normal_force).c_str());
  ImGui::TextColored(sliding ? ImVec4(1.0f, 0.7f, 0.3f, 1.0f) : ImVec4(0.5f, 0.9f, 0.5f, 1.0f), "friction force");
  ImGui::SameLine();
  ImGui::TextColored(ImVec4(0.45f, 0.63f, 1.0f, 1.0f), " slip direction");
}

}  // namespace ui
