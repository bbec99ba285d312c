// Picking a soft body drawn as an embedded render mesh (issue 14 item 6), scripted under Xvfb:
// in fetch_tomato the tomato is drawn as meshes/tomato.obj skinned to 384 coarse tets. A double
// click at the drawn tomato's top selects one of the tomato's particles through a face of that
// mesh, and the property view names the render face and reads the colour field there. Skips
// without a display or without ../shared/robots (the scene's Fetch).
#include <catch2/catch.hpp>

#include <QDir>
#include <QMouseEvent>
#include <algorithm>
#include <cstdlib>
#include <filesystem>

#include "app/main_window_support.hpp"
#include "app/qt_test_app.hpp"
#include "gui/debug_panels.hpp"
#include "gui/main_window.hpp"
#include "gui/picking.hpp"
#include "gui/property_panel.hpp"
#include "gui/viewport_window.hpp"
#include "gui/vulkan_validation.hpp"
#include "support/scratch_files.hpp"
#include "support/shared_robots.hpp"

using namespace coulomb::gui;

TEST_CASE("a double click on the drawn tomato picks its particle through the render mesh", "[app][viewer][viewer_render_mesh][render_mesh]") {
  if (!test::shared_robots_available()) {
    WARN("skipped: " << test::shared_robots_dir().string() << " is absent (Fetch)");
    return;
  }
  QVulkanInstance* vulkan = app_test::vulkan_instance_or_skip("the render mesh pick test");
  if (!vulkan) return;
  const int validation_errors = vulkan_validation_error_count();
  const std::filesystem::path dir = test::scratch_dir("app_render_mesh_pick");
  {
    MainWindow window(app_test::window_options("fetch_tomato", dir, vulkan));
    app_test::show_loaded(window);
    ViewportWindow& viewport = *window.viewport();
    app_test::check_renders(viewport, 3);
    REQUIRE(viewport.panels() != nullptr);
    const Snapshot& s = window.runner().latest();
    REQUIRE(s.model);
    REQUIRE(s.model->soft_render_meshes.size() == 1);
    const sim::SoftRenderMesh& mesh = *s.model->soft_render_meshes[0];
    // The frame the camera starts with: frame the tomato, then aim at a vertex facing the camera,
    // the skinned vertex nearest the camera's eye that is on screen and off the panels.
    sim::Vec3 lo = skinned_vertex(*s.model, s.state, mesh, 0), hi = lo;
    for (int v = 0; v < static_cast<int>(mesh.vertices.size()); ++v) {
      const sim::Vec3 x = skinned_vertex(*s.model, s.state, mesh, v);
      lo = lo.cwiseMin(x), hi = hi.cwiseMax(x);
    }
    viewport.camera().target = 0.5 * (lo + hi);
    viewport.camera().distance = 4 * (hi - lo).norm();
    app_test::check_renders(viewport, viewport.frames_rendered() + 2);
    const sim::Vec3 eye = viewport.camera().eye();
    double x = 0, y = 0, best = -1;
    for (int v = 0; v < static_cast<int>(mesh.vertices.size()); ++v) {
      const sim::Vec3 p = skinned_vertex(*s.model, s.state, mesh, v);
      double px = 0, py = 0;
      if (!viewport.camera().project(p, viewport.width(), viewport.height(), px, py)) continue;
      if (px < 0 || py < 0 || px >= viewport.width() || py >= viewport.height() || viewport.panels()->hit(float(px), float(py)))
        continue;
      if (best < 0 || (p - eye).norm() < best) best = (p - eye).norm(), x = px, y = py;
    }
    REQUIRE(best > 0);
    // Off the vertex by a pixel: inside one of its faces.
    const QPointF pos(x + 1.0, y + 0.5);
    QMouseEvent dbl(QEvent::MouseButtonDblClick, pos, viewport.mapToGlobal(pos), Qt::LeftButton, Qt::LeftButton,
                    Qt::NoModifier);
    QCoreApplication::sendEvent(&viewport, &dbl);
    CHECK(viewport.picked_render_mesh() == 0);
    CHECK(viewport.picked_face() >= 0);
    const ItemRef picked = window.selection();
    REQUIRE(picked.kind == ItemKind::Particle);
    CHECK(std::binary_search(mesh.particles.begin(), mesh.particles.end(), picked.index));
    // The hit point is on the drawn surface: within the skinned mesh's box, nearer the camera
    // than the tomato's centre.
    const sim::Vec3 hit = viewport.picked_point();
    CHECK(((hit - lo).minCoeff() > -1e-9 && (hi - hit).minCoeff() > -1e-9));
    CHECK((hit - eye).norm() < (0.5 * (lo + hi) - eye).norm());
    // The property view: the particle, and the render face it was picked through.
    window.properties().refresh_live(window.runner().latest());
    app_test::check_renders(viewport, viewport.frames_rendered() + 2);  // the picked particle outlined
    const std::string text = window.properties().live_text().toStdString();
    INFO(text);
    CHECK(text.find("face " + std::to_string(viewport.picked_face()) + " of " + mesh.file + ": vertices ") !=
          std::string::npos);
    if (const char* shots = std::getenv("COULOMB_VIEWER_SHOTS")) {
      viewport.screenshot().save(QDir(QString::fromLocal8Bit(shots)).filePath(QStringLiteral("render_mesh_pick.png")));
      QCoreApplication::processEvents();
      window.grab().save(QDir(QString::fromLocal8Bit(shots)).filePath(QStringLiteral("render_mesh_pick_window.png")));
    }
  }
  INFO("Vulkan validation: " << vulkan_validation_errors().join('\n').toStdString());
  CHECK(vulkan_validation_error_count() == validation_errors);
}
