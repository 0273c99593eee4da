#include <parity/ui/curve_overlap.h>
#include <parity/ui/loss_chart.h>

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

namespace {

/// Dash patterns (in pen widths) of the later runs of an identical group, so the first one's
/// solid line shows through their gaps.
QList<qreal> identicalDash(int k) {
  static const QList<qreal> kPatterns[] = {
      {5, 3}, {1, 2.5}, {7, 2, 1, 2}, {2, 5}, {9, 3, 1, 2, 1, 3}};
  return kPatterns[(k - 1) % 5];
}

/// One line style per rank, the same for every run, named in the legend's rank entries.
QList<qreal> rankDash(int rank) {
  static const QList<qreal> kPatterns[] = {{1, 2},  {4, 2}, {6, 2, 1, 2},  {6, 2, 1, 2, 1, 2},
                                           {10, 3}, {1, 5}, {12, 2, 4, 2}, {3, 3, 1, 3}};
  return kPatterns[rank % 8];
}

QPen rankPen(const QColor& color, int rank) {
  QPen pen(color);
  pen.setWidthF(1.0);
  pen.setDashPattern(rankDash(rank));
  return pen;
}

}  // namespace

LossChart::LossChart(QObject* parent) : QObject(parent), d_(std::make_unique<Private>()) {
  d_->chart_ = new QChart;
  d_->axisX_ = new QValueAxis;
  d_->loader_ = new CurveLoader;
  d_->chart_->setAnimationOptions(QChart::NoAnimation);
  // QLegend cuts labels to fit ("2x64 u…") and drops them all at 900 px: ChartLegend, a widget
  // under the chart, draws legendEntries() instead.
  d_->chart_->legend()->hide();
  d_->chart_->setMargins(QMargins(6, 6, 6, 6));
  d_->axisX_->setLabelFormat("%g");
  d_->chart_->addAxis(d_->axisX_, Qt::AlignBottom);
  rebuildYAxis();

  d_->loader_->moveToThread(&d_->loaderThread_);
  d_->loaderThread_.setObjectName("parity-curves");
  connect(&d_->loaderThread_, &QThread::finished, d_->loader_, &QObject::deleteLater);
  connect(d_->loader_, &CurveLoader::fetched, this, &LossChart::onFetched);
  connect(d_->loader_, &CurveLoader::fetchFailed, this,
          [this](quint64 token, const QString& message) {
            if (token != d_->token_) return;
            d_->inFlight_ = false;
            emit fetchFailed(message);
          });
  d_->loaderThread_.start();

  d_->redrawTimer_.setSingleShot(true);
  d_->redrawTimer_.setInterval(kRedrawMs);
  connect(&d_->redrawTimer_, &QTimer::timeout, this, &LossChart::redrawNow);
  d_->refineTimer_.setSingleShot(true);
  d_->refineTimer_.setInterval(kRefineMs);
  connect(&d_->refineTimer_, &QTimer::timeout, this, &LossChart::redrawNow);
  setXAxis(d_->xKind_);
}

LossChart::~LossChart() {
  d_->loader_->setLatestToken(~quint64{0});
  d_->loaderThread_.quit();
  d_->loaderThread_.wait();
  // The chart is usually owned by a view; when not, it is ours to delete.
  if (!d_->chart_->parent() && !d_->chart_->scene()) delete d_->chart_;
}

QChart* LossChart::chart() const { return d_->chart_; }
engine::Axis LossChart::xAxis() const { return d_->xKind_; }
double LossChart::smoothing() const { return d_->beta_; }
bool LossChart::logY() const { return d_->logY_; }
bool LossChart::showRanks() const { return d_->showRanks_; }
bool LossChart::isZoomed() const { return d_->zoomX_.has_value() || d_->zoomY_.has_value(); }
bool LossChart::accelerated() const { return d_->accelerated_; }
void LossChart::setPointBudget(int points) { d_->pointBudget_ = points > 0 ? points : (1 << 30); }
int LossChart::pointBudget() const { return d_->pointBudget_; }
void LossChart::setColumnPixels(double pixels) { d_->columnPixels_ = std::max(1.0, pixels); }
double LossChart::columnPixels() const { return d_->columnPixels_; }
std::pair<double, double> LossChart::xRange() const { return d_->shownX_; }
std::pair<double, double> LossChart::yRange() const {
  if (!d_->logY_) return d_->shownY_;
  return {std::pow(10.0, d_->shownY_.first), std::pow(10.0, d_->shownY_.second)};
}
CurveStore& LossChart::store() { return d_->store_; }
int LossChart::redrawCount() const { return d_->redraws_; }
int LossChart::drawnPoints() const { return d_->drawnPoints_; }

