// The Compare panel's plot: each run's Δ loss against the reference (with the allowed gap and
// where each different run parts), or the seed groups' mean inside their min-max band.
#include <parity/plot/axis_ticks.h>
#include <parity/plot/decimation.h>
#include <parity/ui/chart/loss_chart.h>
#include <parity/ui/compare/compare_panel.h>

#include <QComboBox>
#include <QFontMetricsF>
#include <QLabel>
#include <QPen>
#include <QtCharts/QAreaSeries>
#include <QtCharts/QCategoryAxis>
#include <QtCharts/QChart>
#include <QtCharts/QChartView>
#include <QtCharts/QLineSeries>
#include <QtCharts/QValueAxis>
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <map>
#include <utility>

namespace parity::ui {

using plot::decimate_min_max;
using plot::niceStep;

namespace {

// A range widened to multiples of a round step (1, 2 or 5 x 10^k), labelled at each multiple, so
// the Δ plot reads 0, 0.05, 0.1 instead of 0.0575195, -0.258837. The labels are written here, from
// the multiple's index: Qt's fixed ticks add the step to the minimum and print the sum, so the
// zero tick read -5.55112e-17.
void setRoundRange(QValueAxis* axis, double lo, double hi, int ticks) {
  if (!(hi > lo)) hi = lo + 1;
  double step = niceStep(hi - lo, ticks);
  auto first = static_cast<int64_t>(std::floor(lo / step + 1e-9));
  auto last = std::max(first + 1, static_cast<int64_t>(std::ceil(hi / step - 1e-9)));
  // Widening to multiples adds labels: the next round step (1 -> 2 -> 5 -> 10) while there are
  // more than room for (a 60 px high plot read "..." at every label).
  while (last - first > std::max(ticks, 1)) {
    const double decade = std::pow(10.0, std::floor(std::log10(step) + 1e-9));
    const double m = step / decade;
    step = (m < 1.5 ? 2 : m < 3.5 ? 5 : 10) * decade;
    first = static_cast<int64_t>(std::floor(lo / step + 1e-9));
    last = std::max(first + 1, static_cast<int64_t>(std::ceil(hi / step - 1e-9)));
  }
  axis->setRange(static_cast<double>(first) * step, static_cast<double>(last) * step);
  auto* labelled = qobject_cast<QCategoryAxis*>(axis);
  if (!labelled) return;
  for (const QString& label : labelled->categoriesLabels()) labelled->remove(label);
  const int decimals = std::max(0, -static_cast<int>(std::floor(std::log10(step) + 1e-9)));
  labelled->setStartValue(static_cast<double>(first) * step - step / 2);
  for (int64_t i = first; i <= last; ++i) {
    const double value = static_cast<double>(i) * step;
    labelled->append(i == 0 ? QStringLiteral("0") : QString::number(value, 'f', decimals), value);
  }
}

// The extremes of what has been drawn, to fit the axes to.
struct Extent {
  double x0 = std::numeric_limits<double>::infinity(), x1 = -x0;
  double lo = std::numeric_limits<double>::infinity(), hi = -lo;
};

// ys over xs, decimated to `width` pixel columns (each line on its own, which keeps its
// extremes), as a new series; `extent` grows to cover it.
QLineSeries* decimatedLine(const std::vector<double>& xs, const std::vector<double>& ys, int width,
                           Extent& extent) {
  const analysis::Series s = decimate_min_max(analysis::Series{xs, ys}, {analysis::Range{}, width});
  auto* series = new QLineSeries;
  QList<QPointF> points;
  for (std::size_t i = 0; i < s.size(); ++i) {
    points.append(QPointF(s.x[i], s.y[i]));
    extent.lo = std::min(extent.lo, s.y[i]);
    extent.hi = std::max(extent.hi, s.y[i]);
    extent.x0 = std::min(extent.x0, s.x[i]);
    extent.x1 = std::max(extent.x1, s.x[i]);
  }
  series->replace(points);
  return series;
}

}  // namespace

void ComparePanel::plot() {
  deltaChart_->removeAllSeries();
  for (QAbstractAxis* a : deltaChart_->axes()) {
    deltaChart_->removeAxis(a);
    delete a;
  }
  if (plotKind_->currentIndex() == 1) {
    plotSeedGroups();
  } else {
    plotDeltas();
  }
  // One entry per named series: a colour swatch and the whole name, wrapped as the width needs.
  QStringList entries;
  for (QAbstractSeries* s : deltaChart_->series()) {
    if (s->name().isEmpty()) continue;
    QColor color = Qt::gray;
    if (auto* line = qobject_cast<QLineSeries*>(s)) color = line->color();
    if (auto* area = qobject_cast<QAreaSeries*>(s)) color = area->brush().color();
    entries << QString("<span style=\"color:%1\">&#9632;</span>&nbsp;%2")
                   .arg(color.name(), s->name().toHtmlEscaped().replace(' ', "&nbsp;"));
  }
  // The parting marks share one key (each is labelled #N on the plot): 17 different runs made
  // 17 "#N parts at 256" entries.
  const QList<QAbstractSeries*> all = deltaChart_->series();
  if (std::any_of(all.begin(), all.end(),
                  [](QAbstractSeries* s) { return s->objectName() == "partingMark"; })) {
    entries << tr(
        "<span style=\"color:gray\">&#9478;</span>&nbsp;parts&nbsp;at: where a "
        "run's Δ leaves the allowed gap (#N on the plot)");
  }
  deltaLegend_->setText(entries.join(" &nbsp; "));
}

// Where each different run parts from the reference's (its first point above the allowed gap):
// a dashed vertical line in the run's colour, and at its top the runs parting there ("#2", or
// "#2, #3 +15" when many part at one point: 17 labels at one x were unreadable).
void ComparePanel::addPartingMarks(QValueAxis* x, QValueAxis* y, double lo, double hi) {
  std::map<double, QStringList> partingAt;
  std::map<double, QColor> colorAt;
  for (const analysis::RunComparison& r : comparison().rows) {
    if (r.verdict != analysis::Verdict::kDifferent || !r.first_outside_x) continue;
    const QColor color = LossChart::colorFor(r.id);
    auto* mark = new QLineSeries;
    mark->setObjectName("partingMark");
    QPen pen(color);
    pen.setStyle(Qt::DashLine);
    pen.setWidthF(1.2);
    mark->setPen(pen);
    mark->append(*r.first_outside_x, lo);
    mark->append(*r.first_outside_x, hi);
    deltaChart_->addSeries(mark);
    mark->attachAxis(x);
    mark->attachAxis(y);
    QStringList& ids = partingAt[*r.first_outside_x];
    colorAt[*r.first_outside_x] = ids.isEmpty() ? color : QColor(Qt::darkGray);
    ids << QString("#%1").arg(r.id);
  }
  for (const auto& [at, ids] : partingAt) {
    const QString text =
        ids.size() <= 3 ? ids.join(", ") : tr("%1, %2 +%3").arg(ids[0], ids[1]).arg(ids.size() - 2);
    // A one-point series draws no line, only its point label.
    auto* label = new QLineSeries;
    label->setObjectName("partingLabel");
    label->setPen(Qt::NoPen);
    label->setPointLabelsVisible(true);
    label->setPointLabelsColor(colorAt[at]);
    label->setPointLabelsClipping(false);
    label->setPointLabelsFormat(text);
    label->append(at, hi);
    deltaChart_->addSeries(label);
    label->attachAxis(x);
    label->attachAxis(y);
  }
}

// A parting label is centred on its mark, so near an end of the x axis half of it fell outside the
// plot, under the axis' labels (": #3, #5" for "#2, #3, #5" at 1500x950): it moves inside.
void ComparePanel::keepPartingLabelsInside(QValueAxis* x) {
  // Only on a plot laid out on screen (a hidden one is plotted again when it is resized).
  const double width = deltaChart_->plotArea().width();
  if (!deltaView_->isVisible() || width < 50 || !(x->max() > x->min())) return;
  const double perPixel = (x->max() - x->min()) / width;
  for (QAbstractSeries* s : deltaChart_->series()) {
    auto* label = qobject_cast<QLineSeries*>(s);
    if (!label || label->objectName() != "partingLabel" || label->count() != 1) continue;
    const QFontMetricsF metrics(label->pointLabelsFont());
    const double half = (metrics.horizontalAdvance(label->pointLabelsFormat()) / 2 + 4) * perPixel;
    const QPointF p = label->at(0);
    const double inside =
        std::clamp(p.x(), x->min() + half, std::max(x->min() + half, x->max() - half));
    if (inside != p.x()) label->replace(0, QPointF(inside, p.y()));
  }
}

// The allowed gap around 0 where the verdict used a seed group: the seeds' min-max spread at
// each point (times noise_factor 1), the band a run's Δ must stay inside.
void ComparePanel::plotAllowedBand(QValueAxis* x, QValueAxis* y, double& lo, double& hi) {
  const analysis::SeedGroup* group = nullptr;
  for (const analysis::SeedGroup& g : comparison().groups) {
    if (!group || std::find(g.indices.begin(), g.indices.end(), 0u) != g.indices.end()) group = &g;
  }
  if (!group || group->band.x.empty()) return;
  std::vector<double> up, down;
  for (std::size_t i = 0; i < group->band.x.size(); ++i) {
    const double w = group->band.hi[i] - group->band.lo[i];
    up.push_back(w);
    down.push_back(-w);
  }
  const int width = std::max(100, deltaView_->width());
  Extent extent;
  extent.lo = lo;
  extent.hi = hi;
  auto* band = new QAreaSeries(decimatedLine(group->band.x, up, width, extent),
                               decimatedLine(group->band.x, down, width, extent));
  lo = extent.lo;
  hi = extent.hi;
  band->setBrush(QColor(128, 128, 128, 50));
  band->setPen(Qt::NoPen);
  QStringList ids;
  for (int64_t id : group->run_ids) ids << QString("#%1").arg(id);
  band->setName(tr("allowed gap: spread of seeds %1").arg(ids.join(", ")));
  deltaChart_->addSeries(band);
  band->attachAxis(x);
  band->attachAxis(y);
}

// Samples seen across, the plotted quantity up; both labelled as plain numbers.
std::pair<QValueAxis*, QValueAxis*> ComparePanel::addAxes() {
  // Category axes labelled at round multiples (setRoundRange); still value axes to their series.
  auto* x = new QCategoryAxis;
  auto* y = new QCategoryAxis;
  for (QCategoryAxis* axis : {x, y})
    axis->setLabelsPosition(QCategoryAxis::AxisLabelsPositionOnValue);
  x->setTitleText(tr("samples seen"));
  deltaChart_->addAxis(x, Qt::AlignBottom);
  deltaChart_->addAxis(y, Qt::AlignLeft);
  return {x, y};
}

// As many round ticks as fit with room for their labels (Qt Charts turns labels that do not fit
// into "..."): one per ~40 px of plot height, per ~90 px of width.
void ComparePanel::setRoundRanges(QValueAxis* x, QValueAxis* y, double x0, double x1, double lo,
                                  double hi) {
  const QRectF area = deltaChart_->plotArea();
  const double h = area.height() > 10 ? area.height() : deltaView_->height() - 90.0;
  const double w = area.width() > 10 ? area.width() : deltaView_->width() - 90.0;
  setRoundRange(y, lo, hi, std::clamp(static_cast<int>(h / 40), 2, 6));
  setRoundRange(x, x0, x1, std::clamp(static_cast<int>(w / 90), 2, 6));
}

void ComparePanel::plotDeltas() {
  const analysis::Comparison& c = comparison();
  deltaChart_->setTitle(tr("Δ loss vs the reference"));
  auto [x, y] = addAxes();
  double lo = 0, hi = 0, x0 = 0, x1 = 1;
  bool any = false;
  plotAllowedBand(x, y, lo, hi);
  for (const analysis::RunComparison& r : c.rows) {
    if (r.verdict == analysis::Verdict::kReference || r.delta_curve.empty()) continue;
    // The delta curve has one point per reference step: decimate to the view's width.
    const analysis::Series shown =
        decimate_min_max(r.delta_curve, {analysis::Range{}, std::max(100, deltaView_->width())});
    QList<QPointF> points;
    for (std::size_t i = 0; i < shown.size(); ++i) {
      if (!std::isfinite(shown.y[i])) continue;
      points.append(QPointF(shown.x[i], shown.y[i]));
      lo = std::min(lo, shown.y[i]);
      hi = std::max(hi, shown.y[i]);
      x0 = any ? std::min(x0, shown.x[i]) : shown.x[i];
      x1 = any ? std::max(x1, shown.x[i]) : shown.x[i];
      any = true;
    }
    auto* series = new QLineSeries;
    // "#4 cf #2 global_batch": the run's number, as the table and the plot's marks name it.
    series->setName(QString("#%1 %2").arg(r.id).arg(QString::fromStdString(r.label)));
    series->setColor(LossChart::colorFor(r.id));
    series->replace(points);
    deltaChart_->addSeries(series);
    series->attachAxis(x);
    series->attachAxis(y);
  }
  addPartingMarks(x, y, lo, hi);
  if (any) {
    setRoundRanges(x, y, x0, x1, lo, hi);
    keepPartingLabelsInside(x);
  } else {
    setRoundRange(y, lo, hi, 2);
  }
}

void ComparePanel::plotSeedGroups() {
  deltaChart_->setTitle(comparison().groups.empty()
                            ? tr("No seed groups: run one setup with several seeds")
                            : tr("Seed groups: mean and min–max band"));
  auto [x, y] = addAxes();
  const int width = std::max(100, deltaView_->width());
  Extent extent;
  for (const analysis::SeedGroup& g : comparison().groups) {
    if (g.band.x.empty()) continue;
    const QColor color = LossChart::colorFor(g.run_ids.front());
    QLineSeries* upper = decimatedLine(g.band.x, g.band.hi, width, extent);
    QLineSeries* lower = decimatedLine(g.band.x, g.band.lo, width, extent);
    auto* band = new QAreaSeries(upper, lower);
    QColor fill = color;
    fill.setAlpha(60);
    band->setBrush(fill);
    band->setPen(Qt::NoPen);
    QStringList ids;
    for (int64_t id : g.run_ids) ids << QString("#%1").arg(id);
    band->setName(tr("%1: min–max of %2 seeds").arg(ids.join(", ")).arg(g.run_ids.size()));
    deltaChart_->addSeries(band);
    band->attachAxis(x);
    band->attachAxis(y);
    QLineSeries* mean = decimatedLine(g.band.x, g.band.mean, width, extent);
    mean->setColor(color);
    mean->setName(tr("mean (spread %1)").arg(g.spread, 0, 'g', 3));
    deltaChart_->addSeries(mean);
    mean->attachAxis(x);
    mean->attachAxis(y);
  }
  if (extent.lo <= extent.hi) setRoundRanges(x, y, extent.x0, extent.x1, extent.lo, extent.hi);
}

}  // namespace parity::ui
