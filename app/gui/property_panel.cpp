#include "gui/property_panel.hpp"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QLabel>
#include <QScrollArea>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QVBoxLayout>
#include <climits>
#include <cmath>

#include "gui/face_probe.hpp"
#include "gui/scene_document.hpp"
#include "gui/snapshot.hpp"
#include "ui/solver_panel.hpp"

namespace coulomb::gui {

namespace {

// A spin box that shows numbers in the shortest form ("0.004", "1e-06") and never rounds them to
// a fixed number of decimals (compliances and regularisations are tiny).
class RealSpinBox : public QDoubleSpinBox {
 public:
  explicit RealSpinBox(QWidget* parent) : QDoubleSpinBox(parent) { setDecimals(300); }

  QString textFromValue(double value) const override { return QString::number(value, 'g', 12); }
  double valueFromText(const QString& text) const override {
    QString t = text;
    if (!suffix().isEmpty() && t.endsWith(suffix())) t.chop(suffix().size());
    return t.trimmed().toDouble();
  }
  QValidator::State validate(QString& input, int&) const override {
    QString t = input;
    if (!suffix().isEmpty() && t.endsWith(suffix())) t.chop(suffix().size());
    t = t.trimmed();
    if (t.isEmpty() || t == "-" || t == "+" || t.endsWith('e') || t.endsWith('E') || t.endsWith("e-") ||
        t.endsWith("e+") || t == ".")
      return QValidator::Intermediate;
    bool ok = false;
    const double v = t.toDouble(&ok);
    if (!ok) return QValidator::Invalid;
    return v >= minimum() && v <= maximum() ? QValidator::Acceptable : QValidator::Intermediate;
  }
};

// The ImGui Solver panel's choice lists: the combo indices are the panel's.
bool solver_choices(const std::string& key, std::vector<std::string>& out) {
  int count = 0;
  const char* const* names = nullptr;
  if (key == "kind") names = ui::solver_kind_choices(count);
  else if (key == "ncp") names = ui::ncp_choices(count);
  else if (key == "preconditioner") names = ui::preconditioner_choices(count);
  else if (key == "linear_solver") names = ui::linear_solver_choices(count);
  else return false;
  out.assign(names, names + count);
  return true;
}

}  // namespace

PropertyPanel::PropertyPanel(SceneDocument& document, QWidget* parent) : QWidget(parent), document_(document) {
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(4, 4, 4, 4);
  title_ = new QLabel(this);
  title_->setWordWrap(true);
  QFont bold = title_->font();
  bold.setBold(true);
  title_->setFont(bold);
  layout->addWidget(title_);

  auto* scroll = new QScrollArea(this);
  scroll->setWidgetResizable(true);
  scroll->setFrameShape(QFrame::NoFrame);
  form_host_ = new QWidget(scroll);
  form_ = new QFormLayout(form_host_);
  form_->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
  scroll->setWidget(form_host_);
  layout->addWidget(scroll, 1);

  live_ = new QLabel(this);
  live_->setWordWrap(true);
  live_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  layout->addWidget(live_);

  error_ = new QLabel(this);
  error_->setWordWrap(true);
  error_->setStyleSheet(QStringLiteral("color: #c0392b;"));
  error_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  error_->hide();
  layout->addWidget(error_);

  show_item({});
}

QString PropertyPanel::last_error() const { return error_->isVisible() ? error_->text() : QString(); }

QString PropertyPanel::live_text() const { return live_->text(); }

void PropertyPanel::show_error(const QString& text) {
  error_->setText(text);
  error_->setVisible(!text.isEmpty());
}

QWidget* PropertyPanel::editor(const std::string& name) const {
  for (const Row& r : rows_)
    if (r.info.key.name == name) return r.editor;
  return nullptr;
}

void PropertyPanel::show_item(const ItemRef& item) {
  item_ = item;
  rows_.clear();
  while (form_->rowCount() > 0) form_->removeRow(0);
  show_error({});
  live_->clear();
  if (!document_.has_scene() || !item_exists(document_.spec(), item)) {
    item_ = {};
    title_->setText(tr("Select an item in the scene tree or double-click a body in the viewport."));
    return;
  }
  title_->setText(QString::fromStdString(item_label(document_.spec(), item)));
  for (PropertyInfo& info : describe_item(document_.spec(), item)) {
    QWidget* editor = nullptr;
    const QString unit = info.unit.empty() ? QString() : QStringLiteral(" ") + QString::fromStdString(info.unit);
    switch (info.type) {
      case PropertyType::Real: {
        auto* box = new RealSpinBox(form_host_);
        box->setRange(info.minimum, info.maximum);
        box->setSingleStep(info.step);
        box->setSuffix(unit);
        box->setKeyboardTracking(false);
        box->setValue(std::get<double>(info.value));
        connect(box, &QDoubleSpinBox::valueChanged, this, [this, info](double v) { commit(info, v); });
        editor = box;
        break;
      }
      case PropertyType::Integer: {
        auto* box = new QSpinBox(form_host_);
        box->setRange(static_cast<int>(std::max(info.minimum, double(INT_MIN))), static_cast<int>(std::min(info.maximum, double(INT_MAX))));
        box->setKeyboardTracking(false);
        box->setValue(static_cast<int>(std::get<double>(info.value)));
        connect(box, &QSpinBox::valueChanged, this, [this, info](int v) { commit(info, static_cast<double>(v)); });
        editor = box;
        break;
      }
      case PropertyType::Bool: {
        auto* box = new QCheckBox(form_host_);
        box->setChecked(std::get<bool>(info.value));
        connect(box, &QCheckBox::toggled, this, [this, info](bool v) { commit(info, v); });
        editor = box;
        break;
      }
      case PropertyType::Choice: {
        auto* box = new QComboBox(form_host_);
        if (info.key.item.kind == ItemKind::Solver) solver_choices(info.key.name, info.choices);
        for (const std::string& c : info.choices) box->addItem(QString::fromStdString(c));
        box->setCurrentText(QString::fromStdString(std::get<std::string>(info.value)));
        connect(box, &QComboBox::activated, this, [this, info](int index) {
          if (index < 0 || index >= static_cast<int>(info.choices.size())) return;
          commit(info, info.choices[static_cast<std::size_t>(index)]);
        });
        editor = box;
        break;
      }
    }
    QString tooltip = QString::fromStdString(info.tooltip);
    if (info.structural) tooltip += (tooltip.isEmpty() ? "" : "\n") + tr("Changing it recompiles the model (the state is kept).");
    editor->setToolTip(tooltip);
    editor->setObjectName(QString::fromStdString(info.key.name));
    form_->addRow(QString::fromStdString(info.label) + (info.structural ? QStringLiteral(" *") : QString()), editor);
    rows_.push_back(Row{std::move(info), editor});
  }
}

void PropertyPanel::commit(const PropertyInfo& info, const PropertyValue& value) {
  QString error;
  bool ok = false;
  std::vector<std::string> solver;
  if (info.key.item.kind == ItemKind::Solver && solver_choices(info.key.name, solver)) {
    // The same setters the ImGui Solver panel calls on a click.
    int index = -1;
    for (std::size_t i = 0; i < solver.size(); ++i)
      if (solver[i] == std::get<std::string>(value)) index = static_cast<int>(i);
    ok = document_.choose_solver_option(info.key.name, index, &error);
  } else {
    ok = document_.set_property(info.key, value, &error);
  }
  show_error(ok ? QString() : error);
  if (!ok) refresh_values();  // put the editor back to the spec's value
}

void PropertyPanel::refresh_values() {
  if (!document_.has_scene() || !item_exists(document_.spec(), item_)) {
    show_item({});
    return;
  }
  const std::vector<PropertyInfo> infos = describe_item(document_.spec(), item_);
  if (infos.size() != rows_.size()) {
    show_item(item_);
    return;
  }
  for (std::size_t i = 0; i < rows_.size(); ++i) {
    Row& row = rows_[i];
    row.info = infos[i];
    const QSignalBlocker block(row.editor);
    if (auto* d = qobject_cast<QDoubleSpinBox*>(row.editor)) d->setValue(std::get<double>(row.info.value));
    else if (auto* s = qobject_cast<QSpinBox*>(row.editor)) s->setValue(static_cast<int>(std::get<double>(row.info.value)));
    else if (auto* c = qobject_cast<QCheckBox*>(row.editor)) c->setChecked(std::get<bool>(row.info.value));
    else if (auto* b = qobject_cast<QComboBox*>(row.editor)) b->setCurrentText(QString::fromStdString(std::get<std::string>(row.info.value)));
  }
  title_->setText(QString::fromStdString(item_label(document_.spec(), item_)));
}

void PropertyPanel::refresh_live(const Snapshot& s) {
  if (!s.model || !isVisible()) return;
  const sim::Model& m = *s.model;
  const int i = item_.index;
  QString text;
  if (item_.kind == ItemKind::Body && i >= 0 && i < m.body_count && static_cast<int>(s.state.q.size()) == m.coord_count()) {
    const auto b = static_cast<std::size_t>(i);
    const sim::Vec3 x = s.state.body_position(i);
    const sim::Vec3 v = s.state.body_velocity(i);
    const sim::Vec3 inertia = m.body_inertia[b];
    text = m.body_inv_mass[b] > 0 ? tr("compiled mass %1 kg, principal inertia %2 %3 %4 kg m²\n")
                                        .arg(1.0 / m.body_inv_mass[b], 0, 'g', 5)
                                        .arg(inertia.x(), 0, 'g', 4)
                                        .arg(inertia.y(), 0, 'g', 4)
                                        .arg(inertia.z(), 0, 'g', 4)
                                  : tr("fixed (infinite mass)\n");
    text += tr("centre of mass at %1 %2 %3 m, speed %4 m/s").arg(x.x(), 0, 'f', 4).arg(x.y(), 0, 'f', 4).arg(x.z(), 0, 'f', 4).arg(v.norm(), 0, 'g', 4);
    // The mass editor reads -1 for "computed from the shapes": it shows the computed value.
    for (const Row& row : rows_)
      if (row.info.key.name == "mass")
        if (auto* box = qobject_cast<QDoubleSpinBox*>(row.editor)) {
          const QString computed = m.body_inv_mass[b] > 0 ? tr("computed: %1 kg").arg(1.0 / m.body_inv_mass[b], 0, 'g', 5)
                                                           : tr("computed (fixed body)");
          if (box->specialValueText() != computed) box->setSpecialValueText(computed);
        }
  } else if (item_.kind == ItemKind::Joint && i >= 0 && i < static_cast<int>(s.workspace.joint_force.size())) {
    text = tr("constraint force |λ| %1").arg(s.workspace.joint_force[static_cast<std::size_t>(i)], 0, 'g', 5);
  } else if (item_.kind == ItemKind::Particle && i >= 0 && i < m.particle_count) {
    const auto c = static_cast<std::size_t>(m.particle_coord(i));
    if (c + 2 < s.state.q.size())
      text = tr("at %1 %2 %3 m").arg(s.state.q[c], 0, 'f', 4).arg(s.state.q[c + 1], 0, 'f', 4).arg(s.state.q[c + 2], 0, 'f', 4);
    // A soft body's particle: where its material is edited.
    if (const int soft = soft_body_of_particle(document_.spec(), i); soft >= 0)
      text += tr("\nof %1 (its material: Soft bodies in the scene tree)")
                  .arg(QString::fromStdString(item_label(document_.spec(), {ItemKind::SoftBody, soft})));
    // Picked through a surface face: the face, its particles and the colour field there.
    if (face_moved_by(m, face_render_mesh_, face_, i)) {
      if (static_cast<int>(s.state.q.size()) == m.coord_count()) {
        field_values_.clear();
        if (field_ != render::ElementField::None)
          render::compute_element_field(m, s.state, s.stepped ? &s.workspace : nullptr, field_, field_values_);
        const FaceProbe probe = probe_face(m, s.state, face_render_mesh_, face_, face_point_, field_values_);
        text += "\n" + QString::fromStdString(describe_face_probe(probe, render::element_field_name(field_),
                                                                    render::element_field_unit(field_)));
      }
    }
  } else if (item_.kind == ItemKind::Solver && s.stepped) {
    text = tr("last step: %1 Newton iterations, %2 linear, max residual %3")
               .arg(s.report.newton_iterations)
               .arg(s.report.linear_iterations)
               .arg(s.max_residual, 0, 'g', 3);
  }
  if (live_->text() != text) live_->setText(text);
}

}  // namespace coulomb::gui
