// The SDF baker panel headless: it draws for every state (no shapes, running, a result with
// warnings, a failure) without requesting anything on its own; choosing a shape (the combo's code
// path) loads that shape's grid parameters; the contact summary counts SDF contacts by feature.
#include <catch2/catch.hpp>

#include <imgui.h>

#include "headless_imgui.hpp"
#include "ui/sdf_baker_panel.hpp"

TEST_CASE("the SDF baker panel draws every state and asks for nothing unprompted", "[ui][sdf]") {
  test::HeadlessImGui imgui;
  ui::SdfBakerPanelView v;
  auto frame = [&] {
    ImGui::NewFrame();
    const ui::SdfBakerRequests r = ui::sdf_baker_panel(v);
    ImGui::Render();
    CHECK_FALSE(r.bake);
    CHECK_FALSE(r.apply);
    CHECK_FALSE(r.slice);
  };
  frame();  // no shapes
  v.shapes = {{3, "body 'bowl' shape 0", 1200, 0.004f, 3.0f}, {5, "world shape 5", 80, 0.02f, 4.0f}};
  ui::choose_sdf_shape(v, 1);
  CHECK(v.shape_choice == 1);
  CHECK(v.voxel_size == 0.02f);
  CHECK(v.band == 4.0f);
  ui::choose_sdf_shape(v, 7);  // out of range: unchanged
  CHECK(v.shape_choice == 1);
  v.running = true;
  v.progress = 0.4f;
  v.stage = "bake";
  frame();
  v.running = false;
  v.has_result = true;
  v.result_ok = true;
  v.report.cache_hit = true;
  v.report.warnings = {"mesh: 2 boundary edges (open)"};
  v.can_apply = true;
  frame();
  v.result_ok = false;
  v.result_error = "bunny.obj: no such file";
  v.source = 1;
  frame();
}

TEST_CASE("the SDF contact summary counts features and evaluations", "[ui][sdf]") {
  sim::Workspace ws;
  auto add = [&](sim::SdfFeature f, int n) {
    sim::Contact c;
    c.sdf_feature = f;
    c.sdf_iterations = static_cast<std::uint16_t>(n);
    ws.contacts.contacts.push_back(c);
  };
  add(sim::SdfFeature::Vertex, 1);
  add(sim::SdfFeature::Face, 9);
  add(sim::SdfFeature::Face, 14);
  add(sim::SdfFeature::None, 0);  // a contact of another narrowphase
  const ui::SdfContactSummary s = ui::summarise_sdf_contacts(ws);
  CHECK(s.count[1] == 1);
  CHECK(s.count[3] == 2);
  CHECK(s.count[0] == 0);
  CHECK(s.max_evaluations == 14);
  CHECK(s.mean_evaluations == Approx(8.0));
}
