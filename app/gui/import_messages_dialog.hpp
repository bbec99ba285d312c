// The import simplifications of an opened scene's robots (URDF/MJCF features dropped or
// approximated, each "file:line: <element>: what") and the load warnings of its compile (SDF
// cache entries found damaged or truncated and baked again: SceneDocument::open_warnings),
// listed in a non-modal dialog that the main window shows when a scene with such messages opens
// (and on View > Import messages).
#pragma once

#include <QDialog>
#include <QString>
#include <QStringList>

#include "sim/spec.hpp"

class QLabel;
class QPlainTextEdit;

namespace coulomb::gui {

// One line per message, grouped by robot file, then the load warnings under "load warnings";
// empty when there are none.
QString import_messages_text(const sim::SceneSpec& spec, const QStringList& load_warnings = {});
// How many messages the scene's robots have.
int import_message_count(const sim::SceneSpec& spec);

class ImportMessagesDialog : public QDialog {
  Q_OBJECT
 public:
  explicit ImportMessagesDialog(QWidget* parent = nullptr);
  // Fills the list from `spec` and the load warnings; returns whether there is anything to show.
  bool set_scene(const sim::SceneSpec& spec, const QStringList& load_warnings = {});
  QString text() const;

 private:
  QLabel* summary_ = nullptr;
  QPlainTextEdit* list_ = nullptr;
};

}  // namespace coulomb::gui
