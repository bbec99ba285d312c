#include "gui/import_messages_dialog.hpp"

#include <QApplication>
#include <QClipboard>
#include <QDialogButtonBox>
#include <QFileInfo>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QVBoxLayout>

namespace coulomb::gui {

int import_message_count(const sim::SceneSpec& spec) {
  int n = 0;
  for (const sim::RobotIncludeSpec& r : spec.robots) n += static_cast<int>(r.warnings.size());
  return n;
}

QString import_messages_text(const sim::SceneSpec& spec, const QStringList& load_warnings) {
  QString out;
  for (const sim::RobotIncludeSpec& r : spec.robots) {
    if (r.warnings.empty()) continue;
    out += QStringLiteral("%1 (%2):\n").arg(QFileInfo(QString::fromStdString(r.file)).fileName()).arg(r.warnings.size());
    for (const std::string& w : r.warnings) out += QStringLiteral("  ") + QString::fromStdString(w) + QLatin1Char('\n');
  }
  if (!load_warnings.isEmpty()) {
    out += QStringLiteral("load warnings (%1):\n").arg(load_warnings.size());
    for (const QString& w : load_warnings) out += QStringLiteral("  warning: ") + w + QLatin1Char('\n');
  }
  return out;
}

ImportMessagesDialog::ImportMessagesDialog(QWidget* parent) : QDialog(parent) {
  setObjectName(QStringLiteral("import_messages"));
  setWindowTitle(tr("Import messages"));
  setModal(false);
  setAttribute(Qt::WA_ShowWithoutActivating);  // the viewport keeps the keyboard
  resize(820, 360);
  auto* layout = new QVBoxLayout(this);
  summary_ = new QLabel(this);
  summary_->setWordWrap(true);
  layout->addWidget(summary_);
  list_ = new QPlainTextEdit(this);
  list_->setObjectName(QStringLiteral("import_messages_list"));
  list_->setReadOnly(true);
  list_->setLineWrapMode(QPlainTextEdit::NoWrap);
  layout->addWidget(list_, 1);
  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
  QPushButton* copy = buttons->addButton(tr("Copy"), QDialogButtonBox::ActionRole);
  connect(copy, &QPushButton::clicked, this, [this] { QApplication::clipboard()->setText(list_->toPlainText()); });
  connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::hide);
  layout->addWidget(buttons);
}

bool ImportMessagesDialog::set_scene(const sim::SceneSpec& spec, const QStringList& load_warnings) {
  const int count = import_message_count(spec);
  QString summary = count == 0 ? QString()
                    : count == 1 ? tr("1 feature of the robot files was dropped or approximated on import "
                                      "(file:line: element: what).")
                                 : tr("%1 features of the robot files were dropped or approximated on import "
                                      "(file:line: element: what).").arg(count);
  if (!load_warnings.isEmpty())
    summary += (summary.isEmpty() ? QString() : QStringLiteral(" ")) +
               (load_warnings.size() == 1
                    ? tr("1 load warning (a damaged SDF cache entry is deleted and baked again):")
                    : tr("%1 load warnings (a damaged SDF cache entry is deleted and baked again):")
                          .arg(load_warnings.size()));
  if (summary.isEmpty()) summary = tr("The robots of this scene imported without simplifications.");
  summary_->setText(summary);
  list_->setPlainText(import_messages_text(spec, load_warnings));
  return count > 0 || !load_warnings.isEmpty();
}

QString ImportMessagesDialog::text() const { return list_->toPlainText(); }

}  // namespace coulomb::gui
