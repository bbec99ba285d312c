// The editor's document (app/gui/scene_document.hpp) driving a live SimRunner: property edits
// through the same path the property view uses change the running simulation (friction on the
// incline), the Solver panel's choice setters switch the NCP function and the linear solver
// (seen in the step's trace), undo restores values in the spec and in the running model, and bad
// files report "file:line: <element>: message". Runs on any Qt platform (offscreen included).
#include <catch2/catch.hpp>

#include <QUndoStack>
#include <filesystem>
#include <fstream>

#include "app/qt_test_app.hpp"
#include "gui/scene_document.hpp"
#include "gui/scene_tree_panel.hpp"
#include "gui/sim_runner.hpp"
#include "sim/compile.hpp"
#include "sim/recording.hpp"
#include "sim/scene_io.hpp"
#include "ui/solver_panel.hpp"
#include "support/model_names.hpp"

using namespace coulomb::gui;

namespace {

// Steps `count` times as fast as possible; returns the snapshot after them.
const Snapshot& run_steps(SimRunner& runner, int count) {
  const std::int64_t target = runner.latest().state.step_index + count;
  runner.single_step(count);
  REQUIRE(app_test::pump_until([&] { return runner.latest().state.step_index >= target; }));
  return runner.latest();
}

// Waits until the runner's model reflects the document's last edit.
void settle(SimRunner& runner, std::uint64_t parameter_version_before) {
  REQUIRE(app_test::pump_until([&] { return runner.latest().parameter_version > parameter_version_before; }));
}

int choice_index(const char* const* names, int count, const std::string& value) {
  for (int i = 0; i < count; ++i)
    if (value == names[i]) return i;
  return -1;
}

}  // namespace

TEST_CASE("editing friction through the property path decides whether the incline's box slides", "[app][document]") {
  app_test::qt_app();
  for (const double mu : {0.5, 0.2}) {
    SimRunner runner;
    SceneDocument document(runner);
    QString error;
    REQUIRE(document.open_file(app_test::scene_path("incline"), &error));
    REQUIRE(app_test::pump_until([&] { return runner.latest().model != nullptr; }));
    const PropertyKey friction{{ItemKind::Material, 0}, "friction"};
    const std::uint64_t version = runner.latest().parameter_version;
    REQUIRE(document.set_property(friction, mu, &error));
    if (mu != 0.5) settle(runner, version);  // 0.5 is the file's value: no edit
    CHECK(document.modified() == (mu != 0.5));
    const Snapshot& s = run_steps(runner, 120);  // 1 s
    CHECK(s.model->material_friction[0] == mu);
    const double travel = (s.state.body_position(0) - s.model->body_initial_pose[0].pos).norm();
    INFO("mu " << mu << ": the box moved " << travel << " m in 1 s");
    if (mu == 0.5) CHECK(travel < 1e-3);
    else CHECK(travel > 0.3);
  }
}

TEST_CASE("the Solver panel's setters switch the solver kind, NCP function and linear solver of the running simulation",
          "[app][document]") {
  app_test::qt_app();
  // Reference runs without the app: the same scene stepped directly with each option.
  auto spec = sim::load_scene_file(app_test::scene_path("heavy_stack").toStdString());
  REQUIRE(spec.ok());
  // Every step solves its full budget (the stack rests, so adaptive stopping would often stop
  // before the first linear solve, where the choices make no difference).
  spec->solver.newton_tolerance = 0;
  auto reference = [&](const std::string& key, const std::string& value, int steps) {
    sim::SceneSpec s = *spec;
    REQUIRE(sim::set_solver_option(s.solver, key, value) == "");
    auto model = sim::compile_model(s);
    REQUIRE(model.ok());
    sim::State state = sim::make_initial_state(*model);
    const sim::Control control = sim::make_initial_control(*model);
    sim::Workspace ws;
    for (int i = 0; i < steps; ++i) REQUIRE(sim::step(*model, state, control, ws).ok());
    return std::make_pair(sim::state_hash(state), ws.trace);
  };
  const int steps = 5;

  struct Case {
    std::string key, value;
    const char* const* (*choices)(int&);
  };
  const Case cases[] = {{"ncp", "min_map", ui::ncp_choices}, {"linear_solver", "direct", ui::linear_solver_choices},
                        {"linear_solver", "jacobi", ui::linear_solver_choices},
                        {"kind", "pgs", ui::solver_kind_choices}};
  for (const Case& c : cases) {
    INFO(c.key << " = " << c.value);
    SimRunner runner;
    SceneDocument document(runner);
    QString error;
    REQUIRE(document.open_file(app_test::scene_path("heavy_stack"), &error));
    REQUIRE(document.set_property({{ItemKind::Solver}, "newton_tolerance"}, 0.0, &error));
    int count = 0;
    const char* const* names = c.choices(count);
    const int index = choice_index(names, count, c.value);
    REQUIRE(index >= 0);
    const std::uint64_t version = app_test::pump_until([&] { return runner.latest().model != nullptr; })
                                      ? runner.latest().parameter_version
                                      : 0;
    REQUIRE(document.choose_solver_option(c.key, index, &error));
    CHECK(sim::get_solver_option(document.spec().solver, c.key) == c.value);
    settle(runner, version);
    const Snapshot& s = run_steps(runner, steps);
    CHECK(sim::get_solver_option(s.model->solver, c.key) == c.value);

    const auto chosen = reference(c.key, c.value, steps);
    const auto by_default = reference(c.key, sim::get_solver_option(sim::SolverOptions{}, c.key), steps);
    // The running simulation took exactly the chosen solver's path, not the default's.
    CHECK(sim::state_hash(s.state) == chosen.first);
    CHECK(sim::state_hash(s.state) != by_default.first);
    REQUIRE(s.workspace.trace.iterations.size() == chosen.second.iterations.size());
    for (std::size_t k = 0; k < chosen.second.iterations.size(); ++k) {
      CHECK(s.workspace.trace.iterations[k].normal_max == chosen.second.iterations[k].normal_max);
      CHECK(s.workspace.trace.iterations[k].linear_iterations == chosen.second.iterations[k].linear_iterations);
    }
    CHECK(s.workspace.trace.linear_residuals == chosen.second.linear_residuals);
    CHECK(s.workspace.trace.linear_residuals != by_default.second.linear_residuals);
  }
}

