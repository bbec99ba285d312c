// The scene tree: scene and solver settings, materials, world geometry, bodies with their
// shapes, joints and particles. Selecting an item selects it everywhere (property view,
// viewport); a context menu on bodies deletes, duplicates or frames them.
#pragma once

#include <QTreeWidget>

#include "gui/scene_properties.hpp"

namespace coulomb::gui {

class SceneDocument;

class SceneTreePanel : public QTreeWidget {
  Q_OBJECT

 public:
  explicit SceneTreePanel(SceneDocument& document, QWidget* parent = nullptr);

  // Rebuilds from the document's spec, keeping the selection where it still exists.
  void rebuild();
  // Selects the item without emitting item_selected (the caller already knows).
  void select(const ItemRef& item);
  ItemRef selected() const;

  static constexpr int kMaxParticlesListed = 5000;

 signals:
  void item_selected(const coulomb::gui::ItemRef& item);
  void frame_requested(const coulomb::gui::ItemRef& item);

 private:
  QTreeWidgetItem* add(QTreeWidgetItem* parent, const QString& text, const ItemRef& item, const QString& tooltip = {});
  QTreeWidgetItem* find(const ItemRef& item) const;
  void context_menu(const QPoint& position);

  SceneDocument& document_;
  bool updating_ = false;
};

}  // namespace coulomb::gui
