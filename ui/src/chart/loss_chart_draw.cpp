// LossChart: drawing, axes and navigation (data and series management are in loss_chart.cpp).
#include <parity/analysis/curve_analysis.h>
#include <parity/plot/axis_ticks.h>
#include <parity/plot/decimation.h>
#include <parity/ui/chart/loss_chart.h>
#include <parity/ui/chart/plot_points.h>

#include <QCoreApplication>
#include <QtCharts/QCategoryAxis>
#include <QtCharts/QChart>
#include <QtCharts/QLineSeries>
#include <QtCharts/QScatterSeries>
#include <QtCharts/QValueAxis>
#include <algorithm>
#include <cmath>
#include <limits>
#include <tuple>

#include "loss_chart_p.h"

namespace parity::ui {

using plot::CurveSeries;
using plot::decimate_min_max;
using plot::DecimateOptions;
using plot::logTicks;
using plot::MinMaxIndex;
using plot::niceStep;

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr int kMinColumns = 150;
/// While the user zooms or pans: a frame has to be drawn within 16 ms, and Qt Charts lays out
/// and strokes every point (about a microsecond each), so fewer, wider columns until they pause.
constexpr int kMinDraftColumns = 100;

/// A new range with round ticks, and at no moment an old interval over a new range: Qt Charts
/// lays out every tick synchronously on a range change, so epoch's 0.2 over samples' 0-12,800
/// (64,000 ticks) froze the window. The anchor and interval change first (Qt only marks the
/// layout for later then), the range last, so the one synchronous layout sees the new interval
/// over the new range. The range comes last also because Qt lays labels out at once only on a
/// range change: set before a switch to fixed ticks and back, a frame kept the fixed labels,
/// counted from the range's start ("16, 5516, 11016" while a run of batch 16 trained).
/// `lengthPx` long, the axis gets a tick every `pxPerTick` or so (at most 6): on a small plot Qt
/// Charts replaces labels that do not fit between their neighbours by "...".
void setRangeAndTicks(QValueAxis* axis, double lo, double hi, double lengthPx, double pxPerTick) {
  const int ticks = std::clamp(static_cast<int>(lengthPx / pxPerTick), 2, 6);
  const double step = niceStep(hi - lo, ticks);
  axis->setTickAnchor(std::floor(lo / step) * step);
  axis->setTickInterval(step);
  axis->setTickType(QValueAxis::TicksDynamic);
  axis->setRange(lo, hi);
}

}  // namespace

void LossChart::setXAxis(analysis::Axis kind) {
  const bool changed = d_->xKind_ != kind;
  d_->xKind_ = kind;
  d_->axisX_->setTitleText(
      QCoreApplication::translate(analysis::kAxisTrContext, analysis::names(kind).title));
  if (changed) {
    d_->zoomX_.reset();  // a range in steps means nothing in samples
    scheduleRedraw();
  }
}

void LossChart::setLogY(bool on) {
  if (d_->logY_ == on) return;
  d_->logY_ = on;
  d_->zoomY_.reset();
  rebuildYAxis();
  scheduleRedraw();
}

void LossChart::rebuildYAxis() {
  QAbstractAxis* old = d_->axisY_;
  if (d_->logY_) {
    // Lines are drawn in log10(loss) on a linear axis whose labels sit at round losses (0.4,
    // 0.5, 1, 2, ...): QLogValueAxis labels only powers of its base.
    auto* axis = new QCategoryAxis;
    axis->setLabelsPosition(QCategoryAxis::AxisLabelsPositionOnValue);
    d_->axisY_ = axis;
  } else {
    auto* axis = new QValueAxis;
    axis->setLabelFormat("%g");
    d_->axisY_ = axis;
  }
  d_->axisY_->setTitleText(d_->logY_ ? tr("loss (log)") : tr("loss"));
  d_->shownY_ = {0, 0};  // the new axis has no range yet: the next frame sets it
  d_->chart_->addAxis(d_->axisY_, Qt::AlignLeft);
  for (QAbstractSeries* s : d_->chart_->series()) {
    if (old) s->detachAxis(old);
    s->attachAxis(d_->axisY_);
  }
  if (old) {
    d_->chart_->removeAxis(old);
    delete old;
  }
}