TEST_CASE("undo and redo restore edited values in the spec and the running model", "[app][document]") {
  app_test::qt_app();
  SimRunner runner;
  SceneDocument document(runner);
  QString error;
  REQUIRE(document.open_file(app_test::scene_path("workcell"), &error));
  REQUIRE(app_test::pump_until([&] { return runner.latest().model != nullptr; }));
  CHECK_FALSE(document.modified());

  const PropertyKey mass{{ItemKind::Body, 0}, "mass"};
  const PropertyKey stiffness{{ItemKind::Joint, 1}, "stiffness"};
  const double mass_before = std::get<double>(*get_property(document.spec(), mass));
  const double stiffness_before = std::get<double>(*get_property(document.spec(), stiffness));

  std::uint64_t version = runner.latest().parameter_version;
  REQUIRE(document.set_property(mass, 5.0, &error));
  settle(runner, version);
  CHECK(runner.latest().model->body_inv_mass[0] == Approx(1 / 5.0));
  app_test::pump(900);  // separate undo steps (edits of one property within 0.8 s merge)
  version = runner.latest().parameter_version;
  REQUIRE(document.set_property(stiffness, 1234.0, &error));
  settle(runner, version);
  CHECK(runner.latest().model->joint_stiffness[1] == 1234.0);
  CHECK(document.modified());
  CHECK(document.undo_stack()->count() == 2);

  version = runner.latest().parameter_version;
  document.undo_stack()->undo();
  settle(runner, version);
  CHECK(std::get<double>(*get_property(document.spec(), stiffness)) == stiffness_before);
  CHECK(runner.latest().model->joint_stiffness[1] == stiffness_before);
  CHECK(std::get<double>(*get_property(document.spec(), mass)) == 5.0);

  version = runner.latest().parameter_version;
  document.undo_stack()->undo();
  settle(runner, version);
  CHECK(std::get<double>(*get_property(document.spec(), mass)) == mass_before);
  CHECK(runner.latest().model->body_inv_mass[0] == Approx(1 / mass_before));
  CHECK_FALSE(document.modified());

  version = runner.latest().parameter_version;
  document.undo_stack()->redo();
  settle(runner, version);
  CHECK(std::get<double>(*get_property(document.spec(), mass)) == 5.0);
  CHECK(document.modified());

  // A structural edit (a shape's size) recompiles, keeps the state, and undoes as well.
  const PropertyKey size{{ItemKind::Shape, 7, 0}, "half_extents.x"};  // the 'box' object
  const double size_before = std::get<double>(*get_property(document.spec(), size));
  REQUIRE(!is_parameter_only(document.spec(), size));
  const std::uint64_t model_version = runner.latest().model_version;
  REQUIRE(document.set_property(size, 0.04, &error));
  REQUIRE(app_test::pump_until([&] { return runner.latest().model_version > model_version; }));
  const int s = model_shape_index(document.spec(), 7, 0);
  CHECK(runner.latest().model->shape_half_extents[s].x() == sim::Real(0.04));
  document.undo_stack()->undo();
  REQUIRE(app_test::pump_until([&] { return runner.latest().model_version > model_version + 1; }));
  CHECK(runner.latest().model->shape_half_extents[s].x() == sim::Real(size_before));
  CHECK(std::get<double>(*get_property(document.spec(), size)) == size_before);

  // Invalid values are refused with a reason and change nothing: out of range, and a value the
  // compiler rejects (a position drive without stiffness) with its file:line message.
  const int undo_index = document.undo_stack()->index();
  error.clear();
  CHECK_FALSE(document.set_property({{ItemKind::Material, 0}, "friction"}, -0.5, &error));
  CHECK_FALSE(error.isEmpty());
  error.clear();
  CHECK_FALSE(document.set_property({{ItemKind::Joint, 1}, "stiffness"}, 0.0, &error));
  INFO(error.toStdString());
  CHECK(error.contains(QStringLiteral("workcell.xml:")));
  CHECK(error.contains(QStringLiteral("stiffness")));
  CHECK(document.undo_stack()->index() == undo_index);
  CHECK(std::get<double>(*get_property(document.spec(), stiffness)) == stiffness_before);
}

