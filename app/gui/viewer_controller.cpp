#include "gui/viewer_controller.hpp"

#include <QAction>
#include <QDateTime>
#include <QDir>
#include <QFileInfo>
#include <QKeySequence>
#include <QMainWindow>
#include <QMenu>
#include <QSettings>
#include <QStandardPaths>

#include "cli/cli_common.hpp"
#include "gui/scene_document.hpp"
#include "gui/sim_runner.hpp"
#include "gui/video_recorder.hpp"
#include "gui/viewport_window.hpp"
#include "sim/keyframe.hpp"

namespace coulomb::gui {

namespace {

// What the viewport does with the mouse and the keys it handles itself (not menu actions).
const ui::ShortcutRow kViewportRows[] = {
    {"", "Viewport: mouse"},
    {"Left drag", "orbit the camera"},
    {"Middle drag, Shift+left drag", "pan"},
    {"Wheel", "zoom"},
    {"Double click", "select the body or particle under the cursor"},
    {"Ctrl+left drag", "pull the body or particle with a spring (perturbation)"},
    {"Ctrl+right drag", "turn the body (rotational perturbation)"},
    {"Left drag on the gizmo", "move the teleoperation target (teleoperation on)"},
    {"", "Viewport: teleoperation keys (teleoperation on)"},
    {"Arrows", "move the target in x and y"},
    {"Page Up / Page Down", "move the target up and down"},
    {"U O, I K, J L", "roll, pitch, yaw the target"},
    {"G", "close / open the gripper"},
    {"M", "move the hand above the nearest object (pre-grasp)"},
    {"", "Panels"},
    {"Click a panel's title arrow", "open or collapse it (panels are docked at the sides)"},
};

QString shortcut_text(const QAction* a) {
  QStringList keys;
  for (const QKeySequence& k : a->shortcuts()) keys << k.toString(QKeySequence::NativeText);
  return keys.join(QStringLiteral(", "));
}

}  // namespace

ViewerController::ViewerController(QMainWindow& window, SceneDocument& document, SimRunner& runner,
                                   ViewportWindow* viewport, QSettings& settings)
    : QObject(&window), window_(window), document_(document), runner_(runner), viewport_(viewport), settings_(settings) {
  auto make = [this](const char* name, const QString& text, const QKeySequence& key, bool checkable) {
    auto* a = new QAction(text, &window_);
    a->setObjectName(QString::fromLatin1(name));
    if (!key.isEmpty()) a->setShortcut(key);
    a->setCheckable(checkable);
    window_.addAction(a);
    return a;
  };
  QAction* help = make("help", tr("Keyboard and mouse &help"), QKeySequence(Qt::Key_F1), true);
  QAction* wireframe = make("wireframe", tr("&Wireframe"), QKeySequence(QStringLiteral("Ctrl+Shift+W")), true);
  QAction* transparent = make("transparent", tr("&Transparent shapes"), QKeySequence(QStringLiteral("Ctrl+Shift+T")), true);
  QAction* shadows = make("shadows", tr("S&hadows"), QKeySequence(), true);
  QAction* surface_particles = make("surface_particles", tr("&Particles on soft and cloth surfaces"), QKeySequence(), true);
  // MuJoCo's geom group toggles, for the two groups robot files carry.
  QAction* visuals = make("visual_geometry", tr("&Visual geometry"), QKeySequence(QStringLiteral("Ctrl+Shift+G")), true);
  QAction* collision = make("collision_geometry", tr("&Collision geometry"), QKeySequence(QStringLiteral("Ctrl+Shift+C")), true);
  visuals->setChecked(true);
  QAction* record = make("record_video", tr("Record &video"), QKeySequence(QStringLiteral("Ctrl+Shift+V")), true);
  QAction* back = make("history_back", tr("History: step &back"), QKeySequence(Qt::Key_BracketLeft), false);
  QAction* forward = make("history_forward", tr("History: step &forward"), QKeySequence(Qt::Key_BracketRight), false);
  QAction* capture_next = make("capture_next", tr("Keep the next step's &solve (Solve capture panel)"), QKeySequence(Qt::Key_F9), false);
  shadows->setChecked(settings_.value(QStringLiteral("preferences/shadows"), true).toBool());

  recorder_ = new VideoRecorder(
      [this] { return viewport_ ? viewport_->screenshot() : QImage(); },
      [this]() -> std::uint64_t { return runner_.published_count() ^ (viewport_ ? viewport_->frames_rendered() << 32 : 0); },
      this);
  connect(recorder_, &VideoRecorder::finished, this, [this, record](bool, const QString& text) {
    record->setChecked(false);
    emit message(text);
  });

  connect(back, &QAction::triggered, this, [this] { runner_.history_step(-1); });
  connect(capture_next, &QAction::triggered, this, [this] { runner_.capture_next_step(); });
  connect(forward, &QAction::triggered, this, [this] { runner_.history_step(1); });
  connect(&document_, &SceneDocument::scene_opened, this, &ViewerController::sync_keyframe_names);
  connect(&document_, &SceneDocument::keyframes_changed, this, &ViewerController::sync_keyframe_names);
  connect(record, &QAction::toggled, this, [this](bool on) {
    if (on && !recorder_->recording()) {
      QString error;
      if (!start_recording(QString(), 0, false, 0, &error)) emit message(tr("Cannot record: %1").arg(error));
    } else if (!on && recorder_->recording()) {
      stop_recording();
    }
  });
  if (!viewport_) return;
  viewport_->set_recorder(recorder_);
  // Anti-aliasing: the user's choice (View panel) where the device has it; the swapchain is made
  // with it when the window is first shown.
  const int msaa = settings_.value(QStringLiteral("preferences/msaa"), 4).toInt();
  viewport_->set_msaa_choice(msaa);
  if (viewport_->supportedSampleCounts().contains(msaa)) viewport_->setSampleCount(msaa);
  auto apply_display = [this, wireframe, transparent, shadows, surface_particles, visuals, collision] {
    RenderSettings r;
    r.wireframe = wireframe->isChecked();
    r.transparent = transparent->isChecked();
    r.shadows = shadows->isChecked();
    r.surface_particles = surface_particles->isChecked();
    r.geometry.visuals = visuals->isChecked();
    r.geometry.collision = collision->isChecked();
    viewport_->set_render_settings(r);
    settings_.setValue(QStringLiteral("preferences/shadows"), r.shadows);
  };
  for (QAction* a : {wireframe, transparent, shadows, surface_particles, visuals, collision}) connect(a, &QAction::toggled, this, apply_display);
  apply_display();
  connect(help, &QAction::toggled, viewport_, &ViewportWindow::set_help_open);
  connect(viewport_, &ViewportWindow::help_toggled, help, &QAction::setChecked);
  // The View panel's switches keep the actions' check marks in step.
  connect(viewport_, &ViewportWindow::render_settings_changed, this,
          [wireframe, transparent, shadows, surface_particles, visuals, collision](const RenderSettings& r) {
    for (auto [a, on] : {std::pair{wireframe, r.wireframe}, std::pair{transparent, r.transparent}, std::pair{shadows, r.shadows},
                         std::pair{surface_particles, r.surface_particles},
                         std::pair{visuals, r.geometry.visuals}, std::pair{collision, r.geometry.collision}})
      if (a->isChecked() != on) a->setChecked(on);
  });
  connect(viewport_, &ViewportWindow::keyframe_save_requested, this, [this](const QString& name) {
    QString error;
    if (!save_keyframe(name, &error)) emit message(error);
  });
  connect(viewport_, &ViewportWindow::keyframe_restore_requested, this, [this](int index) {
    QString error;
    if (!restore_keyframe(index, &error)) emit message(error);
  });
  connect(viewport_, &ViewportWindow::keyframe_delete_requested, this, [this](int index) { delete_keyframe(index); });
  connect(viewport_, &ViewportWindow::record_requested, this, [this, record](bool start, int seconds, bool mp4) {
    if (!start) {
      stop_recording();
      return;
    }
    QString error;
    if (start_recording(QString(), seconds, mp4, 0, &error)) record->setChecked(true);
    else emit message(tr("Cannot record: %1").arg(error));
  });
  connect(viewport_, &ViewportWindow::msaa_requested, this, [this](int samples) {
    settings_.setValue(QStringLiteral("preferences/msaa"), samples);
    emit message(tr("Anti-aliasing %1x: applies when Coulomb next starts").arg(samples));
  });
}

ViewerController::~ViewerController() = default;

void ViewerController::add_to_menus(QMenu* simulation, QMenu* view) {
  auto find = [this](const char* name) { return window_.findChild<QAction*>(QString::fromLatin1(name)); };
  if (simulation) {
    simulation->addSeparator();
    simulation->addAction(find("history_back"));
    simulation->addAction(find("history_forward"));
    simulation->addAction(find("capture_next"));
  }
  if (view) {
    view->addSeparator();
    view->addAction(find("wireframe"));
    view->addAction(find("transparent"));
    view->addAction(find("shadows"));
    view->addAction(find("surface_particles"));
    view->addAction(find("visual_geometry"));
    view->addAction(find("collision_geometry"));
    view->addAction(find("record_video"));
    view->addSeparator();
    view->addAction(find("help"));
  }
}

std::vector<ui::ShortcutRow> ViewerController::shortcut_rows() const {
  std::vector<ui::ShortcutRow> rows;
  rows.push_back({"", "Menu actions"});
  for (const QAction* a : window_.findChildren<QAction*>()) {
    if (a->shortcuts().isEmpty() || a->objectName().isEmpty()) continue;
    QString text = a->text();
    text.remove(QLatin1Char('&'));
    text.remove(QStringLiteral("…"));
    rows.push_back({shortcut_text(a).toStdString(), text.toStdString()});
  }
  for (const ui::ShortcutRow& r : kViewportRows) rows.push_back(r);
  return rows;
}

void ViewerController::refresh_shortcuts() {
  if (viewport_) viewport_->set_shortcuts(shortcut_rows());
}

void ViewerController::sync_keyframe_names() {
  if (!viewport_) return;
  std::vector<std::string> names;
  for (const sim::KeyframeSpec& k : document_.spec().keyframes) names.push_back(k.name);
  viewport_->set_keyframe_names(std::move(names));
}

bool ViewerController::save_keyframe(const QString& name, QString* error) {
  const Snapshot& s = runner_.latest();
  if (!document_.has_scene() || !s.model || static_cast<int>(s.state.q.size()) != s.model->coord_count()) {
    if (error) *error = tr("No running scene to save a keyframe of");
    return false;
  }
  if (name.trimmed().isEmpty()) {
    if (error) *error = tr("A keyframe needs a name");
    return false;
  }
  sim::Control control;
  control.joint_target = s.joint_target;
  sim::KeyframeSpec k = sim::make_keyframe(name.trimmed().toStdString(), s.state, control);
  std::vector<sim::KeyframeSpec> keyframes = document_.spec().keyframes;
  bool replaced = false;
  for (sim::KeyframeSpec& existing : keyframes)
    if (existing.name == k.name) {
      existing = k;
      replaced = true;
    }
  if (!replaced) keyframes.push_back(std::move(k));
  document_.set_keyframes(std::move(keyframes), tr("Save keyframe '%1'").arg(name.trimmed()));
  emit message(tr("Keyframe '%1' saved at t = %2 s (File > Save writes it into the scene)")
                   .arg(name.trimmed())
                   .arg(s.state.time, 0, 'f', 3));
  return true;
}

bool ViewerController::restore_keyframe(int index, QString* error) {
  const std::vector<sim::KeyframeSpec>& keyframes = document_.spec().keyframes;
  const Snapshot& s = runner_.latest();
  if (index < 0 || index >= static_cast<int>(keyframes.size()) || !s.model) {
    if (error) *error = tr("No such keyframe");
    return false;
  }
  auto restored = sim::keyframe_state(*s.model, keyframes[static_cast<std::size_t>(index)]);
  if (!restored) {
    if (error) *error = QString::fromStdString(restored.error());
    return false;
  }
  runner_.restore(restored.value().state, restored.value().control);
  emit message(tr("Keyframe '%1' restored").arg(QString::fromStdString(keyframes[static_cast<std::size_t>(index)].name)));
  return true;
}

bool ViewerController::delete_keyframe(int index) {
  std::vector<sim::KeyframeSpec> keyframes = document_.spec().keyframes;
  if (index < 0 || index >= static_cast<int>(keyframes.size())) return false;
  const QString name = QString::fromStdString(keyframes[static_cast<std::size_t>(index)].name);
  keyframes.erase(keyframes.begin() + index);
  return document_.set_keyframes(std::move(keyframes), tr("Delete keyframe '%1'").arg(name));
}

bool ViewerController::start_recording(const QString& requested, int seconds, bool mp4, int max_frames, QString* error) {
  constexpr int kFps = 30;
  QString directory = requested;
  if (directory.isEmpty()) {
    const QString stem = document_.has_scene() ? QFileInfo(document_.display_name()).completeBaseName() : QStringLiteral("coulomb");
    directory = QDir(video_folder()).filePath(stem + QStringLiteral("-") +
                                              QDateTime::currentDateTime().toString(QStringLiteral("yyyyMMdd-HHmmss")));
  }
  const int frames = max_frames > 0 ? max_frames : seconds * kFps;
  if (!recorder_->start(directory, kFps, frames, mp4, error)) return false;
  emit message(tr("Recording the viewport into %1").arg(recorder_->directory()));
  return true;
}

void ViewerController::stop_recording() { recorder_->stop(); }

QString ViewerController::user_folder(int location, const QString& fallback) const {
  QString base = QStandardPaths::writableLocation(static_cast<QStandardPaths::StandardLocation>(location));
  if (base.isEmpty()) base = QDir::home().filePath(fallback);
  const QString dir = QDir(base).filePath(QStringLiteral("Coulomb"));
  QDir().mkpath(dir);
  return dir;
}

bool ViewerController::is_shipped(const QString& path) { return is_shipped_asset(path.toStdString()); }

QString ViewerController::scene_folder() const {
  const QString path = document_.path();
  if (!path.isEmpty() && !is_shipped(path)) return QFileInfo(path).absolutePath();
  const QString last = settings_.value(QStringLiteral("files/last_save_dir")).toString();
  if (!last.isEmpty() && QFileInfo(last).isDir() && !is_shipped(last)) return last;
  return user_folder(QStandardPaths::DocumentsLocation, QStringLiteral("Documents"));
}

QString ViewerController::screenshot_folder() const {
  const QString last = settings_.value(QStringLiteral("files/last_screenshot_dir")).toString();
  if (!last.isEmpty() && QFileInfo(last).isDir() && !is_shipped(last)) return last;
  return user_folder(QStandardPaths::PicturesLocation, QStringLiteral("Pictures"));
}

QString ViewerController::video_folder() const { return user_folder(QStandardPaths::MoviesLocation, QStringLiteral("Videos")); }

}  // namespace coulomb::gui
