#include "gui/main_window.hpp"

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QCloseEvent>
#include <QDateTime>
#include <QDir>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QMimeData>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QSettings>
#include <QSplitter>
#include <QStatusBar>
#include <QTimer>
#include <QToolBar>
#include <QUndoStack>
#include <QVulkanInstance>

#include "cli/cli_common.hpp"
#include "gui/image_file.hpp"
#include "gui/import_messages_dialog.hpp"
#include "gui/property_panel.hpp"
#include "gui/save_decision.hpp"
#include "gui/friction_authoring.hpp"
#include "gui/scene_document.hpp"
#include "gui/scene_tree_panel.hpp"
#include "gui/sim_runner.hpp"
#include "gui/teleop_driver.hpp"
#include "gui/texture_authoring.hpp"
#include "gui/viewer_controller.hpp"
#include "gui/viewport_window.hpp"

namespace coulomb::gui {

namespace {

constexpr int kMaxRecent = 10;

// Overlay actions: object name, menu text, settings key.
struct OverlayAction {
  const char* name;
  const char* text;
};
constexpr OverlayAction kOverlays[] = {
    {"overlay_contacts", "Contact points"}, {"overlay_normals", "Contact normals"},
    {"overlay_forces", "Contact forces"},   {"overlay_joint_frames", "Joint frames"},
    {"overlay_body_frames", "Body frames"}, {"overlay_bounds", "Bounds"},
    {"overlay_sdf_slice", "SDF slice (selected mesh body)"}, {"overlay_sdf_samples", "SDF contacts by iterations"},
};

// The per-element colour field choices (View > Colour by): object name, menu text, field.
struct ColourFieldAction {
  const char* name;
  const char* text;
  render::ElementField field;
};
constexpr ColourFieldAction kColourFields[] = {
    {"color_by_none", "&Own colours", render::ElementField::None},
    {"color_by_speed", "&Speed", render::ElementField::Speed},
    {"color_by_contact_force", "&Contact force", render::ElementField::ContactForce},
    {"color_by_mass", "&Mass", render::ElementField::Mass},
    {"color_by_volumetric_strain", "&Volumetric strain J−1 (soft bodies)", render::ElementField::VolumetricStrain},
    {"color_by_max_stretch", "Max s&tretch (soft bodies, cloth)", render::ElementField::MaxStretch},
    {"color_by_von_mises", "Von Mises st&ress (soft bodies)", render::ElementField::VonMises},
    {"color_by_min_dihedral", "Element &quality: min dihedral angle (soft bodies)", render::ElementField::MinDihedral},
};

QString format_number(double v, int precision = 3) { return QString::number(v, 'g', precision); }

}  // namespace

MainWindow::MainWindow(MainWindowOptions options, QWidget* parent)
    : QMainWindow(parent), runner_(std::make_unique<SimRunner>()), options_(std::move(options)) {
  settings_ = options_.settings_file.isEmpty()
                  ? std::make_unique<QSettings>(QStringLiteral("Coulomb"), QStringLiteral("coulomb"))
                  : std::make_unique<QSettings>(options_.settings_file, QSettings::IniFormat);
  runner_->set_available_device(options_.device, options_.device_missing);
  if (options_.device && options_.start_on_cpu) runner_->use_device(false);
  document_ = std::make_unique<SceneDocument>(*runner_);
  teleop_ = new TeleopDriver(*runner_, this);
  setObjectName(QStringLiteral("coulomb_main_window"));
  setDockNestingEnabled(true);

  // The viewport: a QVulkanWindow in a container, or a placeholder that says why not.
  if (options_.vulkan && options_.vulkan->isValid()) {
    viewport_ = new ViewportWindow(*runner_, options_.vulkan);
    central_ = QWidget::createWindowContainer(viewport_, this);
    central_->setFocusPolicy(Qt::StrongFocus);
    central_->setMinimumSize(320, 240);
  } else {
    auto* label = new QLabel(tr("No Vulkan viewport (no Vulkan instance could be created).\n"
                                "The simulation, scene tree and properties work as usual."),
                             this);
    label->setAlignment(Qt::AlignCenter);
    label->setMinimumSize(320, 240);
    central_ = label;
  }
  central_->setObjectName(QStringLiteral("viewport"));
  setCentralWidget(central_);

  setAcceptDrops(true);
  viewer_ = new ViewerController(*this, *document_, *runner_, viewport_, *settings_);
  connect(viewer_, &ViewerController::message, this, [this](const QString& text) { statusBar()->showMessage(text, 8000); });
  build_actions();
  build_menus();
  viewer_->refresh_shortcuts();
  build_docks();
  build_status_bar();

  connect(document_.get(), &SceneDocument::scene_opened, this, [this] {
    tree_->rebuild();
    select({});
    update_title();
  });
  connect(document_.get(), &SceneDocument::structure_changed, this, [this] {
    tree_->rebuild();
    if (!item_exists(document_->spec(), selection_)) select({});
    else properties_->refresh_values();
  });
  connect(document_.get(), &SceneDocument::property_changed, this, [this](const PropertyKey& key) {
    if (key.item == properties_->item()) properties_->refresh_values();
    // Tree labels show μ, fixed flags and shape sizes.
    if (key.item.kind == ItemKind::Material || key.item.kind == ItemKind::Shape || key.name == "fixed") tree_->rebuild();
  });
  connect(document_.get(), &SceneDocument::modified_changed, this, [this](bool) { update_title(); });
  connect(document_.get(), &SceneDocument::path_changed, this, [this](const QString&) { update_title(); });

  if (viewport_) {
    connect(viewport_, &ViewportWindow::picked, this, [this](const ItemRef& item) {
      select(item);
      properties_->set_face_pick(viewport_->picked_render_mesh(), viewport_->picked_face(), viewport_->picked_point());
    });
    connect(viewport_, &ViewportWindow::command, this, [this](const QString& name) {
      if (QAction* a = action(name)) a->trigger();
      else if (name == "frame") action(QStringLiteral("frame_selected"))->trigger();
    });
    connect(viewport_, &ViewportWindow::render_failed, this, [this](const QString& message) {
      statusBar()->showMessage(tr("Viewport: %1").arg(message));
    });
    viewport_->set_teleop(teleop_);
    // The ImGui panels show the document's solver options and edit them like the property view.
    viewport_->set_solver_source([this] { return document_->spec().solver; },
                                 [this] { return static_cast<double>(document_->spec().dt); });
    // The ImGui Friction panel edits the document's materials through the property path.
    // Its texture tools (new, import, export, the brush) go through TextureAuthoring.
    texture_ = std::make_unique<TextureAuthoring>(*document_, *viewport_);
    viewport_->set_surface_tool(texture_->surface_tool());
    render::Overlays glyphs = viewport_->overlays();
    glyphs.grain_glyphs = ui::FrictionBrushView{}.glyphs;  // the panel's default
    viewport_->set_overlays(glyphs);
    viewport_->set_friction_authoring(
        [this](ui::FrictionPanelView& view, const sim::Workspace* workspace) {
          fill_friction_view(document_->spec(), workspace, view);
          texture_->fill(view);
        },
        [this](const ui::FrictionPanelEdits& edits) {
          QString error;
          for (const auto& [key, value] : friction_property_edits(edits))
            if (!document_->set_property(key, value, &error)) {
              statusBar()->showMessage(error, 5000);
              break;
            }
          if (std::string e = texture_->apply(edits); !e.empty()) statusBar()->showMessage(QString::fromStdString(e), 5000);
        });
    connect(viewport_, &ViewportWindow::solver_edited, this, [this](const sim::SolverOptions& edited) {
      QString error;
      if (!document_->set_solver_options(edited, &error)) statusBar()->showMessage(error, 5000);
    });
    connect(viewport_, &ViewportWindow::dt_edited, this, [this](double dt) {
      QString error;
      if (!document_->set_property({{ItemKind::Scene}, "dt"}, dt, &error)) statusBar()->showMessage(error, 5000);
    });
    connect(viewport_, &ViewportWindow::sdf_apply_requested, this, [this](int shape, double voxel, double band) {
      QString error;
      if (!document_->set_shape_sdf(shape, voxel, band, &error)) statusBar()->showMessage(error, 5000);
      else statusBar()->showMessage(tr("SDF grid applied: voxel %1 m, band %2 voxels").arg(voxel).arg(band), 5000);
    });
  }

  timer_ = new QTimer(this);
  timer_->setInterval(100);
  connect(timer_, &QTimer::timeout, this, &MainWindow::refresh_status);
  timer_->start();

  restore_settings();

  // The first scene: as asked, else the last one, else the default.
  if (!options_.scene_path.isEmpty()) {
    open_scene(options_.scene_path);
  } else {
    const QString last = settings_->value(QStringLiteral("files/last_scene")).toString();
    if (!(options_.restore_last_scene && !last.isEmpty() && QFileInfo::exists(last) && open_scene(last)))
      open_default_scene();
  }
  update_title();
}

MainWindow::~MainWindow() {
  timer_->stop();
  document_->disconnect(this);
  if (viewport_) viewport_->set_teleop(nullptr);
  // The viewport and panels refer to the runner and the document: they go first.
  delete central_;
  central_ = nullptr;
  viewport_ = nullptr;
  delete scene_dock_;
  scene_dock_ = nullptr;
  document_.reset();
  runner_.reset();
}

QAction* MainWindow::action(const QString& name) const { return findChild<QAction*>(name); }

void MainWindow::build_actions() {
  auto make = [this](const QString& name, const QString& text, const QKeySequence& key = {}) {
    auto* a = new QAction(text, this);
    a->setObjectName(name);
    if (!key.isEmpty()) a->setShortcut(key);
    addAction(a);  // shortcuts work wherever the focus is in the window
    return a;
  };
  QStyle* s = style();

  QAction* open = make("open", tr("&Open scene or robot (URDF, MJCF)…"), QKeySequence::Open);
  open->setIcon(s->standardIcon(QStyle::SP_DialogOpenButton));
  connect(open, &QAction::triggered, this, [this] {
    QString dir = settings_->value(QStringLiteral("files/last_dir")).toString();
    if (dir.isEmpty()) {
      auto workcell = resolve_scene("workcell");
      if (workcell) dir = QFileInfo(QString::fromStdString(*workcell)).absolutePath();
    }
    const QString path = QFileDialog::getOpenFileName(this, tr("Open scene"), dir, tr("Scenes and robots (*.xml *.urdf *.mjcf);;Scenes (*.xml);;URDF robots (*.urdf);;All files (*)"));
    if (!path.isEmpty()) open_scene(path);
  });

  QAction* save_action = make("save", tr("&Save"), QKeySequence::Save);
  save_action->setIcon(s->standardIcon(QStyle::SP_DialogSaveButton));
  connect(save_action, &QAction::triggered, this, [this] { save(); });
  QAction* save_as_action = make("save_as", tr("Save &As…"), QKeySequence(QStringLiteral("Ctrl+Shift+S")));
  connect(save_as_action, &QAction::triggered, this, [this] { save_as(QString()); });
  QAction* quit = make("quit", tr("&Quit"), QKeySequence(QStringLiteral("Ctrl+Q")));
  connect(quit, &QAction::triggered, this, &QWidget::close);

  QAction* undo = document_->undo_stack()->createUndoAction(this, tr("&Undo"));
  undo->setObjectName(QStringLiteral("undo"));
  undo->setShortcut(QKeySequence::Undo);
  undo->setIcon(s->standardIcon(QStyle::SP_ArrowBack));
  addAction(undo);
  QAction* redo = document_->undo_stack()->createRedoAction(this, tr("&Redo"));
  redo->setObjectName(QStringLiteral("redo"));
  redo->setShortcuts({QKeySequence(QStringLiteral("Ctrl+Shift+Z")), QKeySequence(QStringLiteral("Ctrl+Y"))});
  redo->setIcon(s->standardIcon(QStyle::SP_ArrowForward));
  addAction(redo);

  QAction* play = make("play", tr("&Play / Pause"), QKeySequence(Qt::Key_Space));
  play->setCheckable(true);
  play->setIcon(s->standardIcon(QStyle::SP_MediaPlay));
  connect(play, &QAction::triggered, this, [this](bool checked) {
    runner_->set_playing(checked);
    state_label_->setText(checked ? tr("playing") : tr("paused"));
  });
  QAction* step = make("step", tr("Single &step"), QKeySequence(Qt::Key_S));
  step->setIcon(s->standardIcon(QStyle::SP_MediaSkipForward));
  connect(step, &QAction::triggered, this, [this] {
    action(QStringLiteral("play"))->setChecked(false);
    runner_->single_step();
  });
  QAction* reset = make("reset", tr("&Reset"), QKeySequence(Qt::Key_R));
  reset->setIcon(s->standardIcon(QStyle::SP_MediaSkipBackward));
  connect(reset, &QAction::triggered, this, [this] { runner_->reset(); });

  // Teleoperation (teleop_driver.hpp): keys in the viewport, the target gizmo, a gamepad.
  QAction* teleop = make("teleop", tr("&Teleoperate robot"), QKeySequence(Qt::Key_T));
  teleop->setCheckable(true);
  teleop->setToolTip(tr("Drive the robot's end effector: arrows/PgUp/PgDn move, U/O I/K J/L turn, G gripper, "
                        "drag the gizmo, or a gamepad"));
  connect(teleop, &QAction::toggled, this, [this](bool on) { teleop_->set_enabled(on); });
  connect(teleop_, &TeleopDriver::enabled_changed, this, [this](bool on) {
    QAction* a = action(QStringLiteral("teleop"));
    if (a->isChecked() != on) {
      const QSignalBlocker block(a);
      a->setChecked(on);
    }
  });
  connect(teleop_, &TeleopDriver::status_message, this, [this](const QString& text) { statusBar()->showMessage(text, 5000); });
  QAction* teleop_selected = make("teleop_selected", tr("Teleoperate the &selected body"));
  connect(teleop_selected, &QAction::triggered, this, [this] {
    int body = -1;
    if (selection_.kind == ItemKind::Body || (selection_.kind == ItemKind::Shape && selection_.index >= 0)) body = selection_.index;
    if (body < 0) {
      statusBar()->showMessage(tr("Select a body of the robot first"), 5000);
      return;
    }
    teleop_->set_end_effector(body);
    action(QStringLiteral("teleop"))->setChecked(true);
  });

  pacing_ = new QActionGroup(this);
  QAction* real_time = make("real_time", tr("Real &time"));
  real_time->setCheckable(true);
  real_time->setChecked(true);
  QAction* fast = make("as_fast_as_possible", tr("As &fast as possible"));
  fast->setCheckable(true);
  pacing_->addAction(real_time);
  pacing_->addAction(fast);
  connect(real_time, &QAction::toggled, this, [this](bool on) { runner_->set_real_time(on); });

  for (const OverlayAction& o : kOverlays) {
    QAction* a = make(QString::fromLatin1(o.name), tr(o.text));
    a->setCheckable(true);
    connect(a, &QAction::toggled, this, [this] { apply_overlays(); });
  }
  auto* colour_fields = new QActionGroup(this);
  for (const ColourFieldAction& c : kColourFields) {
    QAction* a = make(QString::fromLatin1(c.name), tr(c.text));
    a->setCheckable(true);
    a->setChecked(c.field == render::ElementField::None);
    colour_fields->addAction(a);
    connect(a, &QAction::toggled, this, [this] { apply_overlays(); });
  }
  QAction* panels = make("debug_panels", tr("&Debug panels (solver, convergence, stats, joints)"), QKeySequence(Qt::Key_F2));
  panels->setCheckable(true);
  panels->setChecked(true);
  connect(panels, &QAction::toggled, this, [this](bool on) {
    if (viewport_) viewport_->set_panels_visible(on);
  });
  // Ctrl+P as in MuJoCo's simulate (Ctrl+Shift+S is Save As).
  QAction* screenshot = make("save_screenshot", tr("Save &screenshot…"), QKeySequence(QStringLiteral("Ctrl+P")));
  connect(screenshot, &QAction::triggered, this, [this] { save_screenshot(QString()); });
  QAction* reset_camera = make("reset_camera", tr("Reset &camera"), QKeySequence(QStringLiteral("Home")));
  connect(reset_camera, &QAction::triggered, this, [this] {
    if (viewport_) viewport_->reset_camera();
  });
  QAction* frame = make("frame_selected", tr("&Frame selected"), QKeySequence(Qt::Key_F));
  connect(frame, &QAction::triggered, this, [this] {
    if (viewport_) viewport_->frame_item(selection_);
  });
}

void MainWindow::build_menus() {
  QMenu* file = menuBar()->addMenu(tr("&File"));
  file->addAction(action("open"));
  QAction* free_base = file->addAction(tr("URDF robots open with a &free base"));
  free_base->setObjectName(QStringLiteral("urdf_free_base"));
  free_base->setCheckable(true);
  free_base->setToolTip(tr("A URDF opened by itself gets a free root link (a mobile or floating robot) instead of a fixed one"));
  connect(free_base, &QAction::toggled, this, [this](bool on) {
    sim::DescriptionOptions o = document_->description_options();
    o.urdf_free_base = on;
    document_->set_description_options(o);
  });
  QMenu* shipped = file->addMenu(tr("Open &example"));
  for (const std::string& name : shipped_scenes()) {
    QAction* a = shipped->addAction(QString::fromStdString(name));
    connect(a, &QAction::triggered, this, [this, name] {
      if (auto path = resolve_scene(name)) open_scene(QString::fromStdString(*path));
    });
  }
  recent_menu_ = file->addMenu(tr("&Recent files"));
  file->addSeparator();
  file->addAction(action("save"));
  file->addAction(action("save_as"));
  file->addSeparator();
  file->addAction(action("quit"));

  QMenu* edit = menuBar()->addMenu(tr("&Edit"));
  edit->addAction(action("undo"));
  edit->addAction(action("redo"));

  QMenu* simulation = menuBar()->addMenu(tr("&Simulation"));
  simulation->addAction(action("play"));
  simulation->addAction(action("step"));
  simulation->addAction(action("reset"));
  simulation->addSeparator();
  simulation->addAction(action("real_time"));
  simulation->addAction(action("as_fast_as_possible"));
  simulation->addSeparator();
  simulation->addAction(action("teleop"));
  simulation->addAction(action("teleop_selected"));

  QMenu* view = menuBar()->addMenu(tr("&View"));
  for (const OverlayAction& o : kOverlays) view->addAction(action(QString::fromLatin1(o.name)));
  QMenu* colour_by = view->addMenu(tr("C&olour by"));
  for (const ColourFieldAction& c : kColourFields) colour_by->addAction(action(QString::fromLatin1(c.name)));
  view->addSeparator();
  view->addAction(action("debug_panels"));
  view->addSeparator();
  view->addAction(action("save_screenshot"));
  view->addAction(action("reset_camera"));
  view->addAction(action("frame_selected"));
  view->addAction(tr("Import messages..."), this, [this] { show_import_messages(true); });

  QToolBar* tools = addToolBar(tr("Main"));
  tools->setObjectName(QStringLiteral("main_toolbar"));
  tools->addAction(action("open"));
  tools->addAction(action("save"));
  tools->addSeparator();
  tools->addAction(action("undo"));
  tools->addAction(action("redo"));
  tools->addSeparator();
  tools->addAction(action("play"));
  tools->addAction(action("step"));
  tools->addAction(action("reset"));
  tools->addAction(action("real_time"));
  tools->addAction(action("as_fast_as_possible"));
  tools->addSeparator();
  tools->addAction(action("frame_selected"));
  tools->addAction(action("reset_camera"));
  viewer_->add_to_menus(simulation, view);
  view->addSeparator();
  view->addAction(tools->toggleViewAction());
  rebuild_recent_menu();
}

void MainWindow::build_docks() {
  scene_dock_ = new QDockWidget(tr("Scene"), this);
  scene_dock_->setObjectName(QStringLiteral("scene_dock"));
  auto* splitter = new QSplitter(Qt::Vertical, scene_dock_);
  tree_ = new SceneTreePanel(*document_, splitter);
  properties_ = new PropertyPanel(*document_, splitter);
  splitter->addWidget(tree_);
  splitter->addWidget(properties_);
  splitter->setStretchFactor(0, 1);
  splitter->setStretchFactor(1, 1);
  scene_dock_->setWidget(splitter);
  addDockWidget(Qt::LeftDockWidgetArea, scene_dock_);
  menuBar()->actions().last()->menu()->addAction(scene_dock_->toggleViewAction());

  connect(tree_, &SceneTreePanel::item_selected, this, [this](const ItemRef& item) { select(item); });
  connect(tree_, &SceneTreePanel::frame_requested, this, [this](const ItemRef& item) {
    select(item);
    if (viewport_) viewport_->frame_item(item);
  });
}

void MainWindow::build_status_bar() {
  auto label = [this](const QString& tip) {
    auto* l = new QLabel(this);
    l->setToolTip(tip);
    l->setMinimumWidth(90);
    statusBar()->addPermanentWidget(l);
    return l;
  };
  state_label_ = label(tr("Simulation state"));
  time_label_ = label(tr("Simulated time"));
  rtf_label_ = label(tr("Real-time factor: simulated seconds per wall-clock second"));
  ms_label_ = label(tr("Wall time of one step"));
  newton_label_ = label(tr("Iterations of the last step's solver (Newton iterations or PGS sweeps)"));
  residual_label_ = label(tr("Largest final residual of the last step (normal, friction, bilateral rows)"));
  colour_label_ = label(tr("The colour field's range: dark blue at the low end, yellow at the high end (viridis)"));
  refresh_status();
}

void MainWindow::select(const ItemRef& item) {
  selection_ = item;
  tree_->select(item);
  properties_->show_item(item);
  if (viewport_) viewport_->set_selection(item);
}

void MainWindow::refresh_status() {
  const Snapshot& s = runner_->latest();
  if (viewport_ && s.sequence != last_sequence_) viewport_->requestUpdate();
  last_sequence_ = s.sequence;
  if (!s.model) {
    state_label_->setText(tr("no scene"));
    return;
  }
  QAction* play = action(QStringLiteral("play"));
  if (play->isChecked() != runner_->playing_requested()) play->setChecked(runner_->playing_requested());
  state_label_->setText(s.playing ? tr("playing") : tr("paused"));
  time_label_->setText(tr("t = %1 s").arg(s.state.time, 0, 'f', 3));
  rtf_label_->setText(s.playing ? tr("%1× real time").arg(format_number(s.real_time_factor)) : tr("– × real time"));
  ms_label_->setText(tr("%1 ms/step").arg(format_number(s.ms_per_step)));
  newton_label_->setText(tr("%1 %2")
                             .arg(s.workspace.trace.kind == sim::SolverKind::ProjectedGaussSeidel ? tr("PGS")
                                  : s.workspace.trace.kind == sim::SolverKind::DualAscent       ? tr("dual")
                                  : s.workspace.trace.kind == sim::SolverKind::PrimalDescent    ? tr("primal")
                                                                                                : tr("Newton"))
                             .arg(s.stepped ? s.report.newton_iterations : 0));
  residual_label_->setText(tr("residual %1").arg(s.stepped ? format_number(s.max_residual) : QStringLiteral("–")));
  if (s.message != last_message_.toStdString()) {
    last_message_ = QString::fromStdString(s.message);
    if (!last_message_.isEmpty()) statusBar()->showMessage(tr("Paused: %1").arg(last_message_));
  }
  if (viewport_ && viewport_->overlays().element_field != render::ElementField::None) {
    const render::ElementField field = viewport_->overlays().element_field;
    const render::FieldRange r = viewport_->element_range();
    colour_label_->setText(tr("%1: %2 … %3 %4")
                               .arg(QString::fromLatin1(render::element_field_name(field)), format_number(r.lo),
                                    format_number(r.hi), QString::fromLatin1(render::element_field_unit(field))));
  } else {
    colour_label_->clear();
  }
  if (viewport_) properties_->set_field(viewport_->overlays().element_field);
  properties_->refresh_live(s);
}

void MainWindow::update_title() {
  const QString name = document_->has_scene() ? document_->display_name() : tr("no scene");
  setWindowTitle(tr("%1[*] — Coulomb").arg(name));
  setWindowModified(document_->modified());
}

void MainWindow::apply_overlays() {
  render::Overlays o = viewport_ ? viewport_->overlays() : render::Overlays{};  // keeps the slice's axis and position
  o.contact_points = action(QStringLiteral("overlay_contacts"))->isChecked();
  o.contact_normals = action(QStringLiteral("overlay_normals"))->isChecked();
  o.normal_forces = o.friction_forces = o.friction_cones = action(QStringLiteral("overlay_forces"))->isChecked();
  o.joint_frames = action(QStringLiteral("overlay_joint_frames"))->isChecked();
  o.body_frames = action(QStringLiteral("overlay_body_frames"))->isChecked();
  o.bounding_boxes = action(QStringLiteral("overlay_bounds"))->isChecked();
  for (const ColourFieldAction& c : kColourFields)
    if (action(QString::fromLatin1(c.name))->isChecked()) o.element_field = c.field;
  o.sdf_slice = action(QStringLiteral("overlay_sdf_slice"))->isChecked();
  o.sdf_samples = action(QStringLiteral("overlay_sdf_samples"))->isChecked();
  if (viewport_) viewport_->set_overlays(o);
}

void MainWindow::report_error(const QString& title, const QString& text) {
  statusBar()->showMessage(title + QStringLiteral(": ") + text);
  if (error_reporter_) error_reporter_(title, text);
  else QMessageBox::critical(this, title, text);
}

void MainWindow::open_default_scene() {
  auto path = resolve_scene("workcell");
  if (path) open_scene(QString::fromStdString(*path));
}

bool MainWindow::open_scene(const QString& path) {
  if (!maybe_save()) return false;
  QString error;
  if (!document_->open_file(path, &error)) {
    report_error(tr("Cannot open scene"), error);
    return false;
  }
  action(QStringLiteral("play"))->setChecked(false);
  add_recent(QFileInfo(path).absoluteFilePath());
  settings_->setValue(QStringLiteral("files/last_scene"), QFileInfo(path).absoluteFilePath());
  settings_->setValue(QStringLiteral("files/last_dir"), QFileInfo(path).absolutePath());
  if (document_->open_note().isEmpty())
    statusBar()->showMessage(tr("Opened %1").arg(path), 5000);
  else
    statusBar()->showMessage(tr("Opened %1; %2").arg(path, document_->open_note()), 10000);
  show_import_messages(false);
  return true;
}

void MainWindow::show_import_messages(bool always) {
  if (!import_messages_) import_messages_ = new ImportMessagesDialog(this);
  const bool any = import_messages_->set_scene(document_->spec(), document_->open_warnings());
  if (any || always) import_messages_->show();
  else import_messages_->hide();
}

bool MainWindow::confirm_save(const QString& path, bool& replace_read_only, QString& note) {
  const SavePlan plan = plan_save(path.toStdString());
  if (!plan.error.empty()) {
    report_error(tr("Cannot save scene"), QString::fromStdString(plan.error));
    return false;
  }
  for (const std::string& question : plan.questions) {
    const QString text = QString::fromStdString(question);
    const bool yes = confirm_prompt_ ? confirm_prompt_(tr("Save scene"), text)
                                     : QMessageBox::question(this, tr("Save scene"), text) == QMessageBox::Yes;
    if (!yes) {
      statusBar()->showMessage(tr("Not saved"), 5000);
      return false;
    }
  }
  replace_read_only = plan.replace_read_only;
  for (const std::string& n : plan.notes) note += QStringLiteral(" (") + QString::fromStdString(n) + QStringLiteral(")");
  return true;
}

bool MainWindow::save() {
  if (document_->path().isEmpty()) return save_as(QString());
  bool replace_read_only = false;
  QString error, note;
  if (!confirm_save(document_->path(), replace_read_only, note)) return false;
  if (!document_->save(&error, replace_read_only)) {
    report_error(tr("Cannot save scene"), error);
    return false;
  }
  statusBar()->showMessage(tr("Saved %1").arg(document_->path()) + note, 5000);
  return true;
}

bool MainWindow::save_as(const QString& requested) {
  QString path = requested;
  if (path.isEmpty()) {
    // A user folder, never the shipped assets (viewer_controller.hpp).
    const QString name = QFileInfo(document_->display_name()).completeBaseName();
    const QString start = QDir(viewer_->scene_folder()).filePath((name.isEmpty() ? QStringLiteral("scene") : name) +
                                                                 QStringLiteral(".xml"));
    path = QFileDialog::getSaveFileName(this, tr("Save scene as"), start, tr("Scenes (*.xml)"));
    if (path.isEmpty()) return false;
    if (QFileInfo(path).suffix().isEmpty()) path += QStringLiteral(".xml");
  }
  bool replace_read_only = false;
  QString error, note;
  if (!confirm_save(path, replace_read_only, note)) return false;
  if (!document_->save_as(path, &error, replace_read_only)) {
    report_error(tr("Cannot save scene"), error);
    return false;
  }
  add_recent(QFileInfo(path).absoluteFilePath());
  settings_->setValue(QStringLiteral("files/last_scene"), QFileInfo(path).absoluteFilePath());
  settings_->setValue(QStringLiteral("files/last_dir"), QFileInfo(path).absolutePath());
  settings_->setValue(QStringLiteral("files/last_save_dir"), QFileInfo(path).absolutePath());
  statusBar()->showMessage(tr("Saved %1").arg(path) + note, 5000);
  return true;
}

QStringList MainWindow::recent_files() const { return settings_->value(QStringLiteral("files/recent")).toStringList(); }

void MainWindow::add_recent(const QString& path) {
  QStringList recent = recent_files();
  recent.removeAll(path);
  recent.prepend(path);
  while (recent.size() > kMaxRecent) recent.removeLast();
  settings_->setValue(QStringLiteral("files/recent"), recent);
  rebuild_recent_menu();
}

void MainWindow::rebuild_recent_menu() {
  if (!recent_menu_) return;
  recent_menu_->clear();
  const QStringList recent = recent_files();
  for (int i = 0; i < recent.size(); ++i) {
    const QString path = recent[i];
    QAction* a = recent_menu_->addAction(QStringLiteral("&%1  %2").arg(i + 1).arg(QFileInfo(path).fileName()));
    a->setToolTip(path);
    a->setStatusTip(path);
    connect(a, &QAction::triggered, this, [this, path] { open_scene(path); });
  }
  if (!recent.isEmpty()) {
    recent_menu_->addSeparator();
    connect(recent_menu_->addAction(tr("Clear list")), &QAction::triggered, this, [this] {
      settings_->setValue(QStringLiteral("files/recent"), QStringList());
      rebuild_recent_menu();
    });
  }
  recent_menu_->setEnabled(!recent.isEmpty());
}

bool MainWindow::maybe_save() {
  if (!document_->has_scene() || !document_->modified()) return true;
  CloseChoice choice = CloseChoice::Cancel;
  if (close_prompt_) {
    choice = close_prompt_();
  } else {
    const auto answer = QMessageBox::warning(
        this, tr("Unsaved changes"), tr("%1 has unsaved edits. Save them?").arg(document_->display_name()),
        QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, QMessageBox::Save);
    choice = answer == QMessageBox::Save      ? CloseChoice::Save
             : answer == QMessageBox::Discard ? CloseChoice::Discard
                                              : CloseChoice::Cancel;
  }
  switch (choice) {
    case CloseChoice::Save: return save();
    case CloseChoice::Discard: return true;
    case CloseChoice::Cancel: return false;
  }
  return false;
}

void MainWindow::closeEvent(QCloseEvent* event) {
  if (!maybe_save()) {
    event->ignore();
    return;
  }
  save_settings();
  runner_->set_playing(false);
  event->accept();
}

void MainWindow::restore_settings() {
  QSettings& s = *settings_;
  if (const QByteArray g = s.value(QStringLiteral("window/geometry")).toByteArray(); !g.isEmpty()) restoreGeometry(g);
  else resize(1280, 800);
  if (const QByteArray st = s.value(QStringLiteral("window/state")).toByteArray(); !st.isEmpty()) restoreState(st);
  else resizeDocks({scene_dock_}, {340}, Qt::Horizontal);
  const bool real_time = s.value(QStringLiteral("preferences/real_time"), true).toBool();
  action(real_time ? QStringLiteral("real_time") : QStringLiteral("as_fast_as_possible"))->setChecked(true);
  runner_->set_real_time(real_time);
  for (const OverlayAction& o : kOverlays)
    action(QString::fromLatin1(o.name))->setChecked(s.value(QStringLiteral("preferences/") + QString::fromLatin1(o.name), false).toBool());
  action(QStringLiteral("debug_panels"))->setChecked(s.value(QStringLiteral("preferences/debug_panels"), true).toBool());
  const QString colour = s.value(QStringLiteral("preferences/color_by"), QStringLiteral("color_by_none")).toString();
  for (const ColourFieldAction& c : kColourFields)
    if (colour == QLatin1String(c.name)) action(colour)->setChecked(true);
  if (viewport_) viewport_->set_panels_visible(action(QStringLiteral("debug_panels"))->isChecked());
  apply_overlays();
}

void MainWindow::save_settings() {
  QSettings& s = *settings_;
  s.setValue(QStringLiteral("window/geometry"), saveGeometry());
  s.setValue(QStringLiteral("window/state"), saveState());
  s.setValue(QStringLiteral("preferences/real_time"), action(QStringLiteral("real_time"))->isChecked());
  s.setValue(QStringLiteral("preferences/debug_panels"), action(QStringLiteral("debug_panels"))->isChecked());
  for (const OverlayAction& o : kOverlays)
    s.setValue(QStringLiteral("preferences/") + QString::fromLatin1(o.name), action(QString::fromLatin1(o.name))->isChecked());
  for (const ColourFieldAction& c : kColourFields)
    if (action(QString::fromLatin1(c.name))->isChecked()) s.setValue(QStringLiteral("preferences/color_by"), QString::fromLatin1(c.name));
  if (document_->has_scene() && !document_->path().isEmpty())
    s.setValue(QStringLiteral("files/last_scene"), QFileInfo(document_->path()).absoluteFilePath());
  s.sync();
}

bool MainWindow::save_screenshot(const QString& requested) {
  const QImage image = viewport_ ? viewport_->screenshot() : QImage();
  if (image.isNull()) {
    report_error(tr("Cannot save a screenshot"), tr("The viewport cannot read its frames back on this system."));
    return false;
  }
  QString path = requested;
  if (path.isEmpty()) {
    const QString name = document_->has_scene() ? QFileInfo(document_->display_name()).completeBaseName() : QStringLiteral("coulomb");
    const QString start = QDir(viewer_->screenshot_folder())
                              .filePath(name + QStringLiteral("-") +
                                        QDateTime::currentDateTime().toString(QStringLiteral("yyyyMMdd-HHmmss")) +
                                        QStringLiteral(".png"));
    path = QFileDialog::getSaveFileName(this, tr("Save screenshot"), start, tr("PNG images (*.png)"));
    if (path.isEmpty()) return false;
    settings_->setValue(QStringLiteral("files/last_screenshot_dir"), QFileInfo(path).absolutePath());
  }
  if (const QString error = save_png_atomically(image, path); !error.isEmpty()) {
    report_error(tr("Cannot save a screenshot"), error);
    return false;
  }
  statusBar()->showMessage(tr("Saved screenshot %1").arg(path), 5000);
  return true;
}

namespace {

// The first local file among the dragged URLs that Coulomb opens (scene, URDF or MJCF: .xml, .urdf).
QString droppable_file(const QMimeData* mime) {
  if (!mime || !mime->hasUrls()) return {};
  for (const QUrl& url : mime->urls()) {
    if (!url.isLocalFile()) continue;
    const QFileInfo info(url.toLocalFile());
    const QString suffix = info.suffix().toLower();
    if (info.isFile() && (suffix == QLatin1String("xml") || suffix == QLatin1String("urdf") || suffix == QLatin1String("mjcf")))
      return info.absoluteFilePath();
  }
  return {};
}

}  // namespace

void MainWindow::dragEnterEvent(QDragEnterEvent* event) {
  if (!droppable_file(event->mimeData()).isEmpty()) event->acceptProposedAction();
  else event->ignore();
}

void MainWindow::dropEvent(QDropEvent* event) {
  const QString path = droppable_file(event->mimeData());
  if (path.isEmpty()) {
    event->ignore();
    return;
  }
  event->acceptProposedAction();
  // Opened after the drop returns (the source application is not kept waiting on a dialog).
  QTimer::singleShot(0, this, [this, path] { open_scene(path); });
}

}  // namespace coulomb::gui