TEST_CASE("structural edits from the scene tree: delete and duplicate bodies, undoably", "[app][document]") {
  app_test::qt_app();
  SimRunner runner;
  SceneDocument document(runner);
  QString error;
  REQUIRE(document.open_file(app_test::scene_path("workcell"), &error));
  const std::size_t bodies = document.spec().bodies.size();
  const std::size_t joints = document.spec().joints.size();
  REQUIRE(document.duplicate_body(8, &error));  // the box
  CHECK(document.spec().bodies.size() == bodies + 1);
  CHECK(document.spec().bodies.back().name == "box_copy");
  REQUIRE(document.delete_body(2, &error));  // the forearm: its joints go with it
  CHECK(document.spec().bodies.size() == bodies);
  CHECK(document.spec().joints.size() == joints - 2);
  REQUIRE(app_test::pump_until([&] {
    const Snapshot& s = runner.latest();
    return s.model && s.model->body_count == static_cast<int>(bodies);
  }));
  document.undo_stack()->undo();
  document.undo_stack()->undo();
  CHECK(document.spec().bodies.size() == bodies);
  CHECK(document.spec().joints.size() == joints);
  CHECK_FALSE(document.modified());
}

TEST_CASE("opening issue 13's reproducers reports each error and keeps the open scene unchanged", "[app][document]") {
  app_test::qt_app();
  SimRunner runner;
  SceneDocument document(runner);
  QString error;
  REQUIRE(document.open_file(app_test::scene_path("pendulum"), &error));
  REQUIRE(app_test::pump_until([&] { return runner.latest().model != nullptr; }));
  const auto model_before = runner.latest().model;
  const QString path_before = document.path();
  const std::string inputs = std::string(COULOMB_SOURCE_DIR) + "/tests/data/bad-inputs/";
  // (file, what the error must say): docs/LIMITS.md, tests/data/bad-inputs/README.md.
  const std::pair<const char*, const char*> cases[] = {
      {"substeps_2e9.xml", "substeps_2e9.xml:2: <solver>: solver option 'substeps': bad value '2000000000'"},
      {"sdf_band_1e9.xml", "sdf_band_1e9.xml:3: <mesh>: attribute 'sdf_band': must be at most 256 voxels"},
      {"include_dev_zero.xml", "include_dev_zero.xml:2: <include>: attribute 'file': cannot read '/dev/zero' (not a regular file)"},
      {"exfil_scene.xml", "exfil.gltf: buffer or image uri '/etc/passwd' is outside"}};
  for (const auto& [file, message] : cases) {
    CHECK_FALSE(document.open_file(QString::fromStdString(inputs + file), &error));
    INFO(file << ": " << error.toStdString());
    CHECK(error.contains(QString::fromLatin1(message)));
    CHECK(document.spec().name == "pendulum");
    CHECK(document.path() == path_before);
    CHECK_FALSE(document.modified());
    CHECK(runner.latest().model == model_before);
  }
}

