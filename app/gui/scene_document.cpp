#include "gui/scene_document.hpp"

#include <QDateTime>
#include <QFileInfo>
#include <QUndoCommand>
#include <algorithm>
#include <utility>

#include "cli/cli_common.hpp"
#include "sim/resource_policy.hpp"
#include "sim/compile.hpp"
#include "sim/recompile.hpp"
#include "sim/recording.hpp"
#include "sim/scene_io.hpp"
#include "sim/sdf.hpp"
#include "ui/solver_panel.hpp"

namespace coulomb::gui {

namespace {

QString q(const std::string& s) { return QString::fromStdString(s); }

// One property edit. Consecutive edits of the same property within a short time (dragging a
// spin box's arrows) merge into one undo step. `validated`: the model compiled when the edit was
// checked, used by the first redo (the push) instead of compiling the same spec again.
class PropertyCommand : public QUndoCommand {
 public:
  PropertyCommand(SceneDocument& document, PropertyKey key, PropertyValue before, PropertyValue after, const QString& text,
                  std::shared_ptr<const sim::Model> validated)
      : QUndoCommand(text), document_(document), key_(std::move(key)), before_(std::move(before)),
        after_(std::move(after)), time_(QDateTime::currentMSecsSinceEpoch()), validated_(std::move(validated)) {}

  void undo() override { document_.apply_property(key_, before_, nullptr); }
  void redo() override { document_.apply_property(key_, after_, std::exchange(validated_, nullptr)); }
  int id() const override { return 1; }
  bool mergeWith(const QUndoCommand* other) override {
    const auto* o = dynamic_cast<const PropertyCommand*>(other);
    if (!o || !(o->key_ == key_) || o->time_ - time_ > 800) return false;
    after_ = o->after_;
    time_ = o->time_;
    setObsolete(same_value(before_, after_));
    return true;
  }

 private:
  SceneDocument& document_;
  PropertyKey key_;
  PropertyValue before_, after_;
  qint64 time_;
  std::shared_ptr<const sim::Model> validated_;
};

// A structural edit as the whole spec before and after (scenes are small next to their state).
// `validated`: as PropertyCommand's, the model of `after` compiled when the edit was checked.
class SpecCommand : public QUndoCommand {
 public:
  SpecCommand(SceneDocument& document, sim::SceneSpec before, sim::SceneSpec after, std::vector<std::string> restart,
              const QString& text, std::shared_ptr<const sim::Model> validated)
      : QUndoCommand(text), document_(document), before_(std::move(before)), after_(std::move(after)),
        restart_(std::move(restart)), validated_(std::move(validated)) {}

  void undo() override { document_.apply_spec(before_, restart_, nullptr); }
  void redo() override { document_.apply_spec(after_, restart_, std::exchange(validated_, nullptr)); }

 private:
  SceneDocument& document_;
  sim::SceneSpec before_, after_;
  std::vector<std::string> restart_;
  std::shared_ptr<const sim::Model> validated_;
};

// A material's grain before and after (a new, imported or painted texture): a parameter patch.
class GrainCommand : public QUndoCommand {
 public:
  GrainCommand(SceneDocument& document, int material, sim::StructureFieldSpec before, sim::StructureFieldSpec after,
               const QString& text)
      : QUndoCommand(text), document_(document), material_(material), before_(std::move(before)),
        after_(std::move(after)) {}
  void undo() override { document_.apply_material_grain(material_, before_); }
  void redo() override { document_.apply_material_grain(material_, after_); }

 private:
  SceneDocument& document_;
  int material_;
  sim::StructureFieldSpec before_, after_;
};

// The scene's keyframes before and after (saving, deleting one); the model is not touched.
class KeyframesCommand : public QUndoCommand {
 public:
  KeyframesCommand(SceneDocument& document, std::vector<sim::KeyframeSpec> before, std::vector<sim::KeyframeSpec> after,
                   const QString& text)
      : QUndoCommand(text), document_(document), before_(std::move(before)), after_(std::move(after)) {}
  void undo() override { document_.apply_keyframes(before_); }
  void redo() override { document_.apply_keyframes(after_); }

