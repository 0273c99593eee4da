// ExperimentForm's editors: building, showing what applies, filling and reading them (what they
// imply is shown by experiment_form_notes.cpp).
#include <parity/ui/experiment/experiment_form.h>
#include <parity/ui/experiment/lr_preview.h>
#include <parity/ui/experiment/model_inspector.h>
#include <parity/ui/widgets/file_dialogs.h>

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QToolButton>
#include <QVBoxLayout>
#include <limits>

#include "experiment_form_p.h"

namespace parity::ui {

using namespace experiment;

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

QLabel* note(QWidget* parent) {
  auto* l = new WrappedLabel(parent);
  l->setTextInteractionFlags(Qt::TextSelectableByMouse);
  return l;
}

int clampInt(int64_t v) { return static_cast<int>(std::clamp<int64_t>(v, 0, kIntMax)); }

template <typename E>
void fillCombo(QComboBox* combo, std::initializer_list<E> values) {
  for (E v : values)
    combo->addItem(QString::fromStdString(config::to_string(v)), static_cast<int>(v));
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
      changeNote_(new WrappedLabel(this)),
      dataset_(new QComboBox(this)),
      dataPath_(new QLineEdit(this)),
      testData_(new QLineEdit(this)),
      validationSplit_(real(this, 0, 1, 3, 0.05)),
      padId_(spin(this, -1, kIntMax)),
      dataSizes_(note(this)),
      task_(new QComboBox(this)),
      target_(new QLineEdit(this)),
      features_(new QLineEdit(this)),
      trainSamples_(spin(this, 0, kIntMax)),
      syntheticSamples_(spin(this, 0, kIntMax)),
      noise_(real(this, 0, 100, 3, 0.05)),
      model_(new QComboBox(this)),
      modelFile_(new QLineEdit(this)),
      modelInfo_(note(this)),
      hidden_(new QLineEdit(this)),
      dropout_(real(this, 0, 1, 3, 0.05)),
      batchNorm_(new QCheckBox(tr("batch norm before each hidden activation"), this)),
      embeddingDim_(spin(this, 0, 1 << 20)),
      lossNormalization_(new QComboBox(this)),
      optimizer_(new QComboBox(this)),
      lr_(real(this, 0, 100, 6, 0.01)),
      momentum_(real(this, 0, 1, 3, 0.1)),
      weightDecay_(real(this, 0, 10, 6, 0.0001)),
      scheduler_(new QComboBox(this)),
      warmup_(spin(this, 0, kIntMax)),
      numTrainingSteps_(spin(this, 0, kIntMax)),
      pctStart_(real(this, 0, 1, 3, 0.05)),
      divFactor_(real(this, 0, 1e6, 2, 1)),
      finalDivFactor_(real(this, 0, 1e12, 1, 1000)),
      stepSize_(spin(this, 0, kIntMax)),
      gamma_(real(this, 0, 1, 4, 0.05)),
      epochs_(spin(this, 0, 100000)),
      maxSteps_(spin(this, 0, kIntMax)),
      trainer_(new QComboBox(this)),
      command_(new QLineEdit(this)),
      workdir_(new QLineEdit(this)),
      commandEnv_(new QLineEdit(this)),
      capture_(new QComboBox(this)),
      commandPreview_(note(this)),
      lrPreview_(new LrPreview(this)),
      scheduleNote_(note(this)),
      inspector_(new ModelInspector(this)) {
  setUpEditors();
  addCommandFields();
  addDataFields();
  addModelFields();
  addOptimizationFields();
  changeNote_->setObjectName("experimentChangeNote");
  changeNote_->setWordWrap(true);
  changeNote_->setStyleSheet("background: #fff3cd; color: #5d4200; padding: 4px");
  changeNote_->hide();
  form_->insertRow(0, changeNote_);
  connect(this, &ConfigForm::edited, changeNote_, &QLabel::hide);
  connect(inspector_, &ModelInspector::inspected, this, &ExperimentForm::showModelInfo);
  connect(inspector_, &ModelInspector::failed, this, &ExperimentForm::showModelError);
  connectEditors();
  updateVisibility();
  refreshDerived();
}

QWidget* ExperimentForm::pathRow(QLineEdit* edit, const QString& toolTip,
                                 void (ExperimentForm::*browse)()) {
  auto* row = new QWidget(this);
  auto* layout = new QHBoxLayout(row);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(edit, 1);
  auto* button = new QToolButton(row);
  button->setText("…");
  button->setToolTip(toolTip);
  layout->addWidget(button);
  connect(button, &QToolButton::clicked, this, browse);
  return row;
}

void ExperimentForm::setChangeNote(const QString& text) {
  changeNote_->setText(text);
  changeNote_->setVisible(!text.isEmpty());
}

QString ExperimentForm::changeNote() const {
  return changeNote_->isHidden() ? QString() : changeNote_->text();
}

// Choices, placeholders and object names of the editors.
void ExperimentForm::setUpEditors() {
  using namespace config;
  for (const DataFormat& f : data_formats())
    dataset_->addItem(QString::fromUtf8(f.name), static_cast<int>(f.kind));
  fillCombo(task_, {Task::kClassification, Task::kRegression});
  fillCombo(model_, {ModelKind::kLinear, ModelKind::kMlp, ModelKind::kCnn, ModelKind::kBigram,
                     ModelKind::kTorchScript});
  fillCombo(lossNormalization_, {LossNormalization::kPerBatch, LossNormalization::kGlobal});
  fillCombo(optimizer_, {OptimizerKind::kSgd, OptimizerKind::kAdamW});
  fillCombo(scheduler_, {SchedulerKind::kConstant, SchedulerKind::kLinear, SchedulerKind::kCosine,
                         SchedulerKind::kStep, SchedulerKind::kOneCycle});
  trainSamples_->setSpecialValueText(tr("all"));
  maxSteps_->setSpecialValueText(tr("all epochs"));
  validationSplit_->setSpecialValueText(tr("none"));
  embeddingDim_->setSpecialValueText(tr("none (logits from the table)"));
  hidden_->setPlaceholderText("256, 128");
  features_->setPlaceholderText(tr("all columns but the target"));
  testData_->setPlaceholderText(tr("none"));
  modelFile_->setPlaceholderText(tr("a torch.jit.script or trace module saved with .save()"));
  dataSizes_->setObjectName("dataSizes");
  modelInfo_->setObjectName("modelInfo");
  scheduleNote_->setObjectName("scheduleNote");
  lrPreview_->setObjectName("lrPreview");
}

// The data: what trains, what evaluates, and how many samples each.
void ExperimentForm::addDataFields() {
  addField("dataset", tr("Dataset"), dataset_);
  addField("data_path", tr("Data"),
           pathRow(dataPath_, tr("Choose the dataset folder or file"), &ExperimentForm::browseData),
           tr("fashion-mnist, idx: the folder with the *-idx?-ubyte(.gz) files; csv, jsonl: the "
              "training file"),
           {"data"});
  addField("test_data", tr("Test data"),
           pathRow(testData_, tr("Choose the test file"), &ExperimentForm::browseTestData),
           tr("A test file in the same format; leave empty for a validation split or none"));
  addField("validation_split", tr("Validation split"), validationSplit_,
           tr("Evaluate on the last fraction of the training data instead (0 = none)"));
  addField("pad_id", tr("Pad id"), padId_,
           tr("The input id that pads each batch to its longest sequence (labels pad with -100, "
              "which the loss ignores)"));
  addField("task", tr("Task"), task_);
  addField("target", tr("Target column"), target_);
  addField("features", tr("Feature columns"), features_, tr("Comma-separated column names"));
  addField("train_samples", tr("Training samples"), trainSamples_,
           tr("Use only the first N training samples (all = the whole set)"));
  addField("synthetic_samples", tr("Samples"), syntheticSamples_);
  addField("synthetic_noise", tr("Noise σ"), noise_);
  addField("data_sizes", tr("Train / evaluate"), dataSizes_);
}

// The model: its kind, file or layers, and how its loss is normalised.
void ExperimentForm::addModelFields() {
  addField("model", tr("Model"), model_, {}, {"init", "loss"});
  addField("model_file", tr("Model file"),
           pathRow(modelFile_, tr("Choose the TorchScript file"), &ExperimentForm::browseModelFile),
           tr("A TorchScript module (.pt); rank 0's parameters are broadcast at start"));
  addField("model_info", tr("Holds"), modelInfo_);
  addField("hidden", tr("Hidden layers"), hidden_, tr("MLP widths, comma-separated"));
  addField("dropout", tr("Dropout"), dropout_,
           tr("Probability after each hidden activation; masks follow the seed (and the rank with "
              "device_specific_seed)"));
  addField("batch_norm", QString(), batchNorm_,
           tr("Batch statistics over the per-device batch, so the process count changes them; "
              "the running statistics are broadcast from rank 0 as DDP does"));
  addField("embedding_dim", tr("Embedding dim"), embeddingDim_,
           tr("Width of a hidden embedding between the token table and the logits"));
  addField("loss_normalization", tr("Loss normalisation"), lossNormalization_,
           tr("per-batch: each micro-batch's mean loss / accumulation steps (Accelerate's plain "
              "loop); a short or heavily padded micro-batch weighs as much as a full one, so the "
              "process count changes the loss.\nglobal: the summed loss over every valid item "
              "of the optimizer step on all ranks / their all-reduced count (transformers' "
              "num_items_in_batch); every item weighs the same whatever the setup."));
}

// The optimizer, the schedule (previewed as an lr curve) and the run's length.
void ExperimentForm::addOptimizationFields() {
  auto* preview = new QWidget(this);
  auto* previewLayout = new QVBoxLayout(preview);
  previewLayout->setContentsMargins(0, 0, 0, 0);
  previewLayout->setSpacing(1);
  previewLayout->addWidget(lrPreview_);
  previewLayout->addWidget(scheduleNote_);

  addField("optimizer", tr("Optimizer"), optimizer_);
  addField("lr", tr("Base learning rate"), lr_,
           tr("Before lr scaling; each setup's effective lr is in the equivalent-batch table"));
  addField("momentum", tr("Momentum"), momentum_);
  addField("weight_decay", tr("Weight decay"), weightDecay_);
  addField("scheduler", tr("Scheduler"), scheduler_,
           tr("Advanced once per process per optimizer step (once with split_batches), so a "
              "schedule in single-process steps lasts the same number of samples"));
  addField("warmup_steps", tr("Warm-up steps"), warmup_, tr("From lr 0, in scheduler steps"));
  addField("num_training_steps", tr("Schedule length"), numTrainingSteps_,
           tr("num_training_steps in scheduler steps; default: (batches of the unsharded loader × "
              "epochs) // accumulation, as Accelerate's examples compute it"));
  addField("pct_start", tr("Rising fraction"), pctStart_,
           tr("pct_start: the fraction of the schedule spent rising to the max lr"));
  addField("div_factor", tr("Initial lr ÷"), divFactor_,
           tr("div_factor: the schedule starts at max lr / div_factor"));
  addField("final_div_factor", tr("Final lr ÷"), finalDivFactor_,
           tr("final_div_factor: it ends at the initial lr / final_div_factor"));
  addField("scheduler_step_size", tr("Decay every"), stepSize_);
  addField("scheduler_gamma", tr("Decay factor"), gamma_);
  addField("epochs", tr("Epochs"), epochs_);
  addField("max_steps", tr("Max optimizer steps"), maxSteps_);
  addField("lr_preview", tr("lr over samples"), preview,
           tr("The lr each optimizer step of the first setup uses, against samples seen"));
}

void ExperimentForm::connectEditors() {
  const auto edited = [this] {
    if (loading_) return;  // setConfig() refreshes once, when every editor holds its value
    updateVisibility();
    refreshDerived();
    changed();
  };
  // First, so the edit reported is the dataset with the task and model it implies.
  connect(dataset_, &QComboBox::currentIndexChanged, this, &ExperimentForm::datasetChosen);
  for (QComboBox* c : {dataset_, task_, model_, lossNormalization_, optimizer_, scheduler_}) {
    connect(c, &QComboBox::currentIndexChanged, this, edited);
  }
  // Line edits count when the edit is done, so a path is read once, not per keystroke.
  for (QLineEdit* e : {dataPath_, testData_, target_, features_, modelFile_, hidden_}) {
    connect(e, &QLineEdit::editingFinished, this, edited);
  }
  for (QSpinBox* s : {padId_, trainSamples_, syntheticSamples_, embeddingDim_, warmup_,
                      numTrainingSteps_, stepSize_, epochs_, maxSteps_}) {
    connect(s, &QSpinBox::valueChanged, this, edited);
  }
  for (QDoubleSpinBox* s : {validationSplit_, noise_, dropout_, lr_, momentum_, weightDecay_,
                            pctStart_, divFactor_, finalDivFactor_, gamma_}) {
    connect(s, &QDoubleSpinBox::valueChanged, this, edited);
  }
  connect(batchNorm_, &QCheckBox::toggled, this, edited);
}

// A dataset implies its task, and token data its models; csv leaves the task to the user.
void ExperimentForm::datasetChosen() {
  using namespace config;
  if (loading_) return;
  const DataFormat& format = data_format(comboValue<DatasetKind>(dataset_));
  // "The first N samples" was chosen for the data it cut (the demo's 7680 of Fashion-MNIST):
  // other data starts whole, instead of "Training samples 7680" beside a CSV's "1200 train". The
  // dataset's own edit reports it.
  {
    const QSignalBlocker quiet(trainSamples_);
    trainSamples_->setValue(0);
  }
  if (format.task) setCombo(task_, *format.task);
  const auto m = comboValue<ModelKind>(model_);
  if (format.tokens && m != ModelKind::kBigram && m != ModelKind::kTorchScript) {
    setCombo(model_, ModelKind::kBigram);
  } else if (!format.tokens && m == ModelKind::kBigram) {
    setCombo(model_, ModelKind::kMlp);
  }
}

void ExperimentForm::updateVisibility() {
  using namespace config;
  // Every field shown, then hidden where it does not apply (the trainer's choice last).
  for (const QString& f : fieldNames()) setFieldVisible(f, true);
  const DataFormat& format = data_format(comboValue<DatasetKind>(dataset_));
  const bool synthetic = format.count == SampleCount::kGenerated;
  setFieldVisible("data_path", format.location != DataLocation::kNone);
  dataPath_->setPlaceholderText(QString::fromStdString(format.path_hint));
  setFieldVisible("test_data", format.test_file);
  setFieldVisible("pad_id", format.tokens);
  setFieldVisible("task", !format.task.has_value());
  for (const char* f : {"target", "features"}) setFieldVisible(f, format.columns);
  setFieldVisible("synthetic_samples", synthetic);
  setFieldVisible("synthetic_noise", synthetic);
  setFieldVisible("train_samples", !synthetic);
  const auto m = comboValue<ModelKind>(model_);
  setFieldVisible("model_file", m == ModelKind::kTorchScript);
  setFieldVisible("model_info", m == ModelKind::kTorchScript);
  setFieldVisible("hidden", m == ModelKind::kMlp);
  setFieldVisible("dropout", layered(m));
  setFieldVisible("batch_norm", layered(m));
  setFieldVisible("embedding_dim", m == ModelKind::kBigram);
  setFieldVisible("momentum", comboValue<OptimizerKind>(optimizer_) == OptimizerKind::kSgd);
  const auto s = comboValue<SchedulerKind>(scheduler_);
  setFieldVisible("warmup_steps", warmsUp(s));
  setFieldVisible("num_training_steps", usesLength(s));
  for (const char* f : {"pct_start", "div_factor", "final_div_factor"}) {
    setFieldVisible(f, s == SchedulerKind::kOneCycle);
  }
  setFieldVisible("scheduler_step_size", s == SchedulerKind::kStep);
  setFieldVisible("scheduler_gamma", s == SchedulerKind::kStep);
  applyCommandMode();
}

void ExperimentForm::browseData() {
  const config::DataFormat& format = config::data_format(comboValue<config::DatasetKind>(dataset_));
  const QString title = QString::fromUtf8(format.title);
  const QString path = format.location == config::DataLocation::kFile
                           ? askPath(this, FileDialogKind::kOpenFile, title, dataPath_->text(),
                                     QString::fromUtf8(format.file_types) + tr(";;All files (*)"))
                           : askPath(this, FileDialogKind::kFolder, title, dataPath_->text());
  if (path.isEmpty()) return;
  dataPath_->setText(path);
  emit dataPath_->editingFinished();
}

void ExperimentForm::browseTestData() {
  const config::DataFormat& format = config::data_format(comboValue<config::DatasetKind>(dataset_));
  const QString start = testData_->text().isEmpty() ? dataPath_->text() : testData_->text();
  const QString path = askPath(this, FileDialogKind::kOpenFile, tr("Test data"), start,
                               QString::fromUtf8(format.file_types) + tr(";;All files (*)"));
  if (path.isEmpty()) return;
  testData_->setText(path);
  emit testData_->editingFinished();
}

void ExperimentForm::browseModelFile() {
  const QString path =
      askPath(this, FileDialogKind::kOpenFile, tr("TorchScript model"), modelFile_->text(),
              tr("TorchScript modules (*.pt *.pth *.ts);;All files (*)"));
  if (path.isEmpty()) return;
  modelFile_->setText(path);
  emit modelFile_->editingFinished();
}

void ExperimentForm::setConfig(const config::RunConfig& c) {
  loading_ = true;
  setCombo(dataset_, c.dataset);
  dataPath_->setText(QString::fromStdString(c.data_path));
  testData_->setText(QString::fromStdString(c.test_data));
  validationSplit_->setValue(c.validation_split);
  padId_->setValue(static_cast<int>(std::clamp<int64_t>(c.pad_id, -1, kIntMax)));
  setCombo(task_, c.task);
  target_->setText(QString::fromStdString(c.target));
  QStringList features;
  for (const auto& f : c.features) features << QString::fromStdString(f);
  features_->setText(features.join(", "));
  trainSamples_->setValue(clampInt(c.train_samples));
  syntheticSamples_->setValue(clampInt(c.synthetic_samples));
  noise_->setValue(c.synthetic_noise);
  setCombo(model_, c.model);
  modelFile_->setText(QString::fromStdString(c.model_file));
  hidden_->setText(joinInts(c.hidden));
  dropout_->setValue(c.dropout);
  batchNorm_->setChecked(c.batch_norm);
  embeddingDim_->setValue(clampInt(c.embedding_dim));
  setCombo(lossNormalization_, c.loss_normalization);
  setCombo(optimizer_, c.optimizer);
  lr_->setValue(c.lr);
  momentum_->setValue(c.momentum);
  weightDecay_->setValue(c.weight_decay);
  setCombo(scheduler_, c.scheduler);
  warmup_->setValue(clampInt(c.warmup_steps));
  numTrainingSteps_->setValue(clampInt(c.num_training_steps));
  pctStart_->setValue(c.pct_start);
  divFactor_->setValue(c.div_factor);
  finalDivFactor_->setValue(c.final_div_factor);
  stepSize_->setValue(clampInt(c.scheduler_step_size));
  gamma_->setValue(c.scheduler_gamma);
  epochs_->setValue(c.epochs);
  maxSteps_->setValue(clampInt(c.max_steps));
  trainer_->setCurrentIndex(c.command.empty() ? 0 : 1);
  command_->setText(QString::fromStdString(c.command));
  workdir_->setText(QString::fromStdString(c.workdir));
  QStringList env;
  for (const auto& kv : c.command_env) env << QString::fromStdString(kv);
  commandEnv_->setText(env.join(", "));
  capture_->setCurrentIndex(std::max(0, capture_->findData(QString::fromStdString(c.capture))));
  updateVisibility();
  loading_ = false;
  refreshDerived();
  refreshCommand();
}

config::RunConfig ExperimentForm::config(const config::RunConfig& base) const {
  using namespace config;
  RunConfig c = base;
  c.dataset = comboValue<DatasetKind>(dataset_);
  c.data_path = dataPath_->text().trimmed().toStdString();
  // A hidden field counts as its neutral value, so a value left behind by another choice is not
  // refused by check() under an editor no one sees.
  c.test_data = fileData(c.dataset) ? testData_->text().trimmed().toStdString() : std::string();
  c.validation_split = validationSplit_->value();
  c.pad_id = padId_->value();
  c.task = comboValue<Task>(task_);
  c.target = target_->text().trimmed().toStdString();
  c.features.clear();
  for (const QString& f : features_->text().split(',', Qt::SkipEmptyParts)) {
    if (!f.trimmed().isEmpty()) c.features.push_back(f.trimmed().toStdString());
  }
  c.train_samples = trainSamples_->value();
  c.synthetic_samples = syntheticSamples_->value();
  c.synthetic_noise = noise_->value();
  c.model = comboValue<ModelKind>(model_);
  c.model_file = c.model == ModelKind::kTorchScript ? modelFile_->text().trimmed().toStdString()
                                                    : std::string();
  c.hidden.clear();
  for (const QString& h : hidden_->text().split(',', Qt::SkipEmptyParts)) {
    bool ok = false;
    const qlonglong width = h.trimmed().toLongLong(&ok);
    // Not a number: keep it visible to check() as 0 so the message lands under the field.
    c.hidden.push_back(ok ? width : 0);
  }
  c.dropout = layered(c.model) ? dropout_->value() : 0.0;
  c.batch_norm = layered(c.model) && batchNorm_->isChecked();
  c.embedding_dim = embeddingDim_->value();
  c.loss_normalization = comboValue<LossNormalization>(lossNormalization_);
  c.optimizer = comboValue<OptimizerKind>(optimizer_);
  c.lr = lr_->value();
  c.momentum = momentum_->value();
  c.weight_decay = weightDecay_->value();
  c.scheduler = comboValue<SchedulerKind>(scheduler_);
  c.warmup_steps = warmsUp(c.scheduler) ? warmup_->value() : 0;
  c.num_training_steps = numTrainingSteps_->value();
  c.pct_start = pctStart_->value();
  c.div_factor = divFactor_->value();
  c.final_div_factor = finalDivFactor_->value();
  c.scheduler_step_size = stepSize_->value();
  c.scheduler_gamma = gamma_->value();
  c.epochs = epochs_->value();
  c.max_steps = maxSteps_->value();
  // Your command: only while chosen (an engine setup keeps none of it).
  const bool command = trainer_->currentIndex() == 1;
  c.command = command ? command_->text().trimmed().toStdString() : std::string();
  c.workdir = command ? workdir_->text().trimmed().toStdString() : std::string();
  c.capture = command ? capture_->currentData().toString().toStdString() : std::string("auto");
  c.command_env.clear();
  if (command) {
    for (const QString& kv : commandEnv_->text().split(',', Qt::SkipEmptyParts))
      if (!kv.trimmed().isEmpty()) c.command_env.push_back(kv.trimmed().toStdString());
  }
  return c;
}

}  // namespace parity::ui
