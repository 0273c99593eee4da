#include <parity/ui/widgets/config_form.h>

#include <QAbstractButton>
#include <QFormLayout>
#include <QLabel>
#include <QRegularExpression>
#include <QVBoxLayout>
#include <algorithm>

namespace parity::ui {

WrappedLabel::WrappedLabel(QWidget* parent) : QLabel(parent) { setWordWrap(true); }

int WrappedLabel::heightAt(int width) const {
  return text().isEmpty() ? 0 : QLabel::heightForWidth(std::max(1, width));
}

QSize WrappedLabel::sizeHint() const {
  const int w = width() > 1 ? width() : QLabel::sizeHint().width();
  return {QLabel::sizeHint().width(), heightAt(w)};
}

QSize WrappedLabel::minimumSizeHint() const {
  const int w = width() > 1 ? width() : QLabel::sizeHint().width();
  return {QLabel::minimumSizeHint().width(), heightAt(w)};
}

void WrappedLabel::resizeEvent(QResizeEvent* event) {
  QLabel::resizeEvent(event);
  // A new width wraps the text anew: ask the layout for the height that takes.
  if (heightAt(width()) != height()) updateGeometry();
}

ConfigForm::ConfigForm(QWidget* parent) : QWidget(parent), form_(new QFormLayout(this)) {
  form_->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
  form_->setLabelAlignment(Qt::AlignRight | Qt::AlignVCenter);
  form_->setContentsMargins(6, 6, 6, 6);
  form_->setVerticalSpacing(4);
}

void ConfigForm::addField(const QString& field, const QString& label, QWidget* editor,
                          const QString& toolTip, const QStringList& aliases) {
  auto* row = new QWidget(this);
  auto* box = new QVBoxLayout(row);
  box->setContentsMargins(0, 0, 0, 0);
  box->setSpacing(1);
  box->addWidget(editor);
  auto* message = new WrappedLabel(row);
  message->setObjectName("issue_" + field);
  message->setStyleSheet("color: #c62828;");
  message->hide();
  box->addWidget(message);
  if (!toolTip.isEmpty()) editor->setToolTip(toolTip);
  auto* labelWidget = new QLabel(label, this);
  labelWidget->setBuddy(editor);
  if (!toolTip.isEmpty()) labelWidget->setToolTip(toolTip);
  form_->addRow(labelWidget, row);
  auto* button = qobject_cast<QAbstractButton*>(editor);  // a check box says its own label
  QString plain = label.isEmpty() && button ? button->text() : label;
  plain.remove('&');
  if (plain.endsWith(':')) plain.chop(1);
  fields_.insert(field, Field{row, editor, message, plain});
  for (const QString& a : aliases) alias_.insert(a, field);
}

void ConfigForm::setFieldVisible(const QString& field, bool visible) {
  auto it = fields_.find(field);
  if (it == fields_.end()) return;
  form_->setRowVisible(it->row, visible);
  it->hidden = !visible;
}

void ConfigForm::changed() {
  if (!loading_) emit edited();
}

QStringList ConfigForm::showIssues(const std::vector<config::ConfigIssue>& issues) {
  QHash<QString, QStringList> byField;
  QStringList unplaced;
  for (const auto& issue : issues) {
    QString field = QString::fromStdString(issue.field);
    field = alias_.value(field, field);
    // A hidden row's message would be seen by no one: it goes to the panel's summary instead.
    if (fields_.contains(field) && !fields_.value(field).hidden) {
      byField[field] << inFormWords(issue.message);
    } else {
      unplaced << inFormWords(issue.message);
    }
  }
  for (auto it = fields_.begin(); it != fields_.end(); ++it) {
    const QStringList messages = byField.value(it.key());
    it->message->setText(messages.join('\n'));
    it->message->setVisible(!messages.isEmpty());
  }
  return unplaced;
}

QString ConfigForm::inFormWords(const std::string& message) const {
  QString text = QString::fromStdString(message);
  // check()'s "data_path: \"\" is not allowed; ..." names the config key: the form names its
  // label, and an empty value is just what is missing.
  const qsizetype colon = text.indexOf(": ");
  const auto named = fields_.constFind(text.left(colon));  // an alias is another key: kept
  if (colon > 0 && named != fields_.constEnd()) {
    const QString empty = QStringLiteral("\"\" is not allowed; ");
    text = text.mid(colon + 2).startsWith(empty)
               ? text.mid(colon + 2 + empty.size())
               : (named->label.isEmpty() ? text.left(colon) : named->label) + text.mid(colon);
  }
  static const QRegularExpression kHint(R"( ?\(--[a-z-]+(?: [A-Z][A-Za-z.]*)?\))");
  text.remove(kHint);
  static const QRegularExpression kFlag(R"(--([a-z][a-z-]*))");
  QString out;
  qsizetype at = 0;
  for (auto it = kFlag.globalMatch(text); it.hasNext();) {
    const QRegularExpressionMatch m = it.next();
    QString field = m.captured(1).replace('-', '_');
    if (field == "data") field = "data_path";  // the command line's one short name
    field = alias_.value(field, field);
    const auto f = fields_.constFind(field);
    out +=
        text.mid(at, m.capturedStart() - at) + (f == fields_.constEnd() ? m.captured() : f->label);
    at = m.capturedEnd();
  }
  return out + text.mid(at);
}

QString ConfigForm::issueText(const QString& field) const {
  auto it = fields_.find(field);
  return it == fields_.end() || it->message->isHidden() ? QString() : it->message->text();
}

QWidget* ConfigForm::editor(const QString& field) const {
  auto it = fields_.find(field);
  return it == fields_.end() ? nullptr : it->editor;
}

}  // namespace parity::ui
