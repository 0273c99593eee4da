#include <parity/ui/experiment_form.h>
#include <parity/ui/file_dialogs.h>

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QHBoxLayout>
#include <QLineEdit>
#include <QSpinBox>
#include <QToolButton>
#include <limits>

namespace parity::ui {

namespace {

constexpr int kIntMax = std::numeric_limits<int>::max();

QSpinBox* spin(QWidget* parent, int lo, int hi) {
  auto* s = new QSpinBox(parent);
  s->setRange(lo, hi);
  s->setKeyboardTracking(false);
  return s;
}

QDoubleSpinBox* real(QWidget* parent, double lo, double hi, int decimals, double step) {
  auto* s = new QDoubleSpinBox(parent);
  s->setRange(lo, hi);
  s->setDecimals(decimals);
  s->setSingleStep(step);
  s->setKeyboardTracking(false);
  return s;
}

template <typename E>
void fillCombo(QComboBox* combo, std::initializer_list<E> values) {
  for (E v : values)
    combo->addItem(QString::fromStdString(engine::to_string(v)), static_cast<int>(v));
}

template <typename E>
E comboValue(const QComboBox* combo) {
  return static_cast<E>(combo->currentData().toInt());
}

template <typename E>
void setCombo(QComboBox* combo, E value) {
  combo->setCurrentIndex(combo->findData(static_cast<int>(value)));
}

QString joinInts(const std::vector<int64_t>& v) {
  QStringList parts;
  for (int64_t x : v) parts << QString::number(x);
  return parts.join(", ");
}

}  // namespace

ExperimentForm::ExperimentForm(QWidget* parent)
    : ConfigForm(parent),
      dataset_(new QComboBox(this)),
      dataPath_(new QLineEdit(this)),
      task_(new QComboBox(this)),
      target_(new QLineEdit(this)),
      features_(new QLineEdit(this)),
      trainSamples_(spin(this, 0, kIntMax)),
      syntheticSamples_(spin(this, 0, kIntMax)),
      noise_(real(this, 0, 100, 3, 0.05)),
      model_(new QComboBox(this)),
      hidden_(new QLineEdit(this)),
      optimizer_(new QComboBox(this)),
      lr_(real(this, 0, 100, 6, 0.01)),
      momentum_(real(this, 0, 1, 3, 0.1)),
      weightDecay_(real(this, 0, 10, 6, 0.0001)),
      scheduler_(new QComboBox(this)),
      warmup_(spin(this, 0, kIntMax)),
      stepSize_(spin(this, 0, kIntMax)),
      gamma_(real(this, 0, 1, 4, 0.05)),
      epochs_(spin(this, 0, 100000)),
      maxSteps_(spin(this, 0, kIntMax)) {
  using namespace engine;
  fillCombo(dataset_,
            {DatasetKind::kFashionMnist, DatasetKind::kSyntheticRegression, DatasetKind::kCsv});
  fillCombo(task_, {Task::kClassification, Task::kRegression});
  fillCombo(model_, {ModelKind::kLinear, ModelKind::kMlp, ModelKind::kCnn});
  fillCombo(optimizer_, {OptimizerKind::kSgd, OptimizerKind::kAdamW});
  fillCombo(scheduler_, {SchedulerKind::kConstant, SchedulerKind::kLinear, SchedulerKind::kCosine,
                         SchedulerKind::kStep});
  trainSamples_->setSpecialValueText(tr("all"));
  maxSteps_->setSpecialValueText(tr("all epochs"));
  hidden_->setPlaceholderText("256, 128");
  features_->setPlaceholderText(tr("all columns but the target"));

  auto* pathRow = new QWidget(this);
  auto* pathLayout = new QHBoxLayout(pathRow);
  pathLayout->setContentsMargins(0, 0, 0, 0);
  pathLayout->addWidget(dataPath_, 1);
  auto* browse = new QToolButton(pathRow);
  browse->setText("…");
  browse->setToolTip(tr("Choose the dataset folder or CSV file"));
  pathLayout->addWidget(browse);
  connect(browse, &QToolButton::clicked, this, &ExperimentForm::browseData);

  addField("dataset", tr("Dataset"), dataset_);
  addField("data_path", tr("Data path"), pathRow,
           tr("Folder with the four Fashion-MNIST *-ubyte.gz files, or the CSV file"), {"data"});
  addField("task", tr("Task"), task_);
  addField("target", tr("Target column"), target_);
  addField("features", tr("Feature columns"), features_, tr("Comma-separated column names"));
  addField("train_samples", tr("Training samples"), trainSamples_,
           tr("Use only the first N training samples (all = the whole set)"));
  addField("synthetic_samples", tr("Samples"), syntheticSamples_);
  addField("synthetic_noise", tr("Noise σ"), noise_);
  addField("model", tr("Model"), model_, {}, {"init", "loss"});
  addField("hidden", tr("Hidden layers"), hidden_, tr("MLP widths, comma-separated"));
  addField("optimizer", tr("Optimizer"), optimizer_);
  addField("lr", tr("Base learning rate"), lr_,
           tr("Before lr scaling; each setup's effective lr is in the equivalent-batch table"));
  addField("momentum", tr("Momentum"), momentum_);
  addField("weight_decay", tr("Weight decay"), weightDecay_);
  addField("scheduler", tr("Scheduler"), scheduler_,
           tr("Advanced once per process per optimizer step (once with split_batches), so a "
              "schedule in single-process steps lasts the same number of samples"));
  addField("warmup_steps", tr("Warm-up steps"), warmup_);
  addField("scheduler_step_size", tr("Decay every"), stepSize_);
  addField("scheduler_gamma", tr("Decay factor"), gamma_);
  addField("epochs", tr("Epochs"), epochs_);
  addField("max_steps", tr("Max optimizer steps"), maxSteps_);

  for (QComboBox* c : {dataset_, task_, model_, optimizer_, scheduler_}) {
    connect(c, &QComboBox::currentIndexChanged, this, [this] {
      updateVisibility();
      changed();
    });
  }
  // A dataset implies its task; csv leaves it to the user.
  connect(dataset_, &QComboBox::currentIndexChanged, this, [this] {
    if (loading_) return;
    const auto d = comboValue<engine::DatasetKind>(dataset_);
    if (d == engine::DatasetKind::kFashionMnist) setCombo(task_, engine::Task::kClassification);
    if (d == engine::DatasetKind::kSyntheticRegression) setCombo(task_, engine::Task::kRegression);
  });
  for (QLineEdit* e : {dataPath_, target_, features_, hidden_}) {
    connect(e, &QLineEdit::editingFinished, this, &ExperimentForm::changed);
  }
  for (QSpinBox* s : {trainSamples_, syntheticSamples_, warmup_, stepSize_, epochs_, maxSteps_}) {
    connect(s, &QSpinBox::valueChanged, this, &ExperimentForm::changed);
  }
  for (QDoubleSpinBox* s : {noise_, lr_, momentum_, weightDecay_, gamma_}) {
    connect(s, &QDoubleSpinBox::valueChanged, this, &ExperimentForm::changed);
  }
  updateVisibility();
}

void ExperimentForm::updateVisibility() {
  using namespace engine;
  const auto d = comboValue<DatasetKind>(dataset_);
  setFieldVisible("data_path", d != DatasetKind::kSyntheticRegression);
  dataPath_->setPlaceholderText(d == DatasetKind::kFashionMnist
                                    ? tr("default: /usr/share/datasets/fashion-mnist")
                                    : tr("path to a .csv file"));
  for (const char* f : {"task", "target", "features"}) setFieldVisible(f, d == DatasetKind::kCsv);
  setFieldVisible("synthetic_samples", d == DatasetKind::kSyntheticRegression);
  setFieldVisible("synthetic_noise", d == DatasetKind::kSyntheticRegression);
  setFieldVisible("train_samples", d != DatasetKind::kSyntheticRegression);
  setFieldVisible("hidden", comboValue<ModelKind>(model_) == ModelKind::kMlp);
  setFieldVisible("momentum", comboValue<OptimizerKind>(optimizer_) == OptimizerKind::kSgd);
  const auto s = comboValue<SchedulerKind>(scheduler_);
  setFieldVisible("warmup_steps", s != SchedulerKind::kConstant);
  setFieldVisible("scheduler_step_size", s == SchedulerKind::kStep);
  setFieldVisible("scheduler_gamma", s == SchedulerKind::kStep);
}

void ExperimentForm::browseData() {
  const bool csv = comboValue<engine::DatasetKind>(dataset_) == engine::DatasetKind::kCsv;
  const QString path =
      csv ? askPath(this, FileDialogKind::kOpenFile, tr("CSV dataset"), dataPath_->text(),
                    tr("CSV files (*.csv);;All files (*)"))
          : askPath(this, FileDialogKind::kFolder, tr("Fashion-MNIST folder"), dataPath_->text());
  if (path.isEmpty()) return;
  dataPath_->setText(path);
  changed();
}

void ExperimentForm::setConfig(const engine::RunConfig& c) {
  loading_ = true;
  setCombo(dataset_, c.dataset);
  dataPath_->setText(QString::fromStdString(c.data_path));
  setCombo(task_, c.task);
  target_->setText(QString::fromStdString(c.target));
  QStringList features;
  for (const auto& f : c.features) features << QString::fromStdString(f);
  features_->setText(features.join(", "));
  trainSamples_->setValue(static_cast<int>(std::min<int64_t>(c.train_samples, kIntMax)));
  syntheticSamples_->setValue(static_cast<int>(std::min<int64_t>(c.synthetic_samples, kIntMax)));
  noise_->setValue(c.synthetic_noise);
  setCombo(model_, c.model);
  hidden_->setText(joinInts(c.hidden));
  setCombo(optimizer_, c.optimizer);
  lr_->setValue(c.lr);
  momentum_->setValue(c.momentum);
  weightDecay_->setValue(c.weight_decay);
  setCombo(scheduler_, c.scheduler);
  warmup_->setValue(static_cast<int>(std::min<int64_t>(c.warmup_steps, kIntMax)));
  stepSize_->setValue(static_cast<int>(std::min<int64_t>(c.scheduler_step_size, kIntMax)));
  gamma_->setValue(c.scheduler_gamma);
  epochs_->setValue(c.epochs);
  maxSteps_->setValue(static_cast<int>(std::min<int64_t>(c.max_steps, kIntMax)));
  updateVisibility();
  loading_ = false;
}

engine::RunConfig ExperimentForm::config(const engine::RunConfig& base) const {
  engine::RunConfig c = base;
  c.dataset = comboValue<engine::DatasetKind>(dataset_);
  c.data_path = dataPath_->text().trimmed().toStdString();
  c.task = comboValue<engine::Task>(task_);
  c.target = target_->text().trimmed().toStdString();
  c.features.clear();
  for (const QString& f : features_->text().split(',', Qt::SkipEmptyParts)) {
    if (!f.trimmed().isEmpty()) c.features.push_back(f.trimmed().toStdString());
  }
  c.train_samples = trainSamples_->value();
  c.synthetic_samples = syntheticSamples_->value();
  c.synthetic_noise = noise_->value();
  c.model = comboValue<engine::ModelKind>(model_);
  c.hidden.clear();
  for (const QString& h : hidden_->text().split(',', Qt::SkipEmptyParts)) {
    bool ok = false;
    const qlonglong width = h.trimmed().toLongLong(&ok);
    // Not a number: keep it visible to check() as 0 so the message lands under the field.
    c.hidden.push_back(ok ? width : 0);
  }
  c.optimizer = comboValue<engine::OptimizerKind>(optimizer_);
  c.lr = lr_->value();
  c.momentum = momentum_->value();
  c.weight_decay = weightDecay_->value();
  c.scheduler = comboValue<engine::SchedulerKind>(scheduler_);
  c.warmup_steps = warmup_->value();
  c.scheduler_step_size = stepSize_->value();
  c.scheduler_gamma = gamma_->value();
  c.epochs = epochs_->value();
  c.max_steps = maxSteps_->value();
  return c;
}

}  // namespace parity::ui
