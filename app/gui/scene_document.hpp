// The open scene as the editor sees it: the SceneSpec (the editable truth), its file, the undo
// history and the modified flag. Every edit goes through here, is validated (set_property, then
// for a value edit sim::check_value_edit, for a structural one compile_model, both with file:line
// errors), becomes an undoable command, and reaches the running simulation as a request: value
// edits as a patch of the model (sim::patch_model on the simulation thread; nothing is compiled
// on the UI thread), structural ones as a recompiled model that keeps the state by name
// (sim::remap_state).
#pragma once

#include <QObject>
#include <QString>
#include <QStringList>
#include <QUndoStack>
#include <memory>
#include <string>
#include <vector>

#include "gui/scene_properties.hpp"
#include "gui/sim_runner.hpp"
#include "sim/scene_io.hpp"
#include "sim/spec.hpp"

namespace coulomb::gui {

class SceneDocument : public QObject {
  Q_OBJECT

 public:
  explicit SceneDocument(SimRunner& runner, QObject* parent = nullptr);
  ~SceneDocument() override;

  // ---- files ----------------------------------------------------------------------------------
  // Parses and compiles; on success the scene replaces the current one (undo history cleared,
  // simulation restarted paused). On failure nothing changes and `error` holds the parser's or
  // compiler's "file:line: <element>: message".
  bool open_file(const QString& path, QString* error);
  // The same for a spec already in memory (`path` may be empty: an unsaved scene).
  bool open_spec(sim::SceneSpec spec, const QString& path, QString* error);
  bool save(QString* error, bool replace_read_only = false);  // to path(); fails without one
  // Atomic (sim/atomic_file.hpp); path() becomes `path`. A read-only file is replaced only with
  // `replace_read_only` (the user said yes: gui/save_decision.hpp).
  bool save_as(const QString& path, QString* error, bool replace_read_only = false);

  bool has_scene() const { return has_scene_; }
  const QString& path() const { return path_; }
  // What the last open_file/open_spec's compile has to say (robot link pairs filtered from
  // self-collision for overlapping at the initial pose); empty when nothing.
  const QString& open_note() const { return open_note_; }
  // Warnings of the last open_file/open_spec's compile that the user must see (SDF cache entries
  // found damaged or truncated, deleted and baked again, or not written: SdfMesh::cache_problems),
  // one per line; empty when none. The main window lists them with the import simplifications.
  const QStringList& open_warnings() const { return open_warnings_; }
  // How open_file opens a robot description (a URDF's base fixed or free).
  void set_description_options(const sim::DescriptionOptions& options) { description_options_ = options; }
  const sim::DescriptionOptions& description_options() const { return description_options_; }
  QString display_name() const;                      // file name, or the scene's name
  bool modified() const { return !undo_.isClean(); }
  const sim::SceneSpec& spec() const { return spec_; }
  QUndoStack* undo_stack() { return &undo_; }
  SimRunner& runner() { return runner_; }

  // ---- the property path ------------------------------------------------------------------------
  // Validates and pushes an undoable edit; false (with the reason) when the value is rejected.
  bool set_property(const PropertyKey& key, const PropertyValue& value, QString* error = nullptr);
  // The Solver panel's choice setters (ui::choose_ncp, choose_preconditioner,
  // choose_linear_solver): `key` is "ncp", "preconditioner" or "linear_solver", `index` into
  // the panel's list (ui::ncp_choices, ...). Used by the property view's combo boxes too.
  bool choose_solver_option(const std::string& key, int index, QString* error = nullptr);
  // All options at once (the ImGui Solver panel edits a copy of them).
  bool set_solver_options(const sim::SolverOptions& options, QString* error = nullptr);

  // ---- structural edits -------------------------------------------------------------------------
  bool delete_body(int body, QString* error = nullptr);     // with its joints
  bool duplicate_body(int body, QString* error = nullptr);  // a copy beside it, named "<name>_copy"
  // New SDF grid parameters (ShapeSpec::sdf_voxel_size, sdf_band) for the triangle-mesh shape
  // that is model shape `model_shape`, as one undoable edit; the recompile keeps the running state
  // (the SDF baker panel bakes into the cache first, so the recompile reads it back).
  bool set_shape_sdf(int model_shape, double voxel_size, double band, QString* error = nullptr);

  // ---- grains (anisotropic friction) ------------------------------------------------------------
  // Replaces material `material`'s grain (sim::StructureFieldSpec, e.g. a new or painted texture)
  // as one undoable parameter edit, checked against the running model (sim::refresh_friction: a
  // texture needs UVs on every shape of the material).
  bool set_material_grain(int material, sim::StructureFieldSpec grain, const QString& text, QString* error = nullptr);
  // A brush stroke in progress: the running model takes `image` as the material's texture at once
  // (a patch between two steps); the document and its undo history are not touched. The stroke
  // ends with set_material_grain (one undo step per stroke).
  void preview_grain_texture(int material, std::shared_ptr<const sim::StructureTexture> image);
  void apply_material_grain(int material, const sim::StructureFieldSpec& grain);

  // ---- keyframes (the scene's <keyframe> elements) ----------------------------------------------
  // Replaces the scene's keyframes as one undoable edit (no recompile: they are data).
  bool set_keyframes(std::vector<sim::KeyframeSpec> keyframes, const QString& text);

  // ---- used by the undo commands ------------------------------------------------------------------
  // `compiled`: the model of the resulting spec when the caller has it already (the push of a
  // validated edit), else null and compiled here when the edit needs a new model.
  void apply_property(const PropertyKey& key, const PropertyValue& value, std::shared_ptr<const sim::Model> compiled);
  void apply_spec(const sim::SceneSpec& spec, const std::vector<std::string>& restart_bodies,
                  std::shared_ptr<const sim::Model> compiled);
  void apply_keyframes(const std::vector<sim::KeyframeSpec>& keyframes);

 signals:
  void scene_opened();                          // a different scene: rebuild views
  void structure_changed();                     // items may have appeared or gone
  void property_changed(const coulomb::gui::PropertyKey& key);  // a value changed (edit, undo, redo)
  void modified_changed(bool modified);
  void path_changed(const QString& path);
  void keyframes_changed();                     // saved, deleted, undone (not on open: scene_opened)

 private:
  // Validates a candidate spec with compile_model; returns the model or sets `error`.
  std::shared_ptr<const sim::Model> compile(const sim::SceneSpec& spec, QString* error) const;
  bool push_spec(sim::SceneSpec edited, const QString& text, std::vector<std::string> restart_bodies, QString* error);

  SimRunner& runner_;
  sim::SceneSpec spec_;
  QString path_;
  QString open_note_;
  QStringList open_warnings_;
  sim::DescriptionOptions description_options_;
  bool has_scene_ = false;
  QUndoStack undo_;
};

}  // namespace coulomb::gui
