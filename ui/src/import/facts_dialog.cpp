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

FactsDialog::FactsDialog(qint64 runId, const QString& label, const config::RunFacts& f,
                         QWidget* parent)
    : QDialog(parent) {
  setWindowTitle(tr("Facts of run %1").arg(runId));
  auto* form = new QFormLayout;
  auto addRow = [&](const QString& name, const QString& flag, QWidget* editor,
                    const QString& initial, const QString& provenance) {
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
    form->addRow(name, box);
    fields_.push_back({name, flag, editor, initial});
  };
  auto number = [&](const QString& name, const QString& flag, const auto& fact) {
    auto* edit = new QLineEdit(valueText(fact), this);
    edit->setPlaceholderText(tr("unknown"));
    edit->setMaximumWidth(140);
    addRow(name, flag, edit, valueText(fact), provenanceText(fact));
  };
  auto choice = [&](const QString& name, const QString& flag, const auto& fact,
                    const QStringList& choices) {
    auto* combo = new QComboBox(this);
    combo->addItem(tr("unknown"), QString());
    for (const QString& c : choices) combo->addItem(c, c);
    // A value the log spelled otherwise ("cosine_with_restarts") is shown as it is, not as unknown.
    if (!valueText(fact).isEmpty() && combo->findData(valueText(fact)) < 0)
      combo->addItem(valueText(fact), valueText(fact));
    const int at = combo->findData(valueText(fact));
    combo->setCurrentIndex(at < 0 ? 0 : at);
    addRow(name, flag, combo, combo->currentData().toString(), provenanceText(fact));
  };
  number(tr("Processes"), "--num-processes", f.num_processes);
  number(tr("Per-device batch"), "--per-device-batch-size", f.per_device_batch_size);
  number(tr("Accumulation steps"), "--gradient-accumulation-steps", f.gradient_accumulation_steps);
  number(tr("Learning rate"), "--learning-rate", f.learning_rate);
  choice(tr("LR scaling"), "--lr-scaling", f.lr_scaling, {"none", "linear", "sqrt"});
  choice(tr("LR schedule"), "--scheduler", f.schedule,
         {"constant", "linear", "cosine", "step", "onecycle"});
  number(tr("Seed"), "--seed", f.seed);
  choice(tr("Mixed precision"), "--mixed-precision", f.mixed_precision, {"no", "bf16", "fp16"});
  choice(tr("Seedable sampler"), "--use-seedable-sampler", f.use_seedable_sampler,
         {"true", "false"});
  number(tr("Threads per rank"), "--threads-per-rank", f.threads_per_rank);
  number(tr("Training samples"), "--train-samples", f.train_samples);
  number(tr("Epochs"), "--epochs", f.epochs);
  // The model in words, as the import dialog lists it ("mlp, dropout 0.25"): any text.
  auto* model = new QLineEdit(valueText(f.model), this);
  model->setPlaceholderText(tr("unknown"));
  addRow(tr("Model"), "--model", model, valueText(f.model), provenanceText(f.model));

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

QString FactsDialog::current(const Field& f) const {
  if (auto* edit = qobject_cast<QLineEdit*>(f.editor)) return edit->text().trimmed();
  if (auto* combo = qobject_cast<QComboBox*>(f.editor)) return combo->currentData().toString();
  return {};
}

QString FactsDialog::validate() const {
  for (const Field& f : fields_) {
    const QString text = current(f);
    if (text == f.initial) continue;
    if (text.isEmpty()) return tr("%1: a fact cannot be made unknown again").arg(f.name);
    if (!qobject_cast<QLineEdit*>(f.editor) || f.flag == "--model") continue;
    bool ok = false;
    if (f.flag == "--learning-rate") {
      const double v = text.toDouble(&ok);
      if (!ok || !std::isfinite(v) || v <= 0) return tr("Learning rate: a positive number");
    } else if (f.flag == "--seed") {
      text.toLongLong(&ok);
      if (!ok) return tr("Seed: a whole number");
    } else {
      if (text.toLongLong(&ok) <= 0 || !ok) return tr("%1: a positive whole number").arg(f.name);
    }
  }
  return {};
}

QStringList FactsDialog::changedFlags() const {
  QStringList flags;
  for (const Field& f : fields_) {
    const QString text = current(f);
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
