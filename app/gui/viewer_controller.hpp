// The viewer features of the main window (MuJoCo simulate parity), kept apart from MainWindow:
// the F1 help overlay and its shortcut list (built from the window's actions, so it lists every
// one), display switches (wireframe, transparency, shadows), history stepping keys, keyframes
// (saved into the scene through the document, restored into the running simulation), video
// recording of the viewport into the user's Videos folder, the anti-aliasing preference, and the
// user folders that Save As, screenshots and videos start in (never the shipped assets).
#pragma once

#include <QObject>
#include <QString>
#include <vector>

#include "ui/help_overlay.hpp"

class QMainWindow;
class QMenu;
class QSettings;

namespace coulomb::gui {

class SceneDocument;
class SimRunner;
class VideoRecorder;
class ViewportWindow;

class ViewerController : public QObject {
  Q_OBJECT

 public:
  // `viewport` may be null (no Vulkan): then only the folders and keyframes work.
  ViewerController(QMainWindow& window, SceneDocument& document, SimRunner& runner, ViewportWindow* viewport,
                   QSettings& settings);
  ~ViewerController() override;

  // Adds the actions to the menus (View: help, display switches, recording; Simulation: history).
  void add_to_menus(QMenu* simulation, QMenu* view);
  // Every shortcut of the window's actions plus the viewport's mouse and keys, for the overlay.
  std::vector<ui::ShortcutRow> shortcut_rows() const;
  void refresh_shortcuts();  // after all actions exist

  // Keyframes: the current state saved under `name` into the scene (undoable; replaces one of that
  // name), restored (an error message when it does not fit the model), deleted.
  bool save_keyframe(const QString& name, QString* error = nullptr);
  bool restore_keyframe(int index, QString* error = nullptr);
  bool delete_keyframe(int index);

  // Recording into `directory` (empty: a new folder under the user's Videos/Coulomb).
  bool start_recording(const QString& directory, int seconds, bool mp4, int max_frames = 0, QString* error = nullptr);
  void stop_recording();
  VideoRecorder* recorder() const { return recorder_; }

  // Where files start: a user folder (Documents/Coulomb, Pictures/Coulomb, Videos/Coulomb, created
  // on demand), or the folder of the open scene when that is not among the shipped assets.
  QString scene_folder() const;
  QString screenshot_folder() const;
  QString video_folder() const;
  static bool is_shipped(const QString& path);

 signals:
  void message(const QString& text);  // for the status bar

 private:
  QString user_folder(int standard_location, const QString& fallback) const;
  void sync_keyframe_names();

  QMainWindow& window_;
  SceneDocument& document_;
  SimRunner& runner_;
  ViewportWindow* viewport_;
  QSettings& settings_;
  VideoRecorder* recorder_ = nullptr;
};

}  // namespace coulomb::gui
