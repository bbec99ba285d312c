// A soft body's material edited through the document (app/gui/scene_document.hpp), the route the
// property view takes: an E edit recompiles the running model (μ, λ of every tet follow), undo
// and redo restore the exact values in the spec and the model, and an out-of-range ν is refused
// with its reason, leaving the undo stack alone. Runs on any Qt platform (offscreen included).
#include <catch2/catch.hpp>

#include <QUndoStack>

#include "app/qt_test_app.hpp"
#include "gui/scene_document.hpp"
#include "gui/sim_runner.hpp"

using namespace coulomb::gui;

TEST_CASE("a soft body's Young's modulus edit undoes and redoes exactly, ν = 0.5 is refused", "[app][document]") {
  app_test::qt_app();
  SimRunner runner;
  SceneDocument document(runner);
  QString error;
  REQUIRE(document.open_file(app_test::scene_path("soft_cube"), &error));
  REQUIRE(app_test::pump_until([&] { return runner.latest().model != nullptr; }));
  const PropertyKey E{{ItemKind::SoftBody, 0}, "E"};
  const double E_before = std::get<double>(*get_property(document.spec(), E));
  const sim::Real mu_before = runner.latest().model->tet_mu[0], lambda_before = runner.latest().model->tet_lambda[0];

  std::uint64_t version = runner.latest().model_version;
  REQUIRE(document.set_property(E, 4e5, &error));
  REQUIRE(app_test::pump_until([&] { return runner.latest().model_version > version; }));
  CHECK(document.spec().soft_bodies[0].material.youngs_modulus == 4e5);
  // μ and λ are linear in E: four times E, four times each.
  CHECK(runner.latest().model->tet_mu[0] == Approx(4 * mu_before).epsilon(1e-12));
  CHECK(runner.latest().model->tet_lambda[0] == Approx(4 * lambda_before).epsilon(1e-12));

  version = runner.latest().model_version;
  document.undo_stack()->undo();
  REQUIRE(app_test::pump_until([&] { return runner.latest().model_version > version; }));
  CHECK(std::get<double>(*get_property(document.spec(), E)) == E_before);
  CHECK(runner.latest().model->tet_mu[0] == mu_before);
  CHECK(runner.latest().model->tet_lambda[0] == lambda_before);

  version = runner.latest().model_version;
  document.undo_stack()->redo();
  REQUIRE(app_test::pump_until([&] { return runner.latest().model_version > version; }));
  CHECK(document.spec().soft_bodies[0].material.youngs_modulus == 4e5);
  CHECK(runner.latest().model->tet_mu[0] == Approx(4 * mu_before).epsilon(1e-12));

  const int undo_index = document.undo_stack()->index();
  error.clear();
  CHECK_FALSE(document.set_property({{ItemKind::SoftBody, 0}, "nu"}, 0.5, &error));
  INFO(error.toStdString());
  CHECK(error.contains(QStringLiteral("[0, 0.5)")));
  CHECK(document.undo_stack()->index() == undo_index);
  CHECK(document.spec().soft_bodies[0].material.poisson_ratio == sim::Real(0.45));
}
