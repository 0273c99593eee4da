// LossChart: drawing, axes and navigation (data and series management are in loss_chart.cpp).
#include <parity/ui/loss_chart.h>

#include <QtCharts/QChart>
#include <QtCharts/QLineSeries>
#include <QtCharts/QLogValueAxis>
#include <QtCharts/QScatterSeries>
#include <QtCharts/QValueAxis>

#include <algorithm>
#include <cmath>
#include <limits>
#include <tuple>

#include <parity/engine/curve_analysis.h>

namespace parity::ui {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

/// 1, 2 or 5 times a power of ten, near span / ticks.
double niceStep(double span, int ticks) {
  if (!(span > 0) || !std::isfinite(span)) return 1;
  const double raw = span / ticks;
  const double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
  const double r = raw / magnitude;
  return (r < 1.5 ? 1 : r < 3.5 ? 2 : r < 7.5 ? 5 : 10) * magnitude;
}

void setTicks(QValueAxis* axis, double lo, double hi) {
  const double step = niceStep(hi - lo, 6);
  axis->setTickType(QValueAxis::TicksDynamic);
  axis->setTickAnchor(std::floor(lo / step) * step);
  axis->setTickInterval(step);
}

}  // namespace

void LossChart::setXAxis(XAxisKind kind) {
  const bool changed = xKind_ != kind;
  xKind_ = kind;
  static const char* kTitles[] = {"optimizer step", "samples seen", "epoch", "wall time (s)"};
  axisX_->setTitleText(tr(kTitles[static_cast<int>(kind)]));
  if (changed) {
    zoomX_.reset();  // a range in steps means nothing in samples
    scheduleRedraw();
  }
}

void LossChart::setLogY(bool on) {
  if (logY_ == on) return;
  logY_ = on;
  zoomY_.reset();
  rebuildYAxis();
  scheduleRedraw();
}

void LossChart::rebuildYAxis() {
  QAbstractAxis* old = axisY_;
  if (logY_) {
    auto* axis = new QLogValueAxis;
    axis->setBase(10);
    axis->setLabelFormat("%g");
    axis->setMinorTickCount(8);
    axisY_ = axis;
  } else {
    auto* axis = new QValueAxis;
    axis->setLabelFormat("%g");
    axisY_ = axis;
  }
  axisY_->setTitleText(logY_ ? tr("loss (log)") : tr("loss"));
  chart_->addAxis(axisY_, Qt::AlignLeft);
  for (QAbstractSeries* s : chart_->series()) {
    if (old) s->detachAxis(old);
    s->attachAxis(axisY_);
  }
  if (old) {
    chart_->removeAxis(old);
    delete old;
  }
}

std::pair<double, double> LossChart::dataXExtent() const {
  double lo = kInf, hi = -kInf;
  for (const RunSeries& rs : runs_) {
    const CurveSeries* s = store_.find(rs.info.id, -1);
    if (!s || s->size() == 0) continue;
    const std::vector<double>& xs = s->column(xKind_);
    lo = std::min(lo, xs.front());
    hi = std::max(hi, xs.back());
  }
  return {lo, hi};
}