TEST_CASE("opening a bad file reports the parser's file:line message and keeps the scene", "[app][document]") {
  app_test::qt_app();
  SimRunner runner;
  SceneDocument document(runner);
  QString error;
  REQUIRE(document.open_file(app_test::scene_path("pendulum"), &error));
  const std::string dir = (std::filesystem::temp_directory_path() / "coulomb_test_app_bad").string();
  std::filesystem::create_directories(dir);
  const std::string bad = dir + "/bad.xml";
  {
    std::ofstream out(bad);
    out << "<scene>\n  <body name=\"b\">\n    <sphere radius=\"-1\"/>\n  </body>\n</scene>\n";
  }
  CHECK_FALSE(document.open_file(QString::fromStdString(bad), &error));
  INFO(error.toStdString());
  CHECK(error.startsWith(QString::fromStdString(bad + ":3: <sphere>: ")));
  CHECK(document.spec().name == "pendulum");
  CHECK_FALSE(document.open_file(QString::fromStdString(dir + "/missing.xml"), &error));
  CHECK(error.contains(QStringLiteral("missing.xml")));

  // Save As writes a file that opens to the same scene; the document is clean afterwards.
  REQUIRE(document.set_property({{ItemKind::Scene}, "gravity.z"}, -3.0, &error));
  CHECK(document.modified());
  const QString saved = QString::fromStdString(dir + "/saved.xml");
  REQUIRE(document.save_as(saved, &error));
  CHECK_FALSE(document.modified());
  CHECK(document.path() == saved);
  auto reread = sim::load_scene_file(saved.toStdString());
  REQUIRE(reread.ok());
  CHECK(reread->gravity.z() == sim::Real(-3.0));
}

TEST_CASE("the SDF baker's Apply rebakes the bowl's grid in the running simulation, undoably", "[app][document][sdf]") {
  app_test::qt_app();
  SimRunner runner;
  SceneDocument document(runner);
  QString error;
  REQUIRE(document.open_file(app_test::scene_path("sdf_bowl"), &error));
  REQUIRE(app_test::pump_until([&] { return runner.latest().model != nullptr; }));
  run_steps(runner, 30);  // the balls are falling
  const Snapshot& before = runner.latest();
  const int bowl = test::body_index(*before.model, "bowl");
  REQUIRE(bowl >= 0);
  int shape = -1;
  for (int s = 0; s < before.model->shape_count; ++s)
    if (before.model->shape_body[static_cast<std::size_t>(s)] == bowl) shape = s;
  REQUIRE(shape >= 0);
  const int mesh = before.model->shape_mesh[static_cast<std::size_t>(shape)];
  REQUIRE(mesh >= 0);
  CHECK(before.model->meshes[static_cast<std::size_t>(mesh)]->grid->voxel_size() == Approx(0.002));
  const sim::Vec3 ball = before.state.body_position(test::body_index(*before.model, "ball_a"));
  const std::uint64_t version = before.parameter_version;

  CHECK_FALSE(document.set_shape_sdf(shape, 0.0, 3.0, &error));  // a zero voxel is refused
  CHECK_FALSE(document.set_shape_sdf(before.model->shape_count, 0.004, 3.0, &error));
  REQUIRE(document.set_shape_sdf(shape, 0.004, 5.0, &error));
  settle(runner, version);
  const Snapshot& after = runner.latest();
  const sim::SdfGrid& grid = *after.model->meshes[static_cast<std::size_t>(after.model->shape_mesh[static_cast<std::size_t>(shape)])]->grid;
  CHECK(grid.voxel_size() == Approx(0.004));
  CHECK(grid.background() == Approx(5 * 0.004));
  // The running state carried over: the ball is where it was, not back at its start.
  CHECK((after.state.body_position(test::body_index(*after.model, "ball_a")) - ball).norm() < 1e-9);
  CHECK(document.spec().bodies[static_cast<std::size_t>(bowl)].shapes[0].sdf_voxel_size == 0.004);
  document.undo_stack()->undo();
  CHECK(document.spec().bodies[static_cast<std::size_t>(bowl)].shapes[0].sdf_voxel_size == 0.002);
}

