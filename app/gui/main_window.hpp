// The desktop app's main window: menus (File, Edit, Simulation, View), a toolbar, the status bar
// (sim time, real-time factor, ms per step, Newton iterations, max residual), the Vulkan viewport
// in the centre and a dock with the scene tree over the property view. Owns the simulation thread
// (SimRunner) and the open scene (SceneDocument); persists geometry, dock state, recent files, the
// last scene and preferences with QSettings; asks before losing unsaved edits.
#pragma once

#include <QMainWindow>
#include <QString>
#include <functional>
#include <memory>
#include <string>

#include "sim/device_linear_solver.hpp"

#include "gui/scene_properties.hpp"

class QAction;
class QActionGroup;
class QDockWidget;
class QLabel;
class QMenu;
class QSettings;
class QTimer;
class QVulkanInstance;

namespace coulomb::gui {

class ImportMessagesDialog;
class PropertyPanel;
class SceneDocument;
class SceneTreePanel;
class SimRunner;
class TeleopDriver;
class ViewerController;
class TextureAuthoring;
class ViewportWindow;

struct MainWindowOptions {
  QString scene_path;                  // opened at start; empty: the last scene, else the default scene
  bool restore_last_scene = true;
  QString settings_file;               // empty: the user's settings (QSettings "Coulomb", "coulomb")
  QVulkanInstance* vulkan = nullptr;   // created by the caller; null: no viewport (a placeholder)
  // The backend's device (cli/backend.hpp detect_backend; null: the CPU, device_missing says why):
  // the steps use it from the start unless start_on_cpu (`coulomb open --backend cpu`); the Solver
  // panel switches.
  std::shared_ptr<sim::DeviceLinearSolver> device;
  std::string device_missing = "not looked for";
  bool start_on_cpu = false;
};

class MainWindow : public QMainWindow {
  Q_OBJECT

 public:
  explicit MainWindow(MainWindowOptions options = {}, QWidget* parent = nullptr);
  ~MainWindow() override;

  // Opens a scene file; on failure shows the parser's "file:line: <element>: message" and keeps
  // the current scene. Asks about unsaved edits first.
  bool open_scene(const QString& path);
  bool save();
  bool save_as(const QString& path);   // empty: asks for a file name
  bool save_screenshot(const QString& path);  // the viewport's next frame as PNG; empty: asks

  SceneDocument& document() { return *document_; }
  SimRunner& runner() { return *runner_; }
  ViewportWindow* viewport() { return viewport_; }   // null without Vulkan
  TeleopDriver& teleop() { return *teleop_; }
  ViewerController& viewer() { return *viewer_; }  // help, display, keyframes, recording, folders
  PropertyPanel& properties() { return *properties_; }
  SceneTreePanel& scene_tree() { return *tree_; }
  ItemRef selection() const { return selection_; }
  void select(const ItemRef& item);
  QStringList recent_files() const;
  QAction* action(const QString& name) const;        // "play", "step", "reset", "save", ...

  // Replace the modal dialogs (tests, scripting).
  enum class CloseChoice { Save, Discard, Cancel };
  void set_close_prompt(std::function<CloseChoice()> prompt) { close_prompt_ = std::move(prompt); }
  void set_error_reporter(std::function<void(const QString& title, const QString& text)> reporter) {
    error_reporter_ = std::move(reporter);
  }
  // Save's yes/no questions (a read-only file, other hard links: gui/save_decision.hpp).
  void set_confirm_prompt(std::function<bool(const QString& title, const QString& text)> prompt) {
    confirm_prompt_ = std::move(prompt);
  }

 protected:
  void closeEvent(QCloseEvent* event) override;
  // Drag and drop of a scene, URDF or MJCF file (anywhere on the window) opens it.
  void dragEnterEvent(QDragEnterEvent* event) override;
  void dropEvent(QDropEvent* event) override;

 private:
  void build_actions();
  void build_menus();
  void build_docks();
  void build_status_bar();
  void restore_settings();
  void save_settings();
  void add_recent(const QString& path);
  void rebuild_recent_menu();
  bool maybe_save();
  // Asks plan_save's questions for `path`; false (nothing saved) on a no or a refused path.
  bool confirm_save(const QString& path, bool& replace_read_only, QString& note);
  void report_error(const QString& title, const QString& text);
  void refresh_status();
  void update_title();
  void apply_overlays();
  void open_default_scene();
  // The robots' import simplifications: shown (non-modal) when `always` or when there are any.
  void show_import_messages(bool always);

  std::unique_ptr<QSettings> settings_;
  std::unique_ptr<SimRunner> runner_;
  std::unique_ptr<SceneDocument> document_;
  TeleopDriver* teleop_ = nullptr;     // child QObject
  ViewerController* viewer_ = nullptr; // child QObject
  std::unique_ptr<TextureAuthoring> texture_;  // the Friction panel's texture tools
  MainWindowOptions options_;
  ViewportWindow* viewport_ = nullptr;
  QWidget* central_ = nullptr;
  QDockWidget* scene_dock_ = nullptr;
  SceneTreePanel* tree_ = nullptr;
  PropertyPanel* properties_ = nullptr;
  ImportMessagesDialog* import_messages_ = nullptr;
  QTimer* timer_ = nullptr;
  QMenu* recent_menu_ = nullptr;
  QActionGroup* pacing_ = nullptr;
  ItemRef selection_;
  std::uint64_t last_sequence_ = 0;
  QString last_message_;

  QLabel* time_label_ = nullptr;
  QLabel* rtf_label_ = nullptr;
  QLabel* ms_label_ = nullptr;
  QLabel* newton_label_ = nullptr;
  QLabel* residual_label_ = nullptr;
  QLabel* state_label_ = nullptr;
  QLabel* colour_label_ = nullptr;   // the colour field's range (View > Colour by)

  std::function<CloseChoice()> close_prompt_;
  std::function<void(const QString&, const QString&)> error_reporter_;
  std::function<bool(const QString&, const QString&)> confirm_prompt_;
};

}  // namespace coulomb::gui
