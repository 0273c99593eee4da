#pragma once
/// Base of the setup and experiment forms: a QFormLayout whose fields are keyed by the config
/// field name check() uses, so each ConfigIssue lands under the editor it concerns.
/// Thread affinity: UI thread.

#include <parity/config/run_config.h>

#include <QHash>
#include <QLabel>
#include <QString>
#include <QWidget>
#include <vector>

class QFormLayout;

namespace parity::ui {

/// A word-wrapped label for a form row (an issue, a note). It reports no height-for-width, since
/// Qt 6.4's QFormLayout, once a row has one, can give rows after hidden rows zero height (the Model
/// row vanished); its height follows the width the layout gave it instead.
class WrappedLabel : public QLabel {
 public:
  explicit WrappedLabel(QWidget* parent = nullptr);
  bool hasHeightForWidth() const override { return false; }
  QSize sizeHint() const override;
  QSize minimumSizeHint() const override;

 protected:
  void resizeEvent(QResizeEvent* event) override;

 private:
  int heightAt(int width) const;
};

class ConfigForm : public QWidget {
  Q_OBJECT
 public:
  explicit ConfigForm(QWidget* parent = nullptr);

  /// Shows each issue under its field; returns the messages of issues with no field here, or
  /// whose field is hidden. Messages are in the form's words (inFormWords).
  QStringList showIssues(const std::vector<config::ConfigIssue>& issues);
  /// The inline message under a field (empty when none); for tests.
  QString issueText(const QString& field) const;
  QWidget* editor(const QString& field) const;
  /// A field's label as the form shows it ("Target column"); empty for a field not here.
  QString fieldLabel(const QString& field) const { return fields_.value(field).label; }
  /// A check() message as the form says it: the command line's hints ("(--data FILE)") left
  /// out, since the message sits under the field, and a flag named in the text ("for --model
  /// torchscript") called by the label of its field here ("for Model torchscript").
  QString inFormWords(const std::string& message) const;

 signals:
  /// The user changed a value.
  void edited();

 protected:
  /// Adds a row: label, editor, and a hidden red message line beneath. `aliases` are other
  /// check() field names shown under the same editor.
  void addField(const QString& field, const QString& label, QWidget* editor,
                const QString& toolTip = {}, const QStringList& aliases = {});
  void setFieldVisible(const QString& field, bool visible);
  /// Every field added, in no particular order.
  QStringList fieldNames() const { return fields_.keys(); }
  /// Emits edited() unless the form is being filled from a config.
  void changed();

  QFormLayout* form_;
  bool loading_ = false;

 private:
  struct Field {
    QWidget* row = nullptr;
    QWidget* editor = nullptr;
    QLabel* message = nullptr;
    QString label;        ///< as the form shows it, without mnemonic or colon
    bool hidden = false;  ///< hidden by setFieldVisible (the field does not apply)
  };
  QHash<QString, Field> fields_;
  QHash<QString, QString> alias_;
};

}  // namespace parity::ui