std::pair<double, double> LossChart::dataXExtent() const {
  double lo = kInf, hi = -kInf;
  for (const RunSeries& rs : d_->runs_) {
    const CurveSeries* s = d_->store_.find(rs.info.id, -1);
    if (!s || s->size() == 0 || !s->hasAxis(d_->xKind_)) continue;
    const std::vector<double>& xs = s->column(d_->xKind_);
    lo = std::min(lo, xs.front());
    hi = std::max(hi, xs.back());
  }
  return {lo, hi};
}

bool LossChart::anyActive() const {
  for (const RunSeries& rs : d_->runs_) {
    if (storage::is_active(rs.info.status)) return true;
  }
  return false;
}

LossChart::LineCache& LossChart::reduce(LineCache& cache, const analysis::Series& series,
                                        const MinMaxIndex* index, LineKind kind, double x0,
                                        double x1, int columns) {
  const double beta = kind == LineKind::kSmooth ? d_->beta_ : 0;
  const bool draft = d_->gesture_ != Gesture::kNone;
  const LineView view{x0, x1, beta, columns, d_->xKind_, d_->logY_, draft};
  if (cache.size == series.size() && cache.view == view) return cache;
  cache = LineCache{series.size(), view, {}, kInf, -kInf, {}, {}};
  // Through the series' MinMaxIndex a column costs a few block reads, not one visit per point.
  auto decimate = [&](const analysis::Series& s, const MinMaxIndex* idx, const DecimateOptions& o) {
    if (idx && idx->size() == s.size()) {
      decimate_min_max(s, *idx, o, d_->decimated_);
    } else {
      decimate_min_max(s, o, d_->decimated_);
    }
  };
  if (kind == LineKind::kFaint) {
    // Faint raw curve under the EMA: two-pixel columns, each column's min and max.
    const int faintColumns = std::max(1, columns / 2);
    decimate(series, index, {analysis::Range{x0, x1}, faintColumns});
    collapseToMinMax(d_->decimated_, x0, (x1 - x0) / faintColumns, d_->logY_, cache.points);
  } else if (draft && kind == LineKind::kSmooth) {
    // A zoom or pan frame: each column's min and max only (half the points); the full detail
    // follows kRefineMs after the last step.
    decimate(series, index, {analysis::Range{x0, x1}, columns});
    collapseToMinMax(d_->decimated_, x0, (x1 - x0) / columns, d_->logY_, cache.points);
  } else {
    decimate(series, index, {analysis::Range{x0, x1}, columns});
    appendPoints(d_->decimated_, d_->logY_, cache.points);
  }
  if (d_->logY_) {
    for (QPointF& p : cache.points) p.setY(std::log10(p.y()));
  }
  for (const QPointF& p : cache.points) {
    if (p.x() < x0 || p.x() > x1) continue;  // the neighbours outside only lead the line in
    cache.ylo = std::min(cache.ylo, p.y());
    cache.yhi = std::max(cache.yhi, p.y());
  }
  return cache;
}

void LossChart::redrawNow() {
  d_->redrawTimer_.stop();
  d_->drawn_.rowsPending = false;
  const bool draft = d_->gesture_ != Gesture::kNone;
  if (!draft) d_->refineTimer_.stop();
  if (d_->drawn_.draftPens != draft) {
    d_->drawn_.draftPens = draft;
    for (RunSeries& rs : d_->runs_) styleSeries(rs);
  }
  ++d_->redraws_;
  const QRectF plot = d_->chart_->plotArea();
  const double width = plot.width() > 0 ? plot.width() : 800;
  const double height = plot.height() > 0 ? plot.height() : 500;
  Frame frame;
  frame.columns = decimationColumns(width);
  std::tie(frame.x0, frame.x1) = visibleX();
  findIdenticalRuns();  // dashes the later runs of an identical group before they are drawn
  reduceLines(frame);   // phase 1: every line reduced (or reused), the y extent found
  std::tie(frame.ylo, frame.yhi) = visibleY(frame.ylo, frame.yhi);
  pushPoints(frame, width, height);  // phase 2: axes, then the points
  placeBadMarkers(frame);
  updateLegend();
  emit redrawn();
}