QColor LossChart::colorFor(qint64 runId) {
  // Tableau 10, then ten darker or more saturated hues that stay apart from them and from each
  // other (tests check every pair), so 20 runs never share a colour.
  static const QColor kPalette[kPaletteSize] = {
      QColor(0x1f, 0x77, 0xb4), QColor(0xff, 0x7f, 0x0e), QColor(0x2c, 0xa0, 0x2c),
      QColor(0xd6, 0x27, 0x28), QColor(0x94, 0x67, 0xbd), QColor(0x8c, 0x56, 0x4b),
      QColor(0xe3, 0x77, 0xc2), QColor(0x7f, 0x7f, 0x7f), QColor(0xbc, 0xbd, 0x22),
      QColor(0x17, 0xbe, 0xcf), QColor(0x39, 0x3b, 0x79), QColor(0x00, 0x5f, 0x3a),
      QColor(0x8c, 0x6d, 0x00), QColor(0x7b, 0x00, 0x2c), QColor(0xff, 0xc0, 0x00),
      QColor(0x00, 0x00, 0xd0), QColor(0x66, 0x00, 0x99), QColor(0x5a, 0xd0, 0x7a),
      QColor(0x30, 0x30, 0x30), QColor(0xff, 0x40, 0xa0)};
  const auto n = static_cast<qint64>(kPaletteSize);
  return kPalette[((runId - 1) % n + n) % n];
}

