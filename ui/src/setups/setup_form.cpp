#include <parity/ui/setups/setup_form.h>

#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QLineEdit>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QStandardItemModel>
#include <limits>

namespace parity::ui {

namespace {

QSpinBox* spin(QWidget* parent, int lo, int hi) {
  auto* s = new QSpinBox(parent);
  s->setRange(lo, hi);
  s->setKeyboardTracking(false);
  return s;
}

}  // namespace

SetupForm::SetupForm(QWidget* parent)
    : ConfigForm(parent),
      label_(new QLineEdit(this)),
      seed_(spin(this, 0, std::numeric_limits<int>::max())),
      device_(new QComboBox(this)),
      processes_(spin(this, 0, 256)),
      batch_(spin(this, 0, 1 << 20)),
      scaling_(new QComboBox(this)),
      accumulation_(spin(this, 0, 1024)),
      precision_(new QComboBox(this)),
      split_(new QCheckBox("split_batches", this)),
      even_(new QCheckBox("even_batches", this)),
      dropLast_(new QCheckBox("drop_last", this)),
      seedable_(new QCheckBox("use_seedable_sampler", this)),
      syncBatchNorm_(new QCheckBox("sync_batch_norm", this)) {
  device_->addItem("CPU", static_cast<int>(config::Device::kCpu));
  device_->addItem("CUDA", static_cast<int>(config::Device::kCuda));
  if (!config::cuda_build()) {
    auto* items = qobject_cast<QStandardItemModel*>(device_->model());
    QStandardItem* cuda = items->item(1);
    cuda->setEnabled(false);
    cuda->setText(tr("CUDA (not in this build)"));
    cuda->setToolTip(
        tr("This Parity was built against a LibTorch without CUDA. Rebuild against "
           "a CUDA LibTorch to run setups on GPUs."));
  }
  scaling_->addItem(tr("none"), static_cast<int>(config::LrScaling::kNone));
  scaling_->addItem(tr("linear (× processes)"), static_cast<int>(config::LrScaling::kLinear));
  scaling_->addItem(tr("sqrt (× √processes)"), static_cast<int>(config::LrScaling::kSqrt));
  precision_->addItem(tr("no (fp32)"), static_cast<int>(config::MixedPrecision::kNo));
  precision_->addItem("bf16", static_cast<int>(config::MixedPrecision::kBf16));
  precision_->addItem(tr("fp16 (CUDA only)"), static_cast<int>(config::MixedPrecision::kFp16));
  accumulation_->setSuffix(tr(" micro-batches"));

  addField("label", tr("Label"), label_, tr("Shown in the runs table and the chart's legend"));
  addField("seed", tr("Seed"), seed_,
           tr("set_seed(seed): every generator; the shuffle too "
              "unless data_seed is set"),
           {"data_seed", "device_specific_seed"});
  addField("device", tr("Device"), device_);
  addField("num_processes", tr("Processes"), processes_,
           tr("num_processes: data-parallel ranks, each a separate process"));
  addField("per_device_batch_size", tr("Per-device batch"), batch_,
           tr("Samples per rank per micro-batch (the global batch with split_batches)"));
  addField("lr_scaling", tr("LR scaling"), scaling_,
           tr("Effective lr = base lr × 1, × processes or × √processes"));
  addField("gradient_accumulation_steps", tr("Accumulation"), accumulation_,
           tr("gradient_accumulation_steps: micro-batches per optimizer step. The epoch's last "
              "group may be shorter and is then under-weighted, as in Accelerate."));
  addField("mixed_precision", tr("Precision"), precision_,
           tr("bf16 autocast on CPU or CUDA; fp16 needs CUDA (with a gradient scaler)"));
  addField("split_batches", QString(), split_,
           tr("The per-device batch is the global batch, cut into one slice per process (it "
              "must divide by the number of processes)"));
  addField("even_batches", QString(), even_,
           tr("Complete the last batches by cycling from the start of the epoch, so every rank "
              "gets the same number of full batches (repeats a few samples)"));
  addField("drop_last", QString(), dropLast_, tr("Drop the incomplete last group of batches"));
  addField("use_seedable_sampler", QString(), seedable_,
           tr("Shuffle with a sampler seeded data_seed + epoch on every rank. Off is Accelerate's "
              "default: one process draws the order from the global generator, several from an "
              "unseeded one, so 1- and N-process runs see different orders"));
  addField("sync_batch_norm", QString(), syncBatchNorm_,
           tr("Batch norm's statistics over every rank's batch together (PyTorch's "
              "SyncBatchNorm), as one process on the global batch; needs Batch norm "
              "(Experiment) and even_batches"));

  connect(label_, &QLineEdit::editingFinished, this, &SetupForm::changed);
  for (QSpinBox* s : {seed_, processes_, batch_, accumulation_}) {
    connect(s, &QSpinBox::valueChanged, this, &SetupForm::changed);
  }
  for (QComboBox* c : {device_, scaling_, precision_}) {
    connect(c, &QComboBox::currentIndexChanged, this, &SetupForm::changed);
  }
  for (QCheckBox* c : {split_, even_, dropLast_, seedable_, syncBatchNorm_}) {
    connect(c, &QCheckBox::toggled, this, &SetupForm::changed);
  }
}

void SetupForm::showLabel(const QString& label) {
  if (label_->text() == label) return;
  QSignalBlocker block(label_);
  label_->setText(label);
}

void SetupForm::setConfig(const config::RunConfig& c) {
  loading_ = true;
  label_->setText(QString::fromStdString(c.label));
  seed_->setValue(static_cast<int>(c.seed));
  device_->setCurrentIndex(device_->findData(static_cast<int>(c.device)));
  processes_->setValue(c.num_processes);
  batch_->setValue(static_cast<int>(c.per_device_batch_size));
  scaling_->setCurrentIndex(scaling_->findData(static_cast<int>(c.lr_scaling)));
  accumulation_->setValue(c.gradient_accumulation_steps);
  precision_->setCurrentIndex(precision_->findData(static_cast<int>(c.mixed_precision)));
  split_->setChecked(c.split_batches);
  even_->setChecked(c.even_batches);
  dropLast_->setChecked(c.drop_last);
  seedable_->setChecked(c.use_seedable_sampler);
  syncBatchNorm_->setChecked(c.sync_batch_norm);
  loading_ = false;
}

config::RunConfig SetupForm::config(const config::RunConfig& base) const {
  config::RunConfig c = base;
  const QString label = label_->text().trimmed();
  if (!label.isEmpty()) c.label = label.toStdString();
  c.seed = seed_->value();
  c.device = static_cast<config::Device>(device_->currentData().toInt());
  c.num_processes = processes_->value();
  c.per_device_batch_size = batch_->value();
  c.lr_scaling = static_cast<config::LrScaling>(scaling_->currentData().toInt());
  c.gradient_accumulation_steps = accumulation_->value();
  c.mixed_precision = static_cast<config::MixedPrecision>(precision_->currentData().toInt());
  c.split_batches = split_->isChecked();
  c.even_batches = even_->isChecked();
  c.drop_last = dropLast_->isChecked();
  c.use_seedable_sampler = seedable_->isChecked();
  c.sync_batch_norm = syncBatchNorm_->isChecked();
  return c;
}

}  // namespace parity::ui