// Per-pixel columns, unless that would push more points than the budget: Qt Charts lays out and
// strokes every point (about a microsecond each), so many long runs get wider columns.
int LossChart::decimationColumns(double width) const {
  int lines = 0;
  for (const RunSeries& rs : d_->runs_)
    lines += (d_->beta_ > 0 ? 2 : 1) + static_cast<int>(rs.ranks.size());
  const int perPixel = std::max(50, static_cast<int>(width));
  // While the user zooms or pans, a quarter of the budget; the full one once they pause.
  const int budget = d_->gesture_ != Gesture::kNone ? d_->pointBudget_ / 4 : d_->pointBudget_;
  const int budgeted = lines > 0 ? budget / (4 * lines) : perPixel;
  const int floor = d_->gesture_ != Gesture::kNone ? kMinDraftColumns : kMinColumns;
  return std::clamp(budgeted, std::min(perPixel, floor), perPixel);
}

std::pair<double, double> LossChart::visibleX() const {
  auto [x0, x1] = d_->zoomX_ ? *d_->zoomX_ : dataXExtent();
  if (!d_->zoomX_ && x0 < x1 && anyActive()) {
    // While runs grow, step the right edge in eighths of the span, so that new rows rarely
    // change the axis (which would lay out every line again).
    const double step = niceStep(x1 - x0, 8);
    x1 = x0 + std::ceil((x1 - x0) / step) * step;
  }
  if (!(x0 <= x1)) return {0, 1};
  if (x0 == x1) return {x0 - 0.5, x1 + 0.5};
  return {x0, x1};
}

void LossChart::reduceLines(Frame& f) {
  auto add = [&](QLineSeries* target, LineCache& cache, const analysis::Series* series,
                 const MinMaxIndex* index, LineKind kind) {
    if (!series || series->empty()) {
      f.empty.push_back(target);
      return;
    }
    LineCache& c = reduce(cache, *series, index, kind, f.x0, f.x1, f.columns);
    f.ylo = std::min(f.ylo, c.ylo);
    f.yhi = std::max(f.yhi, c.yhi);
    f.pending.push_back({target, &c, kind});
  };
  f.badByRun.assign(d_->runs_.size(), {});
  for (std::size_t i = 0; i < d_->runs_.size(); ++i) {
    RunSeries& rs = d_->runs_[i];
    const qint64 id = rs.info.id;
    if (rs.hidden) {  // clicked off in the legend: no lines, no say in the y range
      f.empty.push_back(rs.raw);
      f.empty.push_back(rs.main);
      for (auto& [rank, series] : rs.ranks) f.empty.push_back(series);
      continue;
    }
    const analysis::Series* raw = d_->store_.raw(id, -1, d_->xKind_);
    if (d_->beta_ > 0) {
      add(rs.raw, rs.rawCache, raw, d_->store_.index(id, -1, false), LineKind::kFaint);
      const analysis::Series* smooth = d_->store_.smoothed(id, -1, d_->xKind_, d_->beta_);
      add(rs.main, rs.mainCache, smooth, d_->store_.index(id, -1, true), LineKind::kSmooth);
    } else {
      f.empty.push_back(rs.raw);
      add(rs.main, rs.mainCache, raw, d_->store_.index(id, -1, false), LineKind::kExact);
    }
    for (auto& [rank, series] : rs.ranks) {
      const analysis::Series* r = d_->beta_ > 0
                                      ? d_->store_.smoothed(id, rank, d_->xKind_, d_->beta_)
                                      : d_->store_.raw(id, rank, d_->xKind_);
      add(series, rs.rankCache[rank], r, d_->store_.index(id, rank, d_->beta_ > 0),
          d_->beta_ > 0 ? LineKind::kSmooth : LineKind::kExact);
    }
    // Qt Charts silently drops NaN points: collect them (one per pixel column) for markers.
    const CurveSeries* s = d_->store_.find(id, -1);
    if (!s || !raw) continue;
    int lastColumn = -1;
    for (std::size_t index : s->nonFinite) {
      const double x = raw->x[index];
      if (x < f.x0 || x > f.x1) continue;
      const int column = static_cast<int>((x - f.x0) / (f.x1 - f.x0) * f.columns);
      if (column == lastColumn) continue;
      lastColumn = column;
      f.badByRun[i].push_back(x);
    }
  }
}

std::pair<double, double> LossChart::visibleY(double ylo, double yhi) const {
  // In log10 units on a log axis, where an empty chart shows 0.1 to 1 and a flat line a factor
  // of two either side.
  if (d_->zoomY_) return *d_->zoomY_;
  if (!(ylo <= yhi)) return {d_->logY_ ? -1 : 0, 1};
  const double pad = (yhi - ylo) * 0.05;
  const double flat = d_->logY_ ? std::log10(2.0) : 0.5;
  return {ylo - (pad > 0 ? pad : flat), yhi + (pad > 0 ? pad : flat)};
}