void LossChart::openDatabase(const QString& path) {
  ++d_->token_;
  d_->loader_->setLatestToken(d_->token_);
  d_->inFlight_ = false;
  d_->refreshPending_ = false;
  d_->store_.clear();
  while (!d_->runs_.empty()) removeRun(d_->runs_.back().info.id);
  QMetaObject::invokeMethod(
      d_->loader_, [l = d_->loader_, path] { l->openDatabase(path); }, Qt::QueuedConnection);
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
  d_->loader_->setLatestToken(d_->token_);
  d_->inFlight_ = false;
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

void LossChart::setRunHidden(qint64 runId, bool hidden) {
  for (RunSeries& rs : d_->runs_) {
    if (rs.info.id != runId || rs.hidden == hidden) continue;
    rs.hidden = hidden;
    updateLegend();
    scheduleRedraw();
  }
}

bool LossChart::isRunHidden(qint64 runId) const {
  for (const RunSeries& rs : d_->runs_) {
    if (rs.info.id == runId) return rs.hidden;
  }
  return false;
}

void LossChart::styleSeries(RunSeries& rs) {
  QColor faint = rs.color;
  faint.setAlpha(70);
  QPen rawPen(faint);
  rawPen.setWidthF(1.0);
  rs.raw->setPen(rawPen);
  QPen mainPen(rs.color);
  mainPen.setWidthF(d_->beta_ > 0 ? 2.0 : 1.5);
  if (rs.dash > 0) mainPen.setDashPattern(identicalDash(rs.dash));
  rs.main->setPen(mainPen);
  rs.raw->setVisible(d_->beta_ > 0);
  rs.bad->setColor(rs.color);
  rs.bad->setBorderColor(QColor(0x9b, 0x00, 0x00));
  for (auto& [rank, s] : rs.ranks) {
    QColor c = rs.color.lighter(135);
    c.setAlpha(170);
    s->setPen(rankPen(c, rank));
  }
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

void LossChart::updateLegendNames() {
  QHash<QString, int> count;
  for (const RunSeries& rs : d_->runs_) ++count[rs.info.label];
  for (RunSeries& rs : d_->runs_) {
    const QString name = count[rs.info.label] > 1
                             ? QString("%1 (#%2)").arg(rs.info.label).arg(rs.info.id)
                             : rs.info.label;
    rs.main->setName(name);
    rs.raw->setName(name + tr(" (raw)"));
  }
  updateLegend();
}

void LossChart::findIdenticalRuns() {
  std::vector<std::size_t> key = {static_cast<std::size_t>(d_->xKind_)};
  for (const RunSeries& rs : d_->runs_) {
    const CurveSeries* s = d_->store_.find(rs.info.id, -1);
    key.push_back(static_cast<std::size_t>(rs.info.id));
    key.push_back(s ? s->size() : 0);
  }
  if (key == d_->overlapKey_) return;
  d_->overlapKey_ = key;
  std::vector<const engine::Series*> curves;
  for (const RunSeries& rs : d_->runs_)
    curves.push_back(d_->store_.raw(rs.info.id, -1, d_->xKind_));
  const std::vector<int> group = identicalGroups(curves);
  std::map<int, int> membersSoFar;  // group head -> later members seen
  for (std::size_t i = 0; i < d_->runs_.size(); ++i) {
    RunSeries& rs = d_->runs_[i];
    const qint64 sameAs = group[i] >= 0 ? d_->runs_[group[i]].info.id : 0;
    const int dash = group[i] >= 0 ? ++membersSoFar[group[i]] : 0;
    if (rs.sameAs == sameAs && rs.dash == dash) continue;
    rs.sameAs = sameAs;
    rs.dash = dash;
    styleSeries(rs);
  }
}

std::map<qint64, qint64> LossChart::identicalRuns() const {
  std::map<qint64, qint64> same;
  for (const RunSeries& rs : d_->runs_) {
    if (rs.sameAs != 0) same[rs.info.id] = rs.sameAs;
  }
  return same;
}

const std::vector<LegendEntry>& LossChart::legendEntries() const { return d_->legend_; }

void LossChart::updateLegend() {
  std::vector<LegendEntry> entries;
  const QString axis =
      QCoreApplication::translate(engine::kAxisTrContext, engine::names(d_->xKind_).title);
  for (const RunSeries& rs : d_->runs_) {
    LegendEntry e;
    e.runId = rs.info.id;
    e.label = rs.main->name();
    e.pen = rs.main->pen();
    e.hidden = rs.hidden;
    e.toolTip = tr("Run #%1 %2").arg(rs.info.id).arg(rs.info.label);
    for (const RunSeries& other : d_->runs_) {
      if (other.info.id != rs.sameAs) continue;
      e.note = tr("= #%1 %2").arg(other.info.id).arg(other.info.label);
      e.toolTip += "\n" + tr("Identical to run #%1 (%2): the losses agree within 0.1 % of "
                             "their range wherever both have a point on the %3 axis. Drawn "
                             "dashed over it.")
                              .arg(other.info.id)
                              .arg(other.info.label, axis);
    }
    e.toolTip += "\n" + (rs.hidden ? tr("Click to show its lines") : tr("Click to hide its lines"));
    entries.push_back(e);
  }
  std::vector<int> ranks;
  for (const RunSeries& rs : d_->runs_) {
    for (const auto& [rank, s] : rs.ranks) ranks.push_back(rank);
  }
  std::sort(ranks.begin(), ranks.end());
  ranks.erase(std::unique(ranks.begin(), ranks.end()), ranks.end());
  for (int rank : ranks) {
    LegendEntry e;
    e.rank = rank;
    e.label = tr("rank %1").arg(rank);
    e.pen = rankPen(QColor(0x50, 0x50, 0x50), rank);
    e.pen.setWidthF(1.3);
    e.toolTip = tr("Each run's rank %1 local loss is drawn in the run's colour, lighter, with "
                   "this pattern")
                    .arg(rank);
    entries.push_back(e);
  }
  if (entries == d_->legend_) return;
  d_->legend_ = std::move(entries);
  emit legendChanged();
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
  if (d_->inFlight_) {
    d_->refreshPending_ = true;
    return;
  }
  d_->refreshPending_ = false;
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
  d_->inFlight_ = true;
  const quint64 token = d_->token_;
  QMetaObject::invokeMethod(
      d_->loader_, [l = d_->loader_, token, request] { l->fetch(token, request); },
      Qt::QueuedConnection);
}

void LossChart::onFetched(quint64 token, const CurveFetch& result) {
  if (token != d_->token_) return;  // stale: the database or the run set changed meanwhile
  d_->inFlight_ = false;
  d_->lastFetchEmpty_ = result.chunks.empty();
  bool ranksGrew = false;
  for (const RankList& r : result.ranks) {
    ranksGrew |= d_->store_.ranks(r.runId) != r.ranks;
    d_->store_.setRanks(r.runId, r.ranks);
  }
  for (const CurveChunk& chunk : result.chunks)
    d_->store_.append(chunk.runId, chunk.rank, chunk.rows);
  if (ranksGrew && d_->showRanks_) {
    for (RunSeries& rs : d_->runs_) syncRankSeries(rs);
    d_->refreshPending_ = true;  // the new ranks' rows are not loaded yet
  }
  if (!result.chunks.empty()) {
    d_->dirty_ = true;
    scheduleRedraw();
  }
  if (d_->refreshPending_) {
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
  if (d_->inFlight_ || d_->refreshPending_ || d_->dirty_ || d_->redrawTimer_.isActive() ||
      d_->refineTimer_.isActive()) {
    return false;
  }
  // A run whose counter is ahead of its stored rows is caught up once a fetch finds nothing new.
  for (const RunSeries& rs : d_->runs_) {
    if (d_->store_.lastStep(rs.info.id, -1) < rs.info.stepsDone && !d_->lastFetchEmpty_)
      return false;
  }
  return true;
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
