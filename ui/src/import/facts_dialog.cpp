#include <parity/ui/import/facts_dialog.h>

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QVBoxLayout>
#include <cmath>
#include <string>
#include <type_traits>

namespace parity::ui {

namespace {

template <class T>
QString valueText(const config::Fact<T>& fact) {
  if (!fact.has_value()) return {};
  if constexpr (std::is_same_v<T, std::string>) {
    return QString::fromStdString(*fact);
  } else if constexpr (std::is_same_v<T, bool>) {
    return *fact ? QStringLiteral("true") : QStringLiteral("false");
  } else if constexpr (std::is_same_v<T, double>) {
    return QString::number(*fact, 'g', 10);
  } else {
    return QString::number(*fact);
  }
}

// "known: hparams.yml (per_device_train_batch_size)", "derived: ...", "unknown".
template <class T>
QString provenanceText(const config::Fact<T>& fact) {
  const QString kind = QString::fromLatin1(config::to_string(fact.provenance).data());
  return fact.source.empty() ? kind : kind + ": " + QString::fromStdString(fact.source);
}

}  // namespace

void FactsDialog::addFact(QFormLayout& form, const config::FactField& field, const QString& value,
                          const QString& provenance, Kind kind) {
  const QString name = tr(std::string(field.title).c_str());
  const QString flag = QString::fromLatin1(field.flag.data(), static_cast<int>(field.flag.size()));
  const std::vector<std::string> choices = config::fact_choices(field);
  QWidget* editor = nullptr;
  if (choices.empty()) {
    // A number, or the model in words as the import dialog lists it ("mlp, dropout 0.25").
    auto* edit = new QLineEdit(value, this);
    edit->setPlaceholderText(tr("unknown"));
    if (kind != Kind::kText) edit->setMaximumWidth(140);
    editor = edit;
  } else {
    auto* combo = new QComboBox(this);
    combo->addItem(tr("unknown"), QString());
    for (const std::string& c : choices)
      combo->addItem(QString::fromStdString(c), QString::fromStdString(c));
    // A value the log spelled otherwise ("cosine_with_restarts") is shown as it is, not as unknown.
    if (!value.isEmpty() && combo->findData(value) < 0) combo->addItem(value, value);
    const int at = combo->findData(value);
    combo->setCurrentIndex(at < 0 ? 0 : at);
    editor = combo;
  }
  auto* from = new QLabel(provenance, this);
  from->setStyleSheet(QStringLiteral("color: palette(mid)"));
  from->setWordWrap(true);
  auto* box = new QWidget(this);
  auto* row = new QHBoxLayout(box);
  row->setContentsMargins(0, 0, 0, 0);
  row->addWidget(editor);
  row->addWidget(from, 1);
  editor->setToolTip(provenance);
  editor->setObjectName("fact" + flag);  // "fact--seed": found by tests and the UI trace
  form.addRow(name, box);
  fields_.push_back({name, flag, editor, current(editor), kind});
}

FactsDialog::FactsDialog(qint64 runId, const QString& label, const config::RunFacts& f,
                         QWidget* parent)
    : QDialog(parent) {
  setWindowTitle(tr("Facts of run %1").arg(runId));
  auto* form = new QFormLayout;
  // One row a fact of the engine's field table, in its order: a fact added there shows here.
  config::for_each_fact_field([&](const config::FactField& field, auto member) {
    const auto& fact = f.*member;
    using T = std::decay_t<decltype(*fact)>;
    Kind kind = Kind::kText;
    if constexpr (std::is_same_v<T, int64_t>) kind = field.positive ? Kind::kCount : Kind::kWhole;
    if constexpr (std::is_same_v<T, double>) kind = Kind::kNumber;
    addFact(*form, field, valueText(fact), provenanceText(fact), kind);
  });

  auto* intro = new QLabel(
      tr("How run %1 (%2) trained. The verdict names causes only from known and derived facts; "
         "a value given here becomes known.")
          .arg(runId)
          .arg(label),
      this);
  intro->setWordWrap(true);
  auto* problem = new QLabel(this);
  problem->setStyleSheet(QStringLiteral("color: #c62828"));
  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
  connect(buttons, &QDialogButtonBox::accepted, this, [this, problem] {
    const QString why = validate();
    problem->setText(why);
    if (why.isEmpty()) accept();
  });
  connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
  auto* layout = new QVBoxLayout(this);
  layout->addWidget(intro);
  layout->addLayout(form);
  layout->addWidget(problem);
  layout->addWidget(buttons);
}

QString FactsDialog::current(const QWidget* editor) const {
  if (auto* edit = qobject_cast<const QLineEdit*>(editor)) return edit->text().trimmed();
  if (auto* combo = qobject_cast<const QComboBox*>(editor)) return combo->currentData().toString();
  return {};
}

QString FactsDialog::validate() const {
  for (const Field& f : fields_) {
    const QString text = current(f.editor);
    if (text == f.initial) continue;
    if (text.isEmpty()) return tr("%1: a fact cannot be made unknown again").arg(f.name);
    bool ok = false;
    if (f.kind == Kind::kNumber) {
      const double v = text.toDouble(&ok);
      if (!ok || !std::isfinite(v) || v <= 0) return tr("%1: a positive number").arg(f.name);
    } else if (f.kind == Kind::kWhole) {
      text.toLongLong(&ok);
      if (!ok) return tr("%1: a whole number").arg(f.name);
    } else if (f.kind == Kind::kCount) {
      if (text.toLongLong(&ok) <= 0 || !ok) return tr("%1: a positive whole number").arg(f.name);
    }
  }
  return {};
}

QStringList FactsDialog::changedFlags() const {
  QStringList flags;
  for (const Field& f : fields_) {
    const QString text = current(f.editor);
    if (text == f.initial || text.isEmpty()) continue;
    flags << f.flag << text;
  }
  return flags;
}

QWidget* FactsDialog::editor(const QString& flag) const {
  for (const Field& f : fields_)
    if (f.flag == flag) return f.editor;
  return nullptr;
}

}  // namespace parity::ui