 private:
  SceneDocument& document_;
  std::vector<sim::KeyframeSpec> before_, after_;
};

}  // namespace

SceneDocument::SceneDocument(SimRunner& runner, QObject* parent) : QObject(parent), runner_(runner) {
  connect(&undo_, &QUndoStack::cleanChanged, this, [this](bool clean) { emit modified_changed(!clean); });
}

SceneDocument::~SceneDocument() {
  // The commands refer to this document; drop them first, quietly (no one is listening any more).
  undo_.blockSignals(true);
  undo_.clear();
}

QString SceneDocument::display_name() const {
  if (!path_.isEmpty()) return QFileInfo(path_).fileName();
  return spec_.name.empty() ? QStringLiteral("untitled") : q(spec_.name);
}

std::shared_ptr<const sim::Model> SceneDocument::compile(const sim::SceneSpec& spec, QString* error) const {
  auto model = sim::compile_model(spec);
  if (!model) {
    if (error) *error = q(model.error());
    return nullptr;
  }
  return std::make_shared<const sim::Model>(std::move(model.value()));
}

bool SceneDocument::open_file(const QString& path, QString* error) {
  // References outside the file's folder tree and the package roots are refused
  // (sim/resource_policy.hpp); the shipped assets and robots are package roots.
  sim::ResourcePolicy policy = sim::resource_policy();
  for (const std::string& root : shipped_package_roots()) policy.package_roots.push_back(root);
  const sim::ScopedResourcePolicy scoped(std::move(policy));
  auto kind = sim::description_kind(path.toStdString());
  auto spec = kind ? sim::load_description(path.toStdString(), description_options_)
                   : sim::Result<sim::SceneSpec>(sim::Error{kind.error()});
  if (!spec) {
    if (error) *error = q(spec.error());
    return false;
  }
  // A robot description opens as a new, untitled scene around it (Save asks where to write it).
  return open_spec(std::move(spec.value()), *kind == sim::DescriptionKind::Scene ? path : QString(), error);
}

bool SceneDocument::open_spec(sim::SceneSpec spec, const QString& path, QString* error) {
  auto model = compile(spec, error);
  if (!model) return false;
  spec_ = std::move(spec);
  path_ = path;
  open_note_ = q(sim::describe_initial_overlaps(*model));
  open_warnings_.clear();
  for (const auto& mesh : model->meshes)
    for (const std::string& w : mesh->cache_problems) open_warnings_ << q(w);
  has_scene_ = true;
  undo_.clear();
  undo_.setClean();
  runner_.load(std::make_shared<const sim::SceneSpec>(spec_), std::move(model), /*play=*/false);
  emit path_changed(path_);
  emit scene_opened();
  emit modified_changed(false);
  return true;
}

bool SceneDocument::save(QString* error, bool replace_read_only) {
  if (path_.isEmpty()) {
    if (error) *error = QStringLiteral("the scene has no file yet (use Save As)");
    return false;
  }
  return save_as(path_, error, replace_read_only);
}

bool SceneDocument::save_as(const QString& path, QString* error, bool replace_read_only) {
  if (!has_scene_) {
    if (error) *error = QStringLiteral("no scene to save");
    return false;
  }
  sim::AtomicWriteOptions options;
  options.replace_read_only = replace_read_only;
  auto saved = sim::save_scene_file(spec_, path.toStdString(), options);
  if (!saved) {
    if (error) *error = q(saved.error());
    return false;
  }
  const bool renamed = path != path_;
  path_ = path;
  spec_.source_file = path.toStdString();
  undo_.setClean();
  if (renamed) emit path_changed(path_);
  return true;
}

bool SceneDocument::set_property(const PropertyKey& key, const PropertyValue& value, QString* error) {
  if (!has_scene_) {
    if (error) *error = QStringLiteral("no scene");
    return false;
  }
  const auto before = get_property(spec_, key);
  if (!before) {
    if (error) *error = q("no property '" + key.name + "' on " + item_label(spec_, key.item));
    return false;
  }
  sim::SceneSpec edited = spec_;
  if (std::string e = gui::set_property(edited, key, value); !e.empty()) {
    if (error) *error = q(e);
    return false;
  }
  const auto after = get_property(edited, key);
  if (same_value(*before, *after)) return true;  // nothing to do (e.g. the same choice again)
  std::shared_ptr<const sim::Model> validated;
  if (is_parameter_only(edited, key)) {
    // A value edit: the item's own checks (the ones compile_model makes), no compile here; the
    // simulation thread patches its model (sim::patch_model).
    if (std::string e = sim::check_value_edit(edited, *spec_edit(key)); !e.empty()) {
      if (error) *error = q(e);
      return false;
    }
  } else {
    validated = compile(edited, error);
    if (!validated) return false;
  }
  const QString text = q("Set " + item_label(spec_, key.item) + " " + key.name + " to " + to_display(*after));
  undo_.push(new PropertyCommand(*this, key, *before, *after, text, std::move(validated)));
  return true;
}

bool SceneDocument::choose_solver_option(const std::string& key, int index, QString* error) {
  sim::SolverOptions options = spec_.solver;
  if (key == "kind") ui::choose_solver_kind(options, index);
  else if (key == "ncp") ui::choose_ncp(options, index);
  else if (key == "preconditioner") ui::choose_preconditioner(options, index);
  else if (key == "linear_solver") ui::choose_linear_solver(options, index);
  else {
    if (error) *error = q("'" + key + "' is not a solver choice");
    return false;
  }
  return set_property({{ItemKind::Solver}, key}, PropertyValue(sim::get_solver_option(options, key)), error);
}

bool SceneDocument::set_solver_options(const sim::SolverOptions& options, QString* error) {
  // One property command per changed option, grouped into one undo step.
  std::vector<std::string> changed;
  for (const std::string& key : sim::solver_option_keys())
    if (sim::get_solver_option(options, key) != sim::get_solver_option(spec_.solver, key)) changed.push_back(key);
  if (changed.empty()) return true;
  auto set_one = [&](const std::string& key) {
    const PropertyKey k{{ItemKind::Solver}, key};
    PropertyValue v = sim::get_solver_option(options, key);
    // set_property takes numbers and booleans typed; convert from the option's text.
    const auto current = get_property(spec_, k);
    if (current && std::holds_alternative<double>(*current)) v = std::stod(std::get<std::string>(v));
    else if (current && std::holds_alternative<bool>(*current)) v = std::get<std::string>(v) == "true";
    return set_property(k, v, error);
  };
  // One option (a slider being dragged): a plain edit, so a drag merges into one undo step.
  if (changed.size() == 1) return set_one(changed.front());
  undo_.beginMacro(QStringLiteral("Change solver options"));
  bool ok = true;
  for (const std::string& key : changed) ok = set_one(key) && ok;
  undo_.endMacro();
  return ok;
}

bool SceneDocument::push_spec(sim::SceneSpec edited, const QString& text, std::vector<std::string> restart_bodies,
                              QString* error) {
  auto validated = compile(edited, error);
  if (!validated) return false;
  undo_.push(new SpecCommand(*this, spec_, std::move(edited), std::move(restart_bodies), text, std::move(validated)));
  return true;
}

bool SceneDocument::delete_body(int body, QString* error) {
  if (body < 0 || body >= static_cast<int>(spec_.bodies.size())) {
    if (error) *error = QStringLiteral("no such body");
    return false;
  }
  sim::SceneSpec edited = spec_;
  const std::string name = edited.bodies[static_cast<std::size_t>(body)].name;
  if (std::string refused = sim::erase_body(edited, body); !refused.empty()) {
    if (error) *error = q(refused);
    return false;
  }
  return push_spec(std::move(edited), q("Delete body '" + name + "'"), {}, error);
}

bool SceneDocument::set_shape_sdf(int model_shape, double voxel_size, double band, QString* error) {
  const ItemRef item = shape_item(spec_, model_shape);
  if (!get_property(spec_, {item, "sdf_voxel_size"})) {
    if (error) *error = QStringLiteral("shape %1 is not a triangle mesh").arg(model_shape);
    return false;
  }
  if (!(voxel_size > 0) || !(band >= 1)) {
    if (error) *error = QStringLiteral("SDF voxel size must be > 0 and band >= 1 voxel");
    return false;
  }
  sim::SceneSpec edited = spec_;
  for (const auto& [name, value] : {std::pair<const char*, double>{"sdf_voxel_size", voxel_size}, {"sdf_band", band}})
    if (const std::string e = coulomb::gui::set_property(edited, {item, name}, value); !e.empty()) {
      if (error) *error = QString::fromStdString(e);
      return false;
    }
  return push_spec(std::move(edited), q("SDF grid of " + item_label(spec_, item)), {}, error);
}

bool SceneDocument::duplicate_body(int body, QString* error) {
  if (body < 0 || body >= static_cast<int>(spec_.bodies.size())) {
    if (error) *error = QStringLiteral("no such body");
    return false;
  }
  sim::SceneSpec edited = spec_;
  sim::BodySpec copy = edited.bodies[static_cast<std::size_t>(body)];
  std::string name = copy.name + "_copy";
  auto taken = [&](const std::string& n) {
    return std::any_of(edited.bodies.begin(), edited.bodies.end(), [&](const sim::BodySpec& b) { return b.name == n; });
  };
  for (int k = 2; taken(name); ++k) name = copy.name + "_copy" + std::to_string(k);
  copy.name = name;
  copy.fixed = false;
  // Beside the original, one bounding width along +y... approximated by the shapes' extents.
  sim::Real extent = sim::Real(0.1);
  for (const sim::ShapeSpec& s : copy.shapes) {
    sim::Real r = s.radius;
    if (s.type == sim::ShapeType::Box) r = s.half_extents.norm();
    if (s.type == sim::ShapeType::Ellipsoid) r = s.half_extents.maxCoeff();
    if (s.type == sim::ShapeType::Cylinder) r = std::hypot(s.radius, s.half_length);
    if (s.type == sim::ShapeType::Capsule) r = s.radius + s.half_length;
    for (const sim::Vec3& v : s.vertices) r = std::max(r, v.norm());
    extent = std::max(extent, s.local.pos.norm() + r);
  }
  copy.pose.pos.y() += 2 * extent + sim::Real(0.05);
  edited.bodies.push_back(std::move(copy));
  return push_spec(std::move(edited), q("Duplicate body '" + spec_.bodies[static_cast<std::size_t>(body)].name + "'"),
                   {name}, error);
}

void SceneDocument::apply_property(const PropertyKey& key, const PropertyValue& value,
                                   std::shared_ptr<const sim::Model> compiled) {
  if (std::string e = gui::set_property(spec_, key, value); !e.empty()) return;  // validated when pushed
  auto spec = std::make_shared<const sim::SceneSpec>(spec_);
  if (is_parameter_only(spec_, key)) {
    runner_.patch(std::move(spec), key);
  } else {
    QString error;
    auto model = compiled ? std::move(compiled) : compile(spec_, &error);
    if (model) {
      std::vector<std::string> restart;
      // A moved or relaunched body starts again from its edited pose and velocity.
      if (key.item.kind == ItemKind::Body && (key.name.rfind("pos.", 0) == 0 || key.name.rfind("velocity.", 0) == 0))
        restart.push_back(spec_.bodies[static_cast<std::size_t>(key.item.index)].name);
      runner_.replace_model(std::move(spec), std::move(model), std::move(restart));
    }
  }
  emit property_changed(key);
}

void SceneDocument::apply_spec(const sim::SceneSpec& spec, const std::vector<std::string>& restart_bodies,
                               std::shared_ptr<const sim::Model> compiled) {
  QString error;
  auto model = compiled ? std::move(compiled) : compile(spec, &error);
  if (!model) return;  // validated when pushed
  spec_ = spec;
  runner_.replace_model(std::make_shared<const sim::SceneSpec>(spec_), std::move(model), restart_bodies);
  emit structure_changed();
}

bool SceneDocument::set_material_grain(int material, sim::StructureFieldSpec grain, const QString& text,
                                       QString* error) {
  if (!has_scene_ || material < 0 || material >= static_cast<int>(spec_.materials.size())) {
    if (error) *error = QStringLiteral("no such material");
    return false;
  }
  if (spec_.materials[static_cast<std::size_t>(material)].structure == grain) return true;
  sim::SceneSpec edited = spec_;
  edited.materials[static_cast<std::size_t>(material)].structure = grain;
  // Checked against the running model (no recompile: grains are parameters).
  const std::shared_ptr<const sim::Model> running = runner_.current().model;
  if (running) {
    sim::Model check = *running;
    if (std::string e = sim::refresh_friction(edited, check); !e.empty()) {
      if (error) *error = q(e);
      return false;
    }
  } else if (!compile(edited, error)) {
    return false;
  }
  undo_.push(new GrainCommand(*this, material, spec_.materials[static_cast<std::size_t>(material)].structure,
                              std::move(grain), text));
  return true;
}

void SceneDocument::preview_grain_texture(int material, std::shared_ptr<const sim::StructureTexture> image) {
  if (!has_scene_ || material < 0 || material >= static_cast<int>(spec_.materials.size())) return;
  auto spec = std::make_shared<sim::SceneSpec>(spec_);
  spec->materials[static_cast<std::size_t>(material)].structure.image = std::move(image);
  runner_.patch(std::move(spec), PropertyKey{{ItemKind::Material, material, -1}, "grain"});
}

void SceneDocument::apply_material_grain(int material, const sim::StructureFieldSpec& grain) {
  if (material < 0 || material >= static_cast<int>(spec_.materials.size())) return;
  spec_.materials[static_cast<std::size_t>(material)].structure = grain;
  const PropertyKey key{{ItemKind::Material, material, -1}, "grain"};
  runner_.patch(std::make_shared<const sim::SceneSpec>(spec_), key);
  emit property_changed(key);
}

bool SceneDocument::set_keyframes(std::vector<sim::KeyframeSpec> keyframes, const QString& text) {
  if (!has_scene_) return false;
  undo_.push(new KeyframesCommand(*this, spec_.keyframes, std::move(keyframes), text));
  return true;
}

void SceneDocument::apply_keyframes(const std::vector<sim::KeyframeSpec>& keyframes) {
  spec_.keyframes = keyframes;
  emit keyframes_changed();
}

}  // namespace coulomb::gui
