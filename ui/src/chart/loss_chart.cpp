// LossChart: its data and series: the runs drawn, their Qt Charts series, the loader thread that
// fetches their rows, and when everything is settled. Styling and the legend are in
// loss_chart_style.cpp; drawing, axes and navigation in loss_chart_draw.cpp.
#include <parity/ui/chart/loss_chart.h>

#include <QCursor>
#include <QGuiApplication>
#include <QOffscreenSurface>
#include <QOpenGLContext>
#include <QSet>
#include <QToolTip>
#include <QtCharts/QChart>
#include <QtCharts/QLegend>
#include <QtCharts/QLineSeries>
#include <QtCharts/QScatterSeries>
#include <QtCharts/QValueAxis>
#include <algorithm>
#include <cmath>

#include "loss_chart_p.h"

namespace parity::ui {

using plot::CurveSeries;
using plot::CurveStore;

LossChart::LossChart(QObject* parent) : QObject(parent), d_(std::make_unique<Private>()) {
  d_->chart_ = new QChart;
  d_->axisX_ = new QValueAxis;
  d_->chart_->setAnimationOptions(QChart::NoAnimation);
  // QLegend cuts labels to fit ("2x64 u…") and drops them all at 900 px: ChartLegend, a widget
  // under the chart, draws legendEntries() instead.
  d_->chart_->legend()->hide();
  d_->chart_->setMargins(QMargins(6, 6, 6, 6));
  d_->axisX_->setLabelFormat("%g");
  d_->chart_->addAxis(d_->axisX_, Qt::AlignBottom);
  rebuildYAxis();

  connect(d_->loader_.worker(), &CurveLoader::fetched, this, &LossChart::onFetched);
  connect(d_->loader_.worker(), &CurveLoader::fetchFailed, this,
          [this](quint64 token, const QString& message) {
            if (token != d_->token_) return;
            d_->loading_ = Loading::kIdle;
            emit fetchFailed(message);
          });

  d_->redrawTimer_.setSingleShot(true);
  d_->redrawTimer_.setInterval(kRedrawMs);
  connect(&d_->redrawTimer_, &QTimer::timeout, this, &LossChart::redrawNow);
  d_->refineTimer_.setSingleShot(true);
  d_->refineTimer_.setInterval(kRefineMs);
  connect(&d_->refineTimer_, &QTimer::timeout, this, &LossChart::redrawNow);
  setXAxis(d_->xKind_);
}

LossChart::~LossChart() {
  // A fetch running stops at its next run; then the thread ends, before the chart goes.
  d_->loader_.worker()->setLatestToken(~quint64{0});
  d_->loader_.stop();
  // The chart is usually owned by a view; when not, it is ours to delete.
  if (!d_->chart_->parent() && !d_->chart_->scene()) delete d_->chart_;
}

QChart* LossChart::chart() const { return d_->chart_; }
analysis::Axis LossChart::xAxis() const { return d_->xKind_; }
double LossChart::smoothing() const { return d_->beta_; }
bool LossChart::logY() const { return d_->logY_; }
bool LossChart::showRanks() const { return d_->showRanks_; }
void LossChart::keepZoomOnData() {
  const auto [lo, hi] = dataXExtent();
  if (!d_->zoomX_ || !(lo < hi)) return;
  auto [x0, x1] = *d_->zoomX_;
  if (x1 - x0 >= hi - lo) {
    d_->zoomX_.reset();  // zoomed out to the whole data or more: no zoom
    return;
  }
  if (x0 < lo) {
    x1 += lo - x0;
    x0 = lo;
  }
  if (x1 > hi) {
    x0 -= x1 - hi;
    x1 = hi;
  }
  d_->zoomX_ = std::make_pair(x0, x1);
}

bool LossChart::isZoomed() const { return d_->zoomX_.has_value() || d_->zoomY_.has_value(); }
bool LossChart::accelerated() const { return d_->accelerated_; }
void LossChart::setPointBudget(int points) { d_->pointBudget_ = points > 0 ? points : (1 << 30); }
int LossChart::pointBudget() const { return d_->pointBudget_; }
std::pair<double, double> LossChart::xRange() const { return d_->shownX_; }
std::pair<double, double> LossChart::yRange() const {
  if (!d_->logY_) return d_->shownY_;
  return {std::pow(10.0, d_->shownY_.first), std::pow(10.0, d_->shownY_.second)};
}
CurveStore& LossChart::store() { return d_->store_; }
int LossChart::redrawCount() const { return d_->redraws_; }
int LossChart::drawnPoints() const { return d_->drawnPoints_; }

bool LossChart::drawnAsDraft() const { return d_->drawn_.draftFrame; }

void LossChart::openDatabase(const QString& path) {
  ++d_->token_;
  d_->loader_.worker()->setLatestToken(d_->token_);
  d_->loading_ = Loading::kIdle;  // an answer in flight is for the other database
  d_->store_.clear();
  while (!d_->runs_.empty()) removeRun(d_->runs_.back().info.id);
  d_->loader_.post(&CurveLoader::openDatabase, path);
  scheduleRedraw();
}

void LossChart::setRuns(const std::vector<ChartRun>& runs) {
  QSet<qint64> wanted;
  for (const ChartRun& r : runs) wanted.insert(r.id);
  bool changed = false;
  for (std::size_t i = d_->runs_.size(); i-- > 0;) {
    if (!wanted.contains(d_->runs_[i].info.id)) {
      removeRun(d_->runs_[i].info.id);
      changed = true;
    }
  }
  bool needFetch = false;
  for (const ChartRun& r : runs) {
    auto it = std::find_if(d_->runs_.begin(), d_->runs_.end(),
                           [&](const RunSeries& rs) { return rs.info.id == r.id; });
    if (it == d_->runs_.end()) {
      addRun(r);
      changed = true;
    } else if (it->info.label != r.label) {
      it->info = r;
      changed = true;
    } else {
      it->info = r;
    }
    needFetch |= r.stepsDone > d_->store_.lastStep(r.id, -1) || !d_->store_.ranksKnown(r.id);
    if (d_->showRanks_) {
      for (int rank : d_->store_.ranks(r.id)) {
        needFetch |= rank >= 0 && r.stepsDone > d_->store_.lastStep(r.id, rank);
      }
    }
  }
  if (changed) {
    updateLegendNames();
    scheduleRedraw();
  }
  if (needFetch) refresh();
}

void LossChart::forgetRun(qint64 runId) {
  ++d_->token_;  // an answer in flight may hold the deleted run's rows
  d_->loader_.worker()->setLatestToken(d_->token_);
  d_->loading_ = Loading::kIdle;
  removeRun(runId);
  d_->store_.removeRun(runId);
  scheduleRedraw();
}

LossChart::RunSeries& LossChart::addRun(const ChartRun& run) {
  RunSeries rs;
  rs.info = run;
  rs.color = colorFor(run.id);
  rs.raw = new QLineSeries;
  rs.main = new QLineSeries;
  rs.bad = new QScatterSeries;
  rs.bad->setMarkerShape(QScatterSeries::MarkerShapeTriangle);
  rs.bad->setMarkerSize(11);
  const QString label = run.label;
  connect(rs.bad, &QScatterSeries::hovered, this, [label](const QPointF& point, bool state) {
    if (state) {
      QToolTip::showText(QCursor::pos(),
                         tr("%1: loss is NaN or infinite at x = %2").arg(label).arg(point.x()));
    }
  });
  addSeries(rs.raw);
  addSeries(rs.main);
  addSeries(rs.bad);
  d_->runs_.push_back(rs);
  styleSeries(d_->runs_.back());
  syncRankSeries(d_->runs_.back());
  return d_->runs_.back();
}

void LossChart::removeRun(qint64 runId) {
  auto it = std::find_if(d_->runs_.begin(), d_->runs_.end(),
                         [&](const RunSeries& rs) { return rs.info.id == runId; });
  if (it == d_->runs_.end()) return;
  std::vector<QAbstractSeries*> all = {it->raw, it->main, it->bad};
  for (auto& [rank, s] : it->ranks) all.push_back(s);
  for (QAbstractSeries* s : all) {
    d_->chart_->removeSeries(s);
    delete s;
  }
  d_->runs_.erase(it);
}

bool LossChart::openGlAvailable() {
  static const bool available = [] {
    if (qEnvironmentVariableIsSet("PARITY_NO_OPENGL")) return false;
    // QOpenGLWidget needs a windowing platform; offscreen and minimal render raster only.
    const QString platform = QGuiApplication::platformName();
    if (platform == "offscreen" || platform == "minimal") return false;
    QOpenGLContext context;
    if (!context.create()) return false;
    QOffscreenSurface surface;
    surface.setFormat(context.format());
    surface.create();
    return surface.isValid() && context.makeCurrent(&surface);
  }();
  return available;
}

void LossChart::setAccelerated(bool on) {
  if (d_->accelerated_ == on) return;
  d_->accelerated_ = on;
  for (QAbstractSeries* s : d_->chart_->series()) {
    if (qobject_cast<QLineSeries*>(s)) s->setUseOpenGL(on);
  }
  scheduleRedraw();
}

void LossChart::addSeries(QAbstractSeries* series) {
  if (d_->accelerated_ && qobject_cast<QLineSeries*>(series)) series->setUseOpenGL(true);
  d_->chart_->addSeries(series);
  series->attachAxis(d_->axisX_);
  series->attachAxis(d_->axisY_);
}

void LossChart::syncRankSeries(RunSeries& rs) {
  std::vector<int> wanted;
  if (d_->showRanks_) {
    for (int rank : d_->store_.ranks(rs.info.id)) {
      if (rank >= 0) wanted.push_back(rank);
    }
  }
  for (auto it = rs.ranks.begin(); it != rs.ranks.end();) {
    if (std::find(wanted.begin(), wanted.end(), it->first) == wanted.end()) {
      d_->chart_->removeSeries(it->second);
      delete it->second;
      it = rs.ranks.erase(it);
    } else {
      ++it;
    }
  }
  bool added = false;
  for (int rank : wanted) {
    if (rs.ranks.count(rank)) continue;
    auto* s = new QLineSeries;
    s->setName(QString("%1 · rank %2").arg(rs.info.label).arg(rank));
    addSeries(s);
    rs.ranks[rank] = s;
    added = true;
  }
  if (added) styleSeries(rs);
}

void LossChart::setShowRanks(bool on) {
  if (d_->showRanks_ == on) return;
  d_->showRanks_ = on;
  for (RunSeries& rs : d_->runs_) syncRankSeries(rs);
  refresh();
  scheduleRedraw();
}

void LossChart::setSmoothing(double beta) {
  beta = std::clamp(beta, 0.0, 0.999);
  if (d_->beta_ == beta) return;
  d_->beta_ = beta;
  for (RunSeries& rs : d_->runs_) styleSeries(rs);
  scheduleRedraw();
}

void LossChart::refresh() {
  if (d_->loading_ != Loading::kIdle) {
    d_->loading_ = Loading::kFetchingThenAgain;  // asked again when this fetch is answered
    return;
  }
  CurveFetchRequest request;
  for (const RunSeries& rs : d_->runs_) {
    const qint64 id = rs.info.id;
    request.curves.push_back({id, -1, d_->store_.lastStep(id, -1)});
    if (d_->showRanks_) {
      for (int rank : d_->store_.ranks(id)) {
        if (rank >= 0) request.curves.push_back({id, rank, d_->store_.lastStep(id, rank)});
      }
    }
    // Ranks are listed until some are stored, and while a run may still be adding them.
    if (!d_->store_.ranksKnown(id) || d_->store_.ranks(id).empty() ||
        rs.info.status == storage::RunStatus::kQueued) {
      request.rankRuns.push_back(id);
    }
  }
  if (request.curves.empty() && request.rankRuns.empty()) return;
  d_->loading_ = Loading::kFetching;
  const quint64 token = d_->token_;
  d_->loader_.post(&CurveLoader::fetch, token, request);
}

void LossChart::onFetched(quint64 token, const CurveFetch& result) {
  if (token != d_->token_) return;  // stale: the database or the run set changed meanwhile
  bool again = d_->loading_ == Loading::kFetchingThenAgain;
  d_->loading_ = Loading::kIdle;
  d_->drawn_.caughtUp = result.chunks.empty();
  bool ranksGrew = false;
  for (const RankList& r : result.ranks) {
    ranksGrew |= d_->store_.ranks(r.runId) != r.ranks;
    d_->store_.setRanks(r.runId, r.ranks);
  }
  for (const CurveChunk& chunk : result.chunks)
    d_->store_.append(chunk.runId, chunk.rank, chunk.rows);
  if (ranksGrew && d_->showRanks_) {
    for (RunSeries& rs : d_->runs_) syncRankSeries(rs);
    again = true;  // the new ranks' rows are not loaded yet
  }
  if (!result.chunks.empty()) {
    d_->drawn_.rowsPending = true;
    scheduleRedraw();
  }
  if (again) {
    refresh();
  } else {
    // Rows may have landed between the poll and this fetch: catch up if the runs say so.
    bool behind = false;
    for (const RunSeries& rs : d_->runs_) {
      behind |= rs.info.stepsDone > d_->store_.lastStep(rs.info.id, -1) && !result.chunks.empty();
    }
    if (behind) refresh();
  }
}

bool LossChart::isSettled() const {
  if (d_->loading_ != Loading::kIdle || d_->drawn_.rowsPending || d_->redrawTimer_.isActive() ||
      d_->refineTimer_.isActive()) {
    return false;
  }
  // A run whose counter is ahead of its stored rows is caught up once a fetch finds nothing new.
  for (const RunSeries& rs : d_->runs_) {
    if (d_->store_.lastStep(rs.info.id, -1) < rs.info.stepsDone && !d_->drawn_.caughtUp)
      return false;
  }
  return true;
}

QStringList LossChart::runsOffAxis() const {
  QStringList off;
  for (const RunSeries& rs : d_->runs_) {
    const CurveSeries* s = d_->store_.find(rs.info.id, -1);
    if (!rs.hidden && s && !s->hasAxis(d_->xKind_)) off << rs.info.label;
  }
  return off;
}

std::vector<int> LossChart::drawnPointCounts() const {
  std::vector<int> counts;
  for (const RunSeries& rs : d_->runs_) counts.push_back(static_cast<int>(rs.main->count()));
  return counts;
}

int LossChart::badMarkerCount() const {
  int n = 0;
  for (const RunSeries& rs : d_->runs_) n += rs.bad->count();
  return n;
}

}  // namespace parity::ui
