#include <parity/config/setup_text.h>
#include <parity/config/valid_config.h>
#include <parity/ui/setups/setup_plan_model.h>

#include <QBrush>
#include <QColor>
#include <cmath>

namespace parity::ui {

namespace {

const QColor kHighlight(0xff, 0xe0, 0xb2);

QString formatLr(double lr) { return QString::number(lr, 'g', 6); }

}  // namespace

SetupPlanModel::SetupPlanModel(QObject* parent) : QAbstractTableModel(parent) {}

void SetupPlanModel::setSetups(const std::vector<config::RunConfig>& setups, int64_t referenceBatch,
                               std::optional<int64_t> trainSize) {
  beginResetModel();
  reference_ = referenceBatch;
  rows_.clear();
  for (const config::RunConfig& c : setups) {
    Row r;
    r.config = c;
    // What the config alone says, shown even when the setup cannot be planned.
    r.plan.global_batch = config::global_batch_size(c);
    r.plan.effective_lr = config::effective_lr(c);
    r.plan.scheduler_steps_per_optimizer_step = config::scheduler_steps_per_optimizer_step(c);
    if (auto n = config::known_train_size(c) ? config::known_train_size(c) : trainSize) {
      try {
        // An invalid setup never reaches the planner: its row shows the validation message.
        r.plan = config::plan_setup(config::ValidConfig::make(c), *n);
        r.planned = true;
      } catch (const std::exception& e) {
        r.planError = QString::fromStdString(e.what());
      }
    } else {
      r.planError =
          tr("Steps per epoch depend on the data file's length, known once the "
             "Experiment tab has counted its rows");
    }
    r.batchDiffers = r.plan.global_batch != reference_;
    r.padded = r.planned && r.plan.padded_samples > 0;
    r.lrDiffers = std::abs(r.plan.effective_lr - c.lr) > 1e-12 * std::max(1.0, std::abs(c.lr));
    rows_.push_back(std::move(r));
  }
  endResetModel();
}

int SetupPlanModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : static_cast<int>(rows_.size());
}

int SetupPlanModel::columnCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : kColumnCount;
}

QVariant SetupPlanModel::display(const Row& r, int column) const {
  const config::RunConfig& c = r.config;
  switch (column) {
    case kLabel:
      return QString::fromStdString(c.label);
    case kShape:
      return QString::fromStdString(config::shape_text(c));
    case kGlobalBatch:
      return static_cast<qlonglong>(r.plan.global_batch);
    case kEffectiveLr:
      return formatLr(r.plan.effective_lr);
    case kStepsPerEpoch:
      return r.planned ? QVariant(static_cast<qlonglong>(r.plan.optimizer_steps_per_epoch))
                       : QVariant(QStringLiteral("?"));
    case kSchedulerPace:
      return r.plan.scheduler_steps_per_optimizer_step;
    case kMatch: {
      if (c.split_batches) return static_cast<qlonglong>(reference_);
      const auto match = config::equivalent_per_device_batch(reference_, c.num_processes,
                                                             c.gradient_accumulation_steps);
      return match ? QVariant(static_cast<qlonglong>(*match)) : QVariant(tr("—"));
    }
    case kRepeated:
      return r.planned ? QVariant(static_cast<qlonglong>(r.plan.padded_samples))
                       : QVariant(QStringLiteral("?"));
    case kNotes: {
      QStringList notes;
      if (!r.planError.isEmpty()) notes << r.planError;
      for (const auto& n : r.plan.notes) notes << QString::fromStdString(n);
      return notes.join("; ");
    }
    default:
      return {};
  }
}

