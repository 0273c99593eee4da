// ExperimentForm's derived lines: how many samples train and evaluate, the schedule's default
// length and lr preview, and the TorchScript file's summary (the editors are in
// experiment_form.cpp).
#include <parity/config/batch_plan.h>
#include <parity/config/data_sizes.h>
#include <parity/config/lr_schedule.h>
#include <parity/ui/experiment/experiment_form.h>
#include <parity/ui/experiment/lr_preview.h>
#include <parity/ui/experiment/model_inspector.h>

#include <QCoreApplication>
#include <QDateTime>
#include <QFileInfo>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QPointer>
#include <QSpinBox>
#include <QThreadPool>
#include <algorithm>
#include <optional>

#include "experiment_form_p.h"

namespace parity::ui {

using namespace experiment;

namespace {

// A file as what its derived line depends on: its path, time and size.
QString fileStamp(const std::string& path) {
  const QFileInfo info(QString::fromStdString(path));
  return QString::fromStdString(path) + '@' +
         (info.exists() ? QString::number(info.lastModified().toMSecsSinceEpoch()) + ':' +
                              QString::number(info.size())
                        : QStringLiteral("missing"));
}

}  // namespace

void ExperimentForm::setPreviewSetup(const config::RunConfig& setup) {
  previewSetup_ = setup;
  refreshDerived();
}

void ExperimentForm::refreshDerived() {
  const config::RunConfig c = config(previewSetup_);
  refreshDataSizes(c);
  refreshSchedule(c);
  refreshModelInfo(c);
}

void ExperimentForm::refreshDataSizes(const config::RunConfig& c) {
  if (auto known = config::known_data_sizes(c)) {
    setDataSizes(known);
    sizesKey_.clear();
    setDataProblem({});
    countingKey_.clear();  // a count still running for other data is not shown
  } else {
    // Read again only when a file, or what is cut from it, changed (files by time and size).
    const QString key =
        QString::fromStdString(config::to_string(c.dataset)) + '|' + fileStamp(c.data_path) + '|' +
        fileStamp(c.test_data) + '|' + QString::number(c.validation_split) + '|' +
        QString::number(c.train_samples) + '|' + target_->text() + '|' + features_->text();
    if (key == sizesKey_) return;
    sizesKey_ = key;
    if (c.data_path.empty()) {
      setDataSizes(std::nullopt);
      countingKey_.clear();
      setDataProblem({});  // the config check asks for the data
      dataSizes_->setStyleSheet(kNoteStyle);
      dataSizes_->setText(tr("choose the data to count its samples"));
      return;
    }
    // Counted on a pool thread: a multi-GB CSV must not freeze the form. The result is shown
    // only if it is still what the editors say (dataCounted compares the key).
    setDataSizes(std::nullopt);
    countingKey_ = key;
    dataSizes_->setStyleSheet(kNoteStyle);
    dataSizes_->setText(tr("counting the samples of %1…")
                            .arg(QFileInfo(QString::fromStdString(c.data_path)).fileName()));
    QPointer<ExperimentForm> self(this);
    QThreadPool::globalInstance()->start([self, key, c] {
      std::optional<config::DataSizes> sizes;
      QString error;
      try {
        sizes = config::read_data_sizes(c);
      } catch (const std::exception& e) {
        error = QString::fromStdString(e.what());
      }
      QMetaObject::invokeMethod(
          QCoreApplication::instance(),
          [self, key, sizes, error] {
            if (self) self->dataCounted(key, sizes, error);
          },
          Qt::QueuedConnection);
    });
    return;
  }
  dataSizes_->setStyleSheet({});
  dataSizes_->setText(QString::fromStdString(config::describe_data_sizes(*sizes_)));
}

void ExperimentForm::dataCounted(const QString& key, const std::optional<config::DataSizes>& sizes,
                                 const QString& error) {
  if (key != countingKey_) return;  // the editors moved on; a later count is on its way
  countingKey_.clear();
  setDataSizes(sizes);
  setDataProblem(sizes_ ? QString() : error);
  if (!sizes_) {
    // The reason is under its field (dataProblemField); this row only says nothing was counted.
    dataSizes_->setStyleSheet(kNoteStyle);
    dataSizes_->setText(tr("not counted: the data cannot be read"));
  } else {
    dataSizes_->setStyleSheet({});
    dataSizes_->setText(QString::fromStdString(config::describe_data_sizes(*sizes_)));
  }
  refreshSchedule(config(previewSetup_));  // the default schedule length needs the size
}

void ExperimentForm::refreshSchedule(const config::RunConfig& c) {
  if (!sizes_) {
    numTrainingSteps_->setSpecialValueText(tr("default (needs the data's size)"));
    lrPreview_->setNote(tr("the preview needs the data's size"));
    scheduleNote_->clear();
    return;
  }
  const int64_t train = sizes_->train;
  numTrainingSteps_->setSpecialValueText(
      tr("default (%1)").arg(config::default_num_training_steps(c, train)));
  if (!config::check(c).empty()) {
    lrPreview_->setNote(tr("the preview needs a valid first setup"));
    scheduleNote_->clear();
    return;
  }
  const LrCurve curve = lrCurve(c, train);
  lrPreview_->setCurve(curve);
  const QString setup = c.label.empty() ? tr("First setup") : QString::fromStdString(c.label);
  const int perStep = std::max(1, config::scheduler_steps_per_optimizer_step(c));
  QString text = tr("%1: %2 optimizer steps of %3 samples")
                     .arg(setup)
                     .arg(curve.optimizerSteps)
                     .arg(config::global_batch_size(c));
  if (perStep > 1) text += tr(", each %1 scheduler steps").arg(perStep);
  if (usesLength(c.scheduler)) {
    text += tr("; the schedule lasts %1 scheduler steps").arg(curve.scheduleLength);
    const int64_t endsAt = (curve.scheduleLength + perStep - 1) / perStep;
    if (endsAt < curve.optimizerSteps) {
      text += tr(" and ends at optimizer step %1, before training does").arg(endsAt);
    }
  }
  scheduleNote_->setStyleSheet(curve.problem.isEmpty() ? kNoteStyle : kErrorStyle);
  scheduleNote_->setText(curve.problem.isEmpty() ? text : curve.problem);
}

void ExperimentForm::setModelProblem(const QString& problem) {
  if (problem == modelProblem_) return;
  modelProblem_ = problem;
  emit modelProblemChanged();
}

void ExperimentForm::setDataProblem(const QString& problem) {
  if (problem == dataProblem_) return;
  dataProblem_ = problem;
  emit dataProblemChanged();
}

void ExperimentForm::setDataSizes(const std::optional<config::DataSizes>& sizes) {
  const auto same = [](const config::DataSizes& a, const config::DataSizes& b) {
    return a.train == b.train && a.test == b.test && a.source == b.source;
  };
  if (sizes.has_value() == sizes_.has_value() && (!sizes || same(*sizes, *sizes_))) return;
  sizes_ = sizes;
  emit dataSizesChanged();
}

void ExperimentForm::refreshModelInfo(const config::RunConfig& c) {
  if (c.model != config::ModelKind::kTorchScript) {
    inspector_->cancel();
    inspectKey_.clear();
    modelInfo_->clear();
    setModelProblem({});
    return;
  }
  if (c.model_file.empty()) {
    inspector_->cancel();
    inspectKey_.clear();
    modelInfo_->setStyleSheet(kNoteStyle);
    modelInfo_->setText(tr("choose a file to see its parameters and layers"));
    return;
  }
  // What the summary depends on: the file and the input the data gives it.
  const QString key = fileStamp(c.model_file) + '|' +
                      QString::fromStdString(config::to_string(c.dataset)) + '|' +
                      fileStamp(c.data_path) + '|' + features_->text() + '|' + target_->text() +
                      '|' + QString::number(static_cast<int>(c.task));
  if (key == inspectKey_) return;
  setModelProblem({});  // until the new inspection says otherwise
  const auto issues = config::check(c);
  if (!issues.empty()) {
    inspector_->cancel();
    inspectKey_.clear();
    modelInfo_->setStyleSheet(kNoteStyle);
    modelInfo_->setText(tr("inspected once the config is valid"));
    return;
  }
  inspectKey_ = key;
  modelInfo_->setStyleSheet(kNoteStyle);
  modelInfo_->setText(tr("inspecting %1…").arg(QFileInfo(modelFile_->text()).fileName()));
  inspector_->inspect(c);
}

void ExperimentForm::showModelInfo(const ModelInfo& info) {
  QString text = tr("%1 parameters; %2")
                     .arg(QLocale().toString(info.parameters))
                     .arg(info.layerKinds.join(", "));
  if (info.batchNorm) text += tr("\nbatch norm: its statistics follow the per-device batch");
  if (info.dropout) text += tr("\ndropout: its masks follow the seed");
  modelInfo_->setStyleSheet({});
  modelInfo_->setText(text);
}

void ExperimentForm::showModelError(const QString& message) {
  modelInfo_->setStyleSheet(kErrorStyle);
  modelInfo_->setText(message);
  setModelProblem(message);
}

QString ExperimentForm::dataProblemField() const {
  const QString problem = dataProblem();
  if (problem.isEmpty()) return {};
  const config::RunConfig c = config(previewSetup_);
  // read_data_sizes' words: "<file>: no column 'y' in the header (columns: ...)", "cannot open
  // <path>", "<path>: empty CSV (no header)".
  const auto names = [&](const std::string& column) {
    return !column.empty() &&
           problem.contains(QString::fromStdString("no column '" + column + "'"));
  };
  if (names(c.target)) return QStringLiteral("target");
  for (const std::string& feature : c.features)
    if (names(feature)) return QStringLiteral("features");
  const QString test = QString::fromStdString(c.test_data);
  if (!test.isEmpty() && (problem == "cannot open " + test || problem.startsWith(test + ": ")))
    return QStringLiteral("test_data");
  return QStringLiteral("data_path");
}

QString ExperimentForm::dataSizesText() const { return dataSizes_->text(); }
QString ExperimentForm::modelInfoText() const { return modelInfo_->text(); }
bool ExperimentForm::inspecting() const { return inspector_->busy(); }

}  // namespace parity::ui
