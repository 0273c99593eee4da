#pragma once
/// A small picture of the learning rate a setup's optimizer steps use, against samples seen: the
/// schedule as the engine drives it (AcceleratedScheduler: the position advances
/// scheduler_steps_per_optimizer_step per optimizer step, onecycle held at its total), so the
/// preview shows why a schedule written in single-process steps lasts the same number of samples
/// on any number of processes. Custom-painted: a QChartView is too heavy for a form row.
/// Thread affinity: UI thread.

#include <parity/config/run_config.h>

#include <QPointF>
#include <QString>
#include <QVector>
#include <QWidget>
#include <cstdint>

namespace parity::ui {

/// The preview's data: one point per optimizer step (every stride-th when there are more than
/// maxPoints, the last always), x = samples seen after that step (step x global batch, as the
/// runs' curves count them), y = the lr the step used.
struct LrCurve {
  QVector<QPointF> points;
  int64_t optimizerSteps = 0;
  int64_t scheduleLength = 0;  ///< scheduler steps (num_training_steps or its default)
  QString problem;             ///< why torch could not run the schedule (empty when it can)
};

/// The curve of a full config (setup and experiment) over a training set of trainSize samples.
/// Throws ConfigError for an invalid config (the form checks it first).
LrCurve lrCurve(const config::RunConfig& config, int64_t trainSize, int maxPoints = 600);

class LrPreview : public QWidget {
  Q_OBJECT
 public:
  explicit LrPreview(QWidget* parent = nullptr);

  void setCurve(const LrCurve& curve);
  /// Shows a note instead of a curve (the data's size is not known, ...).
  void setNote(const QString& note);
  const LrCurve& curve() const { return curve_; }

  QSize sizeHint() const override;
  QSize minimumSizeHint() const override;

 protected:
  void paintEvent(QPaintEvent* event) override;

 private:
  LrCurve curve_;
  QString note_;
};

}  // namespace parity::ui
