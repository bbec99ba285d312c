#include "gui/scene_tree_panel.hpp"

#include <QHeaderView>
#include <QMenu>
#include <QMessageBox>
#include <filesystem>
#include <vector>

#include "gui/scene_document.hpp"

namespace coulomb::gui {

namespace {

constexpr int kRefRole = Qt::UserRole + 1;

QVariant encode(const ItemRef& item) {
  return QVariantList{static_cast<int>(item.kind), item.index, item.sub};
}

ItemRef decode(const QVariant& v) {
  const QVariantList list = v.toList();
  if (list.size() != 3) return {};
  return ItemRef{static_cast<ItemKind>(list[0].toInt()), list[1].toInt(), list[2].toInt()};
}

QString shape_text(const sim::ShapeSpec& s) {
  switch (s.type) {
    case sim::ShapeType::Plane: return QStringLiteral("plane");
    case sim::ShapeType::Sphere: return QStringLiteral("sphere r %1").arg(s.radius);
    case sim::ShapeType::Capsule: return QStringLiteral("capsule r %1 l %2").arg(s.radius).arg(2 * s.half_length);
    case sim::ShapeType::Box:
      return QStringLiteral("box %1 × %2 × %3").arg(2 * s.half_extents.x()).arg(2 * s.half_extents.y()).arg(2 * s.half_extents.z());
    case sim::ShapeType::ConvexMesh: return QStringLiteral("convex (%1 points)").arg(s.vertices.size());
    case sim::ShapeType::Cylinder: return QStringLiteral("cylinder r %1 l %2").arg(s.radius).arg(2 * s.half_length);
    case sim::ShapeType::Ellipsoid:
      return QStringLiteral("ellipsoid %1 × %2 × %3").arg(s.half_extents.x()).arg(s.half_extents.y()).arg(s.half_extents.z());
  }
  return QStringLiteral("shape");
}

QString joint_text(const sim::SceneSpec& spec, const sim::JointSpec& j) {
  static const char* const kTypes[] = {"fixed", "revolute", "prismatic", "ball"};
  auto body = [&](int b) {
    return b >= 0 && b < static_cast<int>(spec.bodies.size()) ? QString::fromStdString(spec.bodies[static_cast<std::size_t>(b)].name)
                                                              : QStringLiteral("world");
  };
  return QStringLiteral("%1 (%2: %3 → %4)")
      .arg(QString::fromStdString(j.name), QLatin1String(kTypes[static_cast<int>(j.type)]), body(j.body_a), body(j.body_b));
}

// The group node of robot include `r` under `parent` ("robot 'name' (N bodies)"), made on first use:
// a robot's bodies and joints are listed under their <robot> element's node.
QString robot_group_text(const sim::RobotIncludeSpec& r, int count, const char* what) {
  const QString name = QString::fromStdString(std::filesystem::path(r.file).stem().string());
  return QStringLiteral("robot '%1%2' (%3 %4)")
      .arg(QString::fromStdString(r.prefix), name)
      .arg(count)
      .arg(QLatin1String(what));
}

}  // namespace

SceneTreePanel::SceneTreePanel(SceneDocument& document, QWidget* parent) : QTreeWidget(parent), document_(document) {
  setHeaderHidden(true);
  setColumnCount(1);
  setSelectionMode(QAbstractItemView::SingleSelection);
  setContextMenuPolicy(Qt::CustomContextMenu);
  setUniformRowHeights(true);
  connect(this, &QTreeWidget::itemSelectionChanged, this, [this] {
    if (!updating_) emit item_selected(selected());
  });
  connect(this, &QTreeWidget::itemDoubleClicked, this, [this](QTreeWidgetItem* item, int) {
    const ItemRef ref = decode(item->data(0, kRefRole));
    if (ref.kind == ItemKind::Body || ref.kind == ItemKind::Particle || ref.kind == ItemKind::Shape) emit frame_requested(ref);
  });
  connect(this, &QWidget::customContextMenuRequested, this, &SceneTreePanel::context_menu);
}

QTreeWidgetItem* SceneTreePanel::add(QTreeWidgetItem* parent, const QString& text, const ItemRef& item,
                                     const QString& tooltip) {
  auto* node = parent ? new QTreeWidgetItem(parent) : new QTreeWidgetItem(this);
  node->setText(0, text);
  node->setData(0, kRefRole, encode(item));
  if (!tooltip.isEmpty()) node->setToolTip(0, tooltip);
  if (item.kind == ItemKind::None) node->setFlags(node->flags() & ~Qt::ItemIsSelectable);
  return node;
}

void SceneTreePanel::rebuild() {
  const ItemRef keep = selected();
  updating_ = true;
  clear();
  if (document_.has_scene()) {
    const sim::SceneSpec& spec = document_.spec();
    add(nullptr, QStringLiteral("Scene '%1'").arg(QString::fromStdString(spec.name)), {ItemKind::Scene});
    add(nullptr, QStringLiteral("Solver"), {ItemKind::Solver});

    auto* materials = add(nullptr, QStringLiteral("Materials (%1)").arg(spec.materials.size()), {});
    for (std::size_t m = 0; m < spec.materials.size(); ++m)
      add(materials, QStringLiteral("%1  μ %2").arg(QString::fromStdString(spec.materials[m].name)).arg(spec.materials[m].friction),
          {ItemKind::Material, static_cast<int>(m)});

    auto* world = add(nullptr, QStringLiteral("World (%1 shapes)").arg(spec.world_shapes.size()), {});
    for (std::size_t s = 0; s < spec.world_shapes.size(); ++s)
      add(world, shape_text(spec.world_shapes[s]), {ItemKind::Shape, -1, static_cast<int>(s)});

    // Bodies and joints a <robot> element imported sit under one node per robot.
    std::vector<QTreeWidgetItem*> robot_bodies(spec.robots.size(), nullptr), robot_joints(spec.robots.size(), nullptr);
    auto group = [&](std::vector<QTreeWidgetItem*>& groups, QTreeWidgetItem* parent, int robot, bool joints_group) {
      if (robot < 0) return parent;
      QTreeWidgetItem*& g = groups[static_cast<std::size_t>(robot)];
      if (!g) {
        const sim::RobotIncludeSpec& r = spec.robots[static_cast<std::size_t>(robot)];
        g = add(parent, joints_group ? robot_group_text(r, r.joint_count, "joints") : robot_group_text(r, r.body_count, "bodies"),
                {}, QString::fromStdString(r.path));
      }
      return g;
    };

    auto* bodies = add(nullptr, QStringLiteral("Bodies (%1)").arg(spec.bodies.size()), {});
    for (std::size_t b = 0; b < spec.bodies.size(); ++b) {
      const sim::BodySpec& body = spec.bodies[b];
      QString text = QString::fromStdString(body.name);
      if (body.fixed) text += QStringLiteral(" (fixed)");
      QTreeWidgetItem* parent = group(robot_bodies, bodies, sim::robot_of_body(spec, static_cast<int>(b)), false);
      auto* node = add(parent, text, {ItemKind::Body, static_cast<int>(b)});
      for (std::size_t s = 0; s < body.shapes.size(); ++s)
        add(node, shape_text(body.shapes[s]), {ItemKind::Shape, static_cast<int>(b), static_cast<int>(s)});
    }

    auto* joints = add(nullptr, QStringLiteral("Joints (%1)").arg(spec.joints.size()), {});
    for (std::size_t j = 0; j < spec.joints.size(); ++j)
      add(group(robot_joints, joints, sim::robot_of_joint(spec, static_cast<int>(j)), true), joint_text(spec, spec.joints[j]),
          {ItemKind::Joint, static_cast<int>(j)});

    const int particle_count = static_cast<int>(spec.particles.size());
    auto* particles = add(nullptr, QStringLiteral("Particles (%1, %2 distances)").arg(particle_count).arg(spec.distances.size()), {});
    for (int p = 0; p < particle_count && p < kMaxParticlesListed; ++p) {
      const sim::ParticleSpec& ps = spec.particles[static_cast<std::size_t>(p)];
      add(particles, QStringLiteral("particle %1%2").arg(p).arg(ps.mass == 0 ? QStringLiteral(" (pinned)") : QString()),
          {ItemKind::Particle, p});
    }
    if (particle_count > kMaxParticlesListed)
      add(particles, QStringLiteral("… %1 more (pick them in the viewport)").arg(particle_count - kMaxParticlesListed), {});
    if (!spec.soft_bodies.empty()) {
      auto* soft = add(nullptr, QStringLiteral("Soft bodies (%1)").arg(spec.soft_bodies.size()), {});
      for (std::size_t b = 0; b < spec.soft_bodies.size(); ++b)
        add(soft, QStringLiteral("%1  (%2 tets)").arg(QString::fromStdString(spec.soft_bodies[b].name)).arg(spec.soft_bodies[b].tets.size()),
            {ItemKind::SoftBody, static_cast<int>(b)});
      soft->setExpanded(true);
    }

    bodies->setExpanded(true);
    materials->setExpanded(true);
  }
  updating_ = false;
  select(keep);
}

QTreeWidgetItem* SceneTreePanel::find(const ItemRef& item) const {
  if (item.kind == ItemKind::None) return nullptr;
  for (QTreeWidgetItemIterator it(const_cast<SceneTreePanel*>(this)); *it; ++it)
    if (decode((*it)->data(0, kRefRole)) == item) return *it;
  return nullptr;
}

void SceneTreePanel::select(const ItemRef& item) {
  const bool was = updating_;
  updating_ = true;
  QTreeWidgetItem* node = find(item);
  clearSelection();
  if (node) {
    node->setSelected(true);
    setCurrentItem(node);
    scrollToItem(node);
  }
  updating_ = was;
}

ItemRef SceneTreePanel::selected() const {
  const QList<QTreeWidgetItem*> items = selectedItems();
  if (items.isEmpty()) return {};
  return decode(items.front()->data(0, kRefRole));
}

void SceneTreePanel::context_menu(const QPoint& position) {
  QTreeWidgetItem* node = itemAt(position);
  if (!node) return;
  const ItemRef ref = decode(node->data(0, kRefRole));
  if (ref.kind != ItemKind::Body && ref.kind != ItemKind::Particle) return;
  QMenu menu(this);
  QAction* frame = menu.addAction(tr("Frame in viewport"));
  QAction* duplicate = nullptr;
  QAction* remove = nullptr;
  if (ref.kind == ItemKind::Body) {
    duplicate = menu.addAction(tr("Duplicate body"));
    remove = menu.addAction(tr("Delete body (and its joints)"));
  }
  QAction* chosen = menu.exec(viewport()->mapToGlobal(position));
  if (!chosen) return;
  QString error;
  bool ok = true;
  if (chosen == frame) emit frame_requested(ref);
  else if (chosen == duplicate) ok = document_.duplicate_body(ref.index, &error);
  else if (chosen == remove) ok = document_.delete_body(ref.index, &error);
  if (!ok) QMessageBox::warning(this, tr("Edit rejected"), error);
}

}  // namespace coulomb::gui