void LossChart::redrawNow() {
  redrawTimer_.stop();
  dirty_ = false;
  ++redraws_;
  const QRectF plot = chart_->plotArea();
  const int columns = std::max(50, static_cast<int>(plot.width() > 0 ? plot.width() : 800));

  auto [x0, x1] = zoomX_ ? *zoomX_ : dataXExtent();
  if (!(x0 <= x1)) {
    x0 = 0;
    x1 = 1;
  } else if (x0 == x1) {
    x0 -= 0.5;
    x1 += 0.5;
  }

  const engine::DecimateOptions window{engine::Range{x0, x1}, columns};
  double ylo = kInf, yhi = -kInf;
  // Decimates one series into a QLineSeries, tracking the visible y extent. A log axis cannot
  // show y <= 0, so those points are left out there.
  auto draw = [&](QLineSeries* target, const engine::Series& series) {
    engine::decimate_min_max(series, window, decimated_);
    QList<QPointF> points;
    points.reserve(static_cast<qsizetype>(decimated_.size()));
    for (std::size_t i = 0; i < decimated_.size(); ++i) {
      const double x = decimated_.x[i], y = decimated_.y[i];
      if (logY_ && !(y > 0)) continue;
      points.append(QPointF(x, y));
      if (x >= x0 && x <= x1) {  // the neighbours outside only lead the line in
        ylo = std::min(ylo, y);
        yhi = std::max(yhi, y);
      }
    }
    target->replace(points);
  };
  std::vector<std::vector<double>> badByRun(runs_.size());
  for (std::size_t i = 0; i < runs_.size(); ++i) {
    RunSeries& rs = runs_[i];
    const qint64 id = rs.info.id;
    const engine::Series* raw = store_.raw(id, -1, xKind_);
    if (!raw || raw->empty()) {
      rs.raw->clear();
      rs.main->clear();
      for (auto& [rank, series] : rs.ranks) series->clear();
      continue;
    }
    if (beta_ > 0) {
      draw(rs.raw, *raw);
      draw(rs.main, *store_.smoothed(id, -1, xKind_, beta_));
    } else {
      rs.raw->clear();
      draw(rs.main, *raw);
    }
    for (auto& [rank, series] : rs.ranks) {
      const engine::Series* r = beta_ > 0 ? store_.smoothed(id, rank, xKind_, beta_)
                                          : store_.raw(id, rank, xKind_);
      if (r) {
        draw(series, *r);
      } else {
        series->clear();
      }
    }
    // Qt Charts silently drops NaN points: collect them (one per pixel column) for markers.
    const CurveSeries* s = store_.find(id, -1);
    int lastColumn = -1;
    for (std::size_t index : s->nonFinite) {
      const double x = raw->x[index];
      if (x < x0 || x > x1) continue;
      const int column = static_cast<int>((x - x0) / (x1 - x0) * columns);
      if (column == lastColumn) continue;
      lastColumn = column;
      badByRun[i].push_back(x);
    }
  }

  if (zoomY_) {
    std::tie(ylo, yhi) = *zoomY_;
  } else if (!(ylo <= yhi)) {
    ylo = logY_ ? 0.1 : 0;
    yhi = 1;
  } else if (logY_) {
    const double pad = std::pow(yhi / ylo, 0.05);
    ylo /= pad;
    yhi *= pad;
    if (ylo == yhi) {
      ylo /= 2;
      yhi *= 2;
    }
  } else {
    const double pad = (yhi - ylo) * 0.05;
    ylo -= pad > 0 ? pad : 0.5;
    yhi += pad > 0 ? pad : 0.5;
  }
  shownX_ = {x0, x1};
  shownY_ = {ylo, yhi};
  axisX_->setRange(x0, x1);
  setTicks(axisX_, x0, x1);
  axisY_->setRange(ylo, yhi);
  if (auto* linear = qobject_cast<QValueAxis*>(axisY_)) setTicks(linear, ylo, yhi);

  // Markers for NaN/inf losses sit just under the top edge, where no curve can hide them.
  const double top = logY_ ? yhi / std::pow(yhi / ylo, 0.03) : yhi - (yhi - ylo) * 0.03;
  for (std::size_t i = 0; i < runs_.size(); ++i) {
    QList<QPointF> points;
    for (double x : badByRun[i]) points.append(QPointF(x, top));
    runs_[i].bad->replace(points);
  }
  emit redrawn();
}

void LossChart::scheduleRedraw() {
  if (!redrawTimer_.isActive()) redrawTimer_.start();
}

void LossChart::resetZoom() {
  zoomX_.reset();
  zoomY_.reset();
  redrawNow();
}

double LossChart::toValueX(double px) const {
  const QRectF plot = chart_->plotArea();
  const double t = plot.width() > 0 ? (px - plot.left()) / plot.width() : 0;
  return shownX_.first + t * (shownX_.second - shownX_.first);
}

double LossChart::toValueY(double py) const {
  const QRectF plot = chart_->plotArea();
  const double t = plot.height() > 0 ? (plot.bottom() - py) / plot.height() : 0;
  const auto [lo, hi] = shownY_;
  if (logY_ && lo > 0 && hi > 0) return std::exp(std::log(lo) + t * (std::log(hi) - std::log(lo)));
  return lo + t * (hi - lo);
}

void LossChart::zoomToPixels(const QRectF& rect) {
  const QRectF r = rect.intersected(chart_->plotArea());
  if (r.width() < 2 || r.height() < 2) return;
  zoomX_ = std::make_pair(toValueX(r.left()), toValueX(r.right()));
  zoomY_ = std::make_pair(toValueY(r.bottom()), toValueY(r.top()));
  redrawNow();
}

void LossChart::panPixels(const QPointF& delta) {
  const QRectF plot = chart_->plotArea();
  zoomX_ = std::make_pair(toValueX(plot.left() - delta.x()), toValueX(plot.right() - delta.x()));
  if (delta.y() != 0) {
    zoomY_ = std::make_pair(toValueY(plot.bottom() - delta.y()), toValueY(plot.top() - delta.y()));
  }
  redrawNow();
}

void LossChart::zoomAt(double factorX, double factorY, const QPointF& pixel) {
  const QRectF plot = chart_->plotArea();
  if (factorX != 1) {
    const double cx = toValueX(pixel.x());
    zoomX_ = std::make_pair(cx + (shownX_.first - cx) * factorX,
                            cx + (shownX_.second - cx) * factorX);
  }
  if (factorY != 1) {
    const double top = pixel.y() + (plot.top() - pixel.y()) * factorY;
    const double bottom = pixel.y() + (plot.bottom() - pixel.y()) * factorY;
    zoomY_ = std::make_pair(toValueY(bottom), toValueY(top));
  }
  redrawNow();
}

}  // namespace parity::ui
