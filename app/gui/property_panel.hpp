// The property view of the selected item: one editor per property (describe_item), each commit
// going through SceneDocument::set_property (or the Solver panel's choice setters for the solver
// combos), so it is validated, undoable and applied to the running simulation. A live section
// shows what the simulation computed (compiled mass, current pose and speed, joint force).
#pragma once

#include <QWidget>
#include <vector>

#include "gui/scene_properties.hpp"
#include "render/element_field.hpp"
#include "sim/math.hpp"

class QFormLayout;
class QLabel;

namespace coulomb::gui {

class SceneDocument;
struct Snapshot;

class PropertyPanel : public QWidget {
  Q_OBJECT

 public:
  explicit PropertyPanel(SceneDocument& document, QWidget* parent = nullptr);

  void show_item(const ItemRef& item);     // rebuilds the editors
  const ItemRef& item() const { return item_; }
  void refresh_values();                   // re-reads values from the spec (after undo, redo, edits)
  void refresh_live(const Snapshot& snapshot);
  // The surface face a pick went through (PickHit::face, the hit point) and the viewport's colour
  // field: a picked particle on that face shows the face, its particles and the field there.
  // render_mesh >= 0: the face is that render mesh's (Model::soft_render_meshes).
  void set_face_pick(int render_mesh, int face, const sim::Vec3& point) {
    face_render_mesh_ = render_mesh, face_ = face, face_point_ = point;
  }
  void set_field(render::ElementField field) { field_ = field; }
  // The editor widget of a property (tests drive it like a user would); null if not shown.
  QWidget* editor(const std::string& name) const;
  QString last_error() const;
  QString live_text() const;  // the live read-out under the editors (values of the running model)

 private:
  void commit(const PropertyInfo& info, const PropertyValue& value);
  void show_error(const QString& text);

  struct Row {
    PropertyInfo info;
    QWidget* editor = nullptr;
  };
  SceneDocument& document_;
  ItemRef item_;
  std::vector<Row> rows_;
  QLabel* title_ = nullptr;
  QWidget* form_host_ = nullptr;
  QFormLayout* form_ = nullptr;
  QLabel* live_ = nullptr;
  QLabel* error_ = nullptr;
  int face_ = -1;
  int face_render_mesh_ = -1;
  sim::Vec3 face_point_ = sim::Vec3::Zero();
  render::ElementField field_ = render::ElementField::None;
  std::vector<float> field_values_;  // the field, computed for the face's read-out
};

}  // namespace coulomb::gui