TEST_CASE("opening a URDF gives an untitled scene with the robot, Save As writes a scene that reopens",
          "[app][document][robot]") {
  app_test::qt_app();
  SimRunner runner;
  SceneDocument document(runner);
  const std::filesystem::path urdf =
      std::filesystem::path(COULOMB_SOURCE_DIR) / "assets" / "robots" / "gripper_arm" / "urdf" / "gripper_arm.urdf";
  QString error;
  REQUIRE(document.open_file(QString::fromStdString(urdf.string()), &error));
  CHECK(document.path().isEmpty());  // untitled: Save asks where to write the scene
  CHECK(document.display_name() == QStringLiteral("gripper_arm"));
  CHECK_FALSE(document.modified());
  REQUIRE(document.spec().robots.size() == 1);
  REQUIRE(app_test::pump_until([&] { return runner.latest().model != nullptr; }));
  CHECK(runner.latest().model->body_count == int(document.spec().bodies.size()));
  // The scene tree lists the robot's bodies and joints under one node each.
  SceneTreePanel tree(document);
  tree.rebuild();
  QTreeWidgetItem* bodies = nullptr;
  for (int i = 0; i < tree.topLevelItemCount(); ++i)
    if (tree.topLevelItem(i)->text(0).startsWith(QStringLiteral("Bodies"))) bodies = tree.topLevelItem(i);
  REQUIRE(bodies != nullptr);
  REQUIRE(bodies->childCount() == 1);
  const int robot_bodies = document.spec().robots[0].body_count;
  CHECK(bodies->child(0)->text(0) == QStringLiteral("robot 'gripper_arm' (%1 bodies)").arg(robot_bodies));
  CHECK(bodies->child(0)->childCount() == robot_bodies);
  tree.select({ItemKind::Body, 1});
  CHECK(tree.selected() == ItemRef{ItemKind::Body, 1});

  QString save_error;
  CHECK_FALSE(document.save(&save_error));  // no file yet
  CHECK(save_error.contains(QStringLiteral("Save As")));

  const std::filesystem::path dir = std::filesystem::temp_directory_path() / "coulomb_test_app_urdf_open";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  const QString saved = QString::fromStdString((dir / "arm.xml").string());
  REQUIRE(document.save_as(saved, &error));
  CHECK(document.path() == saved);
  SimRunner runner2;
  SceneDocument reopened(runner2);
  REQUIRE(reopened.open_file(saved, &error));
  REQUIRE(reopened.spec().robots.size() == 1);
  CHECK(reopened.spec().robots[0].path == document.spec().robots[0].path);
  CHECK(reopened.spec().bodies.size() == document.spec().bodies.size());
  for (std::size_t b = 0; b < document.spec().bodies.size(); ++b)
    CHECK(reopened.spec().bodies[b].pose.pos == document.spec().bodies[b].pose.pos);
}

TEST_CASE("a joint's armature is a value edit: patched into the running model, bad drive values refused",
          "[app][document][armature]") {
  app_test::qt_app();
  // A driven hinge pendulum of our own: a 1 kg box on a 0.5 m arm, hinge along y.
  sim::SceneSpec spec;
  spec.name = "armature";
  sim::BodySpec bob;
  bob.name = "bob";
  bob.pose.pos = sim::Vec3(0, 0, 1);
  bob.mass = 1;
  sim::ShapeSpec box;
  box.type = sim::ShapeType::Box;
  box.half_extents = sim::Vec3(0.1, 0.05, 0.05);
  bob.shapes.push_back(box);
  spec.bodies.push_back(bob);
  sim::JointSpec hinge;
  hinge.name = "hinge";
  hinge.type = sim::JointType::Revolute;
  hinge.body_b = 0;
  hinge.frame_a.pos = sim::Vec3(0, 0, 1.5);
  hinge.frame_b.pos = sim::Vec3(0, 0, 0.5);
  hinge.axis = sim::Vec3::UnitY();
  hinge.drive = sim::DriveMode::Position;
  hinge.stiffness = 20;
  hinge.damping = 2;
  spec.joints.push_back(hinge);
  SimRunner runner;
  SceneDocument document(runner);
  QString error;
  REQUIRE(document.open_spec(spec, QString(), &error));
  REQUIRE(app_test::pump_until([&] { return runner.latest().model != nullptr; }));
  const sim::Real inertia_y = runner.latest().model->body_inertia[0].y();
  const std::uint64_t model_version = runner.latest().model_version;
  const std::uint64_t version = runner.latest().parameter_version;

  const PropertyKey armature{{ItemKind::Joint, 0}, "armature"};
  REQUIRE(is_parameter_only(document.spec(), armature));
  REQUIRE(document.set_property(armature, 0.25, &error));
  settle(runner, version);
  const Snapshot& s = runner.latest();
  CHECK(s.model->joint_armature[0] == sim::Real(0.25));
  CHECK(s.model->body_inertia[0].y() == Approx(inertia_y + 0.25).epsilon(1e-12));
  CHECK(s.model_version == model_version);  // patched in place, not replaced by a compile

  // A value the compiler would refuse is refused here with its message, and changes nothing.
  CHECK_FALSE(document.set_property({{ItemKind::Joint, 0}, "stiffness"}, 0.0, &error));
  CHECK(error.contains("position drive needs stiffness > 0"));
  CHECK(document.spec().joints[0].stiffness == sim::Real(20));
  CHECK_FALSE(document.set_property(armature, -1.0, &error));  // the table's range
  CHECK(document.spec().joints[0].armature == sim::Real(0.25));
}
