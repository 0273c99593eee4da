#include <parity/config/batch_plan.h>
#include <parity/config/lr_schedule.h>
#include <parity/config/valid_config.h>
#include <parity/ui/experiment/lr_preview.h>

#include <QLocale>
#include <QPainter>
#include <QPainterPath>
#include <algorithm>

namespace parity::ui {

LrCurve lrCurve(const config::RunConfig& config, int64_t trainSize, int maxPoints) {
  LrCurve curve;
  if (trainSize <= 0) return curve;
  const config::SetupPlan plan = config::plan_setup(config::ValidConfig::make(config), trainSize);
  curve.optimizerSteps = plan.total_optimizer_steps;
  curve.scheduleLength = config::schedule_length(config, trainSize);
  const config::LrSchedule schedule(config, plan.effective_lr, curve.scheduleLength);
  curve.problem = QString::fromStdString(schedule.problem());
  const int64_t steps = curve.optimizerSteps;
  if (steps <= 0) return curve;
  const int64_t stride = std::max<int64_t>(1, (steps + maxPoints - 1) / std::max(1, maxPoints));
  const int perStep = plan.scheduler_steps_per_optimizer_step;
  // The engine's AcceleratedScheduler: step s (0-based) uses lr(position), then the position
  // advances by perStep, onecycle never past its total.
  const auto add = [&](int64_t s) {
    int64_t position = s * perStep;
    if (schedule.caps_at_total()) position = std::min(position, schedule.total_steps());
    const double x = static_cast<double>((s + 1) * plan.global_batch);
    curve.points.push_back(QPointF(x, schedule.lr(position)));
  };
  for (int64_t s = 0; s < steps; s += stride) add(s);
  if ((steps - 1) % stride != 0) add(steps - 1);
  return curve;
}

LrPreview::LrPreview(QWidget* parent) : QWidget(parent) {
  setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
}

void LrPreview::setCurve(const LrCurve& curve) {
  curve_ = curve;
  note_.clear();
  update();
}

void LrPreview::setNote(const QString& note) {
  curve_ = {};
  note_ = note;
  update();
}

QSize LrPreview::sizeHint() const { return {260, fontMetrics().height() * 6}; }
QSize LrPreview::minimumSizeHint() const { return {160, fontMetrics().height() * 6}; }

void LrPreview::paintEvent(QPaintEvent*) {
  QPainter p(this);
  p.setRenderHint(QPainter::Antialiasing);
  const QFontMetrics fm = fontMetrics();
  const QRect box = rect().adjusted(1, 1, -2, -fm.height() - 2);
  p.setPen(palette().color(QPalette::Mid));
  p.setBrush(palette().color(QPalette::Base));
  p.drawRect(box);
  if (curve_.points.isEmpty()) {
    p.setPen(palette().color(QPalette::PlaceholderText));
    p.drawText(box.adjusted(6, 0, -6, 0), Qt::AlignCenter | Qt::TextWordWrap,
               note_.isEmpty() ? tr("no optimizer steps") : note_);
    return;
  }
  double maxLr = 0;
  for (const QPointF& pt : curve_.points) maxLr = std::max(maxLr, pt.y());
  const double maxX = std::max(1.0, curve_.points.back().x());
  const QRectF plot = QRectF(box).adjusted(4, fm.height() + 2, -4, -4);
  const auto toPixel = [&](const QPointF& pt) {
    const double fx = pt.x() / maxX;
    const double fy = maxLr > 0 ? pt.y() / maxLr : 0;
    return QPointF(plot.left() + fx * plot.width(), plot.bottom() - fy * plot.height());
  };
  QPainterPath path;
  path.moveTo(toPixel(curve_.points.front()));
  for (const QPointF& pt : curve_.points) path.lineTo(toPixel(pt));
  p.setBrush(Qt::NoBrush);
  p.setPen(QPen(palette().color(QPalette::Highlight), 1.5));
  p.drawPath(path);

  p.setPen(palette().color(QPalette::Text));
  p.drawText(box.adjusted(4, 1, -4, 0), Qt::AlignLeft | Qt::AlignTop,
             tr("lr max %1").arg(maxLr, 0, 'g', 4));
  const QRect below(box.left(), box.bottom() + 1, box.width(), fm.height() + 1);
  p.drawText(below, Qt::AlignLeft | Qt::AlignVCenter, "0");
  p.drawText(below, Qt::AlignRight | Qt::AlignVCenter,
             tr("%1 samples seen").arg(QLocale().toString(static_cast<qlonglong>(maxX))));
}

}  // namespace parity::ui