QString SetupPlanModel::reason(const Row& r, int column) const {
  const config::RunConfig& c = r.config;
  if (column == kGlobalBatch && r.batchDiffers) {
    const auto match = config::equivalent_per_device_batch(reference_, c.num_processes,
                                                           c.gradient_accumulation_steps);
    QString text = tr("Global batch %1 vs reference %2").arg(r.plan.global_batch).arg(reference_);
    if (match && !c.split_batches) {
      text += tr(": per-device batch %1 on %2 process(es) would match")
                  .arg(*match)
                  .arg(c.num_processes);
    } else if (!match) {
      text += tr(": %1 does not divide by %2, so no per-device batch matches exactly")
                  .arg(reference_)
                  .arg(c.num_processes * c.gradient_accumulation_steps);
    }
    return text;
  }
  if (column == kEffectiveLr && r.lrDiffers) {
    return tr("Effective lr %1 vs base lr %2 of the single-device reference (%3 scaling over %4 "
              "processes)")
        .arg(formatLr(r.plan.effective_lr), formatLr(c.lr),
             QString::fromStdString(config::to_string(c.lr_scaling)))
        .arg(c.num_processes);
  }
  if (column == kSchedulerPace && r.plan.scheduler_steps_per_optimizer_step > 1) {
    return tr("The scheduler advances %1 times per optimizer step, so a schedule written in "
              "single-process steps lasts the same number of samples")
        .arg(r.plan.scheduler_steps_per_optimizer_step);
  }
  if (column == kRepeated && r.padded) {
    const int64_t n = r.plan.samples_per_epoch - r.plan.padded_samples;
    return tr("even_batches pads the epoch's last batches: each epoch the first %1 samples of "
              "its order are drawn twice (%2 drawn for %3 in the training set, %4 %), so they "
              "weigh double in the gradient and the curve ends apart from an unpadded setup's")
        .arg(r.plan.padded_samples)
        .arg(r.plan.samples_per_epoch)
        .arg(n)
        .arg(100.0 * static_cast<double>(r.plan.padded_samples) / static_cast<double>(n), 0, 'f',
             2);
  }
  if (column == kRepeated && !r.planned && r.config.even_batches && r.config.num_processes > 1) {
    return tr(
        "Known once the CSV file is read: even_batches may repeat samples at the epoch's "
        "end");
  }
  if (column == kNotes) return display(r, kNotes).toString();
  return {};
}

QVariant SetupPlanModel::data(const QModelIndex& index, int role) const {
  if (!index.isValid() || index.row() >= rowCount()) return {};
  const Row& r = rows_[index.row()];
  const int column = index.column();
  const bool differs = (column == kGlobalBatch && r.batchDiffers) ||
                       (column == kEffectiveLr && r.lrDiffers) || (column == kRepeated && r.padded);
  switch (role) {
    case Qt::DisplayRole:
      return display(r, column);
    case Qt::ToolTipRole: {
      const QString why = reason(r, column);
      return why.isEmpty() ? QVariant() : QVariant(why);
    }
    case Qt::BackgroundRole:
      return differs ? QVariant(QBrush(kHighlight)) : QVariant();
    case Qt::ForegroundRole:
      return differs ? QVariant(QBrush(QColor(0x21, 0x21, 0x21))) : QVariant();
    case Qt::TextAlignmentRole:
      return column == kLabel || column == kNotes ? QVariant(Qt::AlignLeft | Qt::AlignVCenter)
                                                  : QVariant(Qt::AlignCenter);
    case kDiffersRole:
      return differs;
    default:
      return {};
  }
}

QVariant SetupPlanModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal) return {};
  static const char* kNames[] = {QT_TR_NOOP("Setup"),
                                 QT_TR_NOOP("Processes × batch"),
                                 QT_TR_NOOP("Global batch"),
                                 QT_TR_NOOP("Effective lr"),
                                 QT_TR_NOOP("Opt. steps/epoch"),
                                 QT_TR_NOOP("Sched. steps/opt. step"),
                                 QT_TR_NOOP("Match ref."),
                                 QT_TR_NOOP("Repeated/epoch"),
                                 QT_TR_NOOP("Notes")};
  static const char* kTips[] = {
      "",
      QT_TR_NOOP("processes × per-device batch × accumulation"),
      QT_TR_NOOP("per-device batch × processes × accumulation"),
      QT_TR_NOOP("base lr × 1, processes or √processes"),
      QT_TR_NOOP("optimizer steps in one epoch of the training set"),
      QT_TR_NOOP("scheduler steps per optimizer step (processes, or 1 with split_batches)"),
      QT_TR_NOOP("per-device batch that keeps the global batch equal to the reference"),
      QT_TR_NOOP("samples even_batches draws twice per epoch to pad the last batches (Accelerate "
                 "cycles from the start of the epoch's order)"),
      QT_TR_NOOP("padding, dropped samples, a short last accumulation group")};
  if (section < 0 || section >= kColumnCount) return {};
  if (role == Qt::DisplayRole) return tr(kNames[section]);
  if (role == Qt::ToolTipRole && *kTips[section]) return tr(kTips[section]);
  return {};
}

}  // namespace parity::ui