// Qt Charts recomputes a line's geometry whenever its points or an axis range change; emptying the
// lines first makes a range change cost nothing, so each line is laid out once per frame, and a
// line whose points are unchanged is not touched.
void LossChart::pushPoints(const Frame& f, double width, double height) {
  const double x0 = f.x0, x1 = f.x1, ylo = f.ylo, yhi = f.yhi;
  // The ticks thin out or fill in with the plot's size.
  const bool axesChanged = d_->shownX_ != std::make_pair(x0, x1) ||
                           d_->shownY_ != std::make_pair(ylo, yhi) ||
                           d_->shownSize_ != QSizeF(width, height);
  d_->shownSize_ = QSizeF(width, height);
  d_->shownX_ = {x0, x1};
  d_->shownY_ = {ylo, yhi};
  for (QLineSeries* s : f.empty) {
    if (s->count() > 0) s->clear();
  }
  if (axesChanged) {
    for (const Pending& p : f.pending) p.series->clear();
    setRangeAndTicks(d_->axisX_, x0, x1, width, 90);
    if (d_->logY_) {
      setLogTicks(ylo, yhi, height);
    } else if (auto* linear = qobject_cast<QValueAxis*>(d_->axisY_)) {
      setRangeAndTicks(linear, ylo, yhi, height, 40);
    }
  }
  // The points are already in log10 units on a log axis.
  PixelScale scale{x0, (x1 - x0) / width, ylo, (yhi - ylo) / height, false};
  int drawn = 0;
  for (const Pending& p : f.pending) {
    if (p.kind == LineKind::kSmooth && !(p.cache->simplifiedFor == scale)) {
      p.cache->simplified = p.cache->points;
      simplifyInPixels(p.cache->simplified, scale, 0.3);
      p.cache->simplifiedFor = scale;
    }
    const QList<QPointF>& points =
        p.kind == LineKind::kSmooth ? p.cache->simplified : p.cache->points;
    drawn += static_cast<int>(points.size());
    // Unchanged lines keep their layout (QList shares: comparing identical lists is cheap).
    if (p.series->count() != points.size() || points != p.series->points()) {
      p.series->replace(points);
    }
  }
  d_->drawnPoints_ = drawn;
  d_->drawn_.draftFrame = d_->gesture_ != Gesture::kNone;
}

// The log axis's labels: round losses at their log10 position (ylo, yhi in log10 units).
void LossChart::setLogTicks(double ylo, double yhi, double height) {
  auto* axis = qobject_cast<QCategoryAxis*>(d_->axisY_);
  if (!axis) return;
  for (const QString& label : axis->categoriesLabels()) axis->remove(label);
  axis->setRange(ylo, yhi);
  axis->setStartValue(ylo);
  for (double loss : logTicks(std::pow(10.0, ylo), std::pow(10.0, yhi), height)) {
    const double at = std::log10(loss);
    if (at > ylo) axis->append(QString::number(loss, 'g', 6), at);
  }
}

// Markers for NaN/inf losses sit just under the top edge, where no curve can hide them.
void LossChart::placeBadMarkers(const Frame& f) {
  const double top = f.yhi - (f.yhi - f.ylo) * 0.03;
  for (std::size_t i = 0; i < d_->runs_.size(); ++i) {
    QList<QPointF> points;
    for (double x : f.badByRun[i]) points.append(QPointF(x, top));
    if (points != d_->runs_[i].bad->points()) d_->runs_[i].bad->replace(points);
  }
}

LossChart::Interaction::Interaction(LossChart* chart, Gesture gesture) : owner_(chart) {
  owner_->d_->gesture_ = gesture;
  owner_->d_->refineTimer_.start();
}

LossChart::Interaction::~Interaction() { owner_->d_->gesture_ = Gesture::kNone; }

void LossChart::scheduleRedraw() {
  if (!d_->redrawTimer_.isActive()) d_->redrawTimer_.start();
}

void LossChart::resetZoom() {
  d_->zoomX_.reset();
  d_->zoomY_.reset();
  redrawNow();
}

