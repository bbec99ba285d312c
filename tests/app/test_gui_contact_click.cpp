// Clicking a contact in the viewport (issue 15 item 2), scripted under Xvfb: a double click on a
// contact point of the incline's box opens the Contact panel on that contact (followed from step
// to step by its feature key) with the numbers contact_readout gives (test_contact_readout.cpp
// checks them against closed forms), and its close button closes it. Skips without a display.
#include <catch2/catch.hpp>

#include <QDir>
#include <QMouseEvent>
#include <cstdlib>
#include <filesystem>

#include "app/main_window_support.hpp"
#include "app/qt_test_app.hpp"
#include "app/sim_runner_support.hpp"
#include "gui/debug_panels.hpp"
#include "gui/main_window.hpp"
#include "gui/viewport_window.hpp"
#include "gui/vulkan_validation.hpp"
#include "support/scratch_files.hpp"
#include "ui/contact_readout.hpp"

using namespace coulomb::gui;

TEST_CASE("a double click on a contact point shows its gap, forces, mu and slip", "[app][window][contact]") {
  QVulkanInstance* vulkan = app_test::vulkan_instance_or_skip("the contact click test");
  if (!vulkan) return;
  const int validation_errors = vulkan_validation_error_count();
  const std::filesystem::path dir = test::scratch_dir("app_contact_click");
  {
    MainWindow window(app_test::window_options("incline", dir, vulkan));
    app_test::show_loaded(window);
    ViewportWindow& viewport = *window.viewport();
    app_test::check_renders(viewport, 3);
    runner_test::run_steps(window.runner(), 20);
    app_test::check_renders(viewport, viewport.frames_rendered() + 2);
    REQUIRE(viewport.panels() != nullptr);
    // A contact point on screen, off the panels.
    const Snapshot& s = window.runner().latest();
    const std::shared_ptr<const sim::Model> model = s.model;
    REQUIRE(s.stepped);
    REQUIRE(s.workspace.contacts.size() > 0);
    int chosen = -1;
    double x = 0, y = 0;
    for (int i = 0; i < s.workspace.contacts.size() && chosen < 0; ++i) {
      const sim::Contact& c = s.workspace.contacts.contacts[std::size_t(i)];
      const sim::Vec3 p = 0.5 * (ui::contact_side_point(*model, s.state, c.a, c.normal) +
                                 ui::contact_side_point(*model, s.state, c.b, -c.normal));
      if (!viewport.camera().project(p, viewport.width(), viewport.height(), x, y)) continue;
      if (x < 0 || y < 0 || x >= viewport.width() || y >= viewport.height()) continue;
      if (viewport.panels()->hit(float(x), float(y))) continue;
      chosen = i;
    }
    REQUIRE(chosen >= 0);
    const int under = viewport.contact_at(x, y);
    REQUIRE(under >= 0);  // this one or another contact at the same pixel
    const std::uint64_t key = s.workspace.contacts.contacts[std::size_t(under)].key;
    const QPointF pos(x, y);
    QMouseEvent dbl(QEvent::MouseButtonDblClick, pos, viewport.mapToGlobal(pos), Qt::LeftButton, Qt::LeftButton,
                    Qt::NoModifier);
    QCoreApplication::sendEvent(&viewport, &dbl);
    CHECK(viewport.contact_selected());
    CHECK(viewport.selected_contact_key() == key);
    const bool shown = app_test::pump_until([&] {
      viewport.requestUpdate();
      const PanelRect* p = viewport.panels()->panel("Contact");
      return p && !p->collapsed;
    }, 30000);
    REQUIRE(shown);
    // The numbers the panel shows: the contact's, loaded (the box rests on the incline).
    const Snapshot& now = window.runner().latest();
    int index = -1;
    for (int i = 0; i < now.workspace.contacts.size(); ++i)
      if (now.workspace.contacts.contacts[std::size_t(i)].key == key) index = i;
    REQUIRE(index >= 0);
    const ui::ContactReadout r = ui::contact_readout(*now.model, now.state, now.workspace, index);
    CHECK(r.normal_force > 0);
    CHECK(r.mu > 0);
    CHECK(std::abs(r.gap) < 1e-3);
    if (const char* shots = std::getenv("COULOMB_VIEWER_SHOTS"))
      viewport.screenshot().save(QDir(QString::fromLocal8Bit(shots)).filePath(QStringLiteral("contact_clicked.png")));
    // The panel's close button (the x at its title bar's right end) closes it.
    const PanelRect panel = *viewport.panels()->panel("Contact");
    const QPointF close(panel.x + panel.width - 12, panel.y + 9);
    QMouseEvent press(QEvent::MouseButtonPress, close, viewport.mapToGlobal(close), Qt::LeftButton, Qt::LeftButton, Qt::NoModifier);
    QMouseEvent release(QEvent::MouseButtonRelease, close, viewport.mapToGlobal(close), Qt::LeftButton, Qt::NoButton, Qt::NoModifier);
    QMouseEvent move(QEvent::MouseMove, close, viewport.mapToGlobal(close), Qt::NoButton, Qt::NoButton, Qt::NoModifier);
    QCoreApplication::sendEvent(&viewport, &move);
    QCoreApplication::sendEvent(&viewport, &press);
    QCoreApplication::sendEvent(&viewport, &release);
    CHECK(app_test::pump_until([&] {
      viewport.requestUpdate();
      return !viewport.contact_selected() && viewport.panels()->panel("Contact") == nullptr;
    }, 30000));
  }
  INFO("Vulkan validation: " << vulkan_validation_errors().join('\n').toStdString());
  CHECK(vulkan_validation_error_count() == validation_errors);
}