QString LossChart::describeAt(const QPointF& chartPixel) const {
  const QRectF plot = d_->chart_->plotArea();
  if (!plot.contains(chartPixel)) return {};
  const double x = toValueX(chartPixel.x());
  const analysis::AxisNames& axis = analysis::names(d_->xKind_);
  QStringList lines;
  for (const RunSeries& rs : d_->runs_) {
    const CurveSeries* s = rs.hidden ? nullptr : d_->store_.find(rs.info.id, -1);
    if (!s || s->size() == 0 || !s->hasAxis(d_->xKind_)) continue;
    // The step nearest x on the chart's axis (the x columns grow with the step).
    const std::vector<double>& xs = s->column(d_->xKind_);
    auto it = std::lower_bound(xs.begin(), xs.end(), x);
    std::size_t i = static_cast<std::size_t>(it - xs.begin());
    if (i == xs.size() || (i > 0 && x - xs[i - 1] < xs[i] - x)) --i;
    QString line = tr("%1: step %2 · %3 samples · loss %4 · lr %5")
                       .arg(rs.main->name())
                       .arg(static_cast<qint64>(s->step[i]))
                       .arg(static_cast<qint64>(s->samples[i]))
                       .arg(s->raw.y[i], 0, 'g', 5)
                       .arg(s->lr[i], 0, 'g', 4);
    // Past a run's last point the line is that point, not a value at x: say the run ended.
    if (x > xs.back() && !storage::is_active(rs.info.status)) line += tr(" (ended)");
    lines << line;
  }
  if (lines.isEmpty()) return {};
  const QString where = QCoreApplication::translate(analysis::kAxisTrContext, axis.title);
  // Steps and samples are counts: "samples seen 12800", not "12800.4".
  const bool counts = d_->xKind_ == analysis::Axis::kStep || d_->xKind_ == analysis::Axis::kSamples;
  const QString at = counts ? QString::number(qRound64(x)) : QString::number(x, 'g', 6);
  return tr("%1 %2").arg(where, at) + "\n" + lines.join("\n");
}

double LossChart::toValueX(double px) const {
  const QRectF plot = d_->chart_->plotArea();
  const double t = plot.width() > 0 ? (px - plot.left()) / plot.width() : 0;
  return d_->shownX_.first + t * (d_->shownX_.second - d_->shownX_.first);
}

double LossChart::toValueY(double py) const {
  const QRectF plot = d_->chart_->plotArea();
  const double t = plot.height() > 0 ? (plot.bottom() - py) / plot.height() : 0;
  const auto [lo, hi] = d_->shownY_;
  return lo + t * (hi - lo);
}

void LossChart::zoomToPixels(const QRectF& rect) {
  const Interaction interaction(this, Gesture::kZooming);
  const QRectF r = rect.intersected(d_->chart_->plotArea());
  if (r.width() < 2 || r.height() < 2) return;
  d_->zoomX_ = std::make_pair(toValueX(r.left()), toValueX(r.right()));
  d_->zoomY_ = std::make_pair(toValueY(r.bottom()), toValueY(r.top()));
  redrawNow();
}

void LossChart::panPixels(const QPointF& delta) {
  const Interaction interaction(this, Gesture::kPanning);
  const QRectF plot = d_->chart_->plotArea();
  d_->zoomX_ =
      std::make_pair(toValueX(plot.left() - delta.x()), toValueX(plot.right() - delta.x()));
  if (delta.y() != 0) {
    d_->zoomY_ =
        std::make_pair(toValueY(plot.bottom() - delta.y()), toValueY(plot.top() - delta.y()));
  }
  keepZoomOnData();
  redrawNow();
}

void LossChart::zoomAt(double factorX, double factorY, const QPointF& pixel) {
  const Interaction interaction(this, Gesture::kZooming);
  const QRectF plot = d_->chart_->plotArea();
  if (factorX != 1) {
    const double cx = toValueX(pixel.x());
    d_->zoomX_ = std::make_pair(cx + (d_->shownX_.first - cx) * factorX,
                                cx + (d_->shownX_.second - cx) * factorX);
  }
  if (factorY != 1) {
    const double top = pixel.y() + (plot.top() - pixel.y()) * factorY;
    const double bottom = pixel.y() + (plot.bottom() - pixel.y()) * factorY;
    d_->zoomY_ = std::make_pair(toValueY(bottom), toValueY(top));
  }
  keepZoomOnData();
  redrawNow();
}

}  // namespace parity::ui
