#include <parity/ui/loss_chart.h>

#include <QCursor>
#include <QGuiApplication>
#include <QOffscreenSurface>
#include <QOpenGLContext>
#include <QSet>
#include <QToolTip>
#include <QtCharts/QChart>
#include <QtCharts/QLegend>
#include <QtCharts/QLegendMarker>
#include <QtCharts/QLineSeries>
#include <QtCharts/QLogValueAxis>
#include <QtCharts/QScatterSeries>
#include <QtCharts/QValueAxis>
#include <algorithm>

namespace parity::ui {

LossChart::LossChart(QObject* parent)
    : QObject(parent), chart_(new QChart), axisX_(new QValueAxis), loader_(new CurveLoader) {
  chart_->setAnimationOptions(QChart::NoAnimation);
  chart_->legend()->setAlignment(Qt::AlignBottom);
  chart_->legend()->setShowToolTips(true);
  chart_->setMargins(QMargins(6, 6, 6, 6));
  axisX_->setLabelFormat("%g");
  chart_->addAxis(axisX_, Qt::AlignBottom);
  rebuildYAxis();

  loader_->moveToThread(&loaderThread_);
  loaderThread_.setObjectName("parity-curves");
  connect(&loaderThread_, &QThread::finished, loader_, &QObject::deleteLater);
  connect(loader_, &CurveLoader::fetched, this, &LossChart::onFetched);
  connect(loader_, &CurveLoader::fetchFailed, this, [this](quint64 token, const QString& message) {
    if (token != token_) return;
    inFlight_ = false;
    emit fetchFailed(message);
  });
  loaderThread_.start();

  redrawTimer_.setSingleShot(true);
  redrawTimer_.setInterval(kRedrawMs);
  connect(&redrawTimer_, &QTimer::timeout, this, &LossChart::redrawNow);
  refineTimer_.setSingleShot(true);
  refineTimer_.setInterval(kRefineMs);
  connect(&refineTimer_, &QTimer::timeout, this, &LossChart::redrawNow);
  setXAxis(xKind_);
}

LossChart::~LossChart() {
  loader_->setLatestToken(~quint64{0});
  loaderThread_.quit();
  loaderThread_.wait();
  // The chart is usually owned by a view; when not, it is ours to delete.
  if (!chart_->parent() && !chart_->scene()) delete chart_;
}

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
  ++token_;
  loader_->setLatestToken(token_);
  inFlight_ = false;
  refreshPending_ = false;
  store_.clear();
  while (!runs_.empty()) removeRun(runs_.back().info.id);
  QMetaObject::invokeMethod(
      loader_, [l = loader_, path] { l->openDatabase(path); }, Qt::QueuedConnection);
  scheduleRedraw();
}

void LossChart::setRuns(const std::vector<ChartRun>& runs) {
  QSet<qint64> wanted;
  for (const ChartRun& r : runs) wanted.insert(r.id);
  bool changed = false;
  for (std::size_t i = runs_.size(); i-- > 0;) {
    if (!wanted.contains(runs_[i].info.id)) {
      removeRun(runs_[i].info.id);
      changed = true;
    }
  }
  bool needFetch = false;
  for (const ChartRun& r : runs) {
    auto it = std::find_if(runs_.begin(), runs_.end(),
                           [&](const RunSeries& rs) { return rs.info.id == r.id; });
    if (it == runs_.end()) {
      addRun(r);
      changed = true;
    } else if (it->info.label != r.label) {
      it->info = r;
      changed = true;
    } else {
      it->info = r;
    }
    needFetch |= r.stepsDone > store_.lastStep(r.id, -1) || !store_.ranksKnown(r.id);
    if (showRanks_) {
      for (int rank : store_.ranks(r.id)) {
        needFetch |= rank >= 0 && r.stepsDone > store_.lastStep(r.id, rank);
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
  ++token_;  // an answer in flight may hold the deleted run's rows
  loader_->setLatestToken(token_);
  inFlight_ = false;
  removeRun(runId);
  store_.removeRun(runId);
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
  addSeries(rs.raw, false);
  addSeries(rs.main, true);
  addSeries(rs.bad, false);
  const qint64 id = run.id;
  for (QLegendMarker* m : chart_->legend()->markers(rs.main)) {
    connect(m, &QLegendMarker::clicked, this, [this, id] { setRunHidden(id, !isRunHidden(id)); });
  }
  runs_.push_back(rs);
  styleSeries(runs_.back());
  syncRankSeries(runs_.back());
  return runs_.back();
}

void LossChart::removeRun(qint64 runId) {
  auto it = std::find_if(runs_.begin(), runs_.end(),
                         [&](const RunSeries& rs) { return rs.info.id == runId; });
  if (it == runs_.end()) return;
  std::vector<QAbstractSeries*> all = {it->raw, it->main, it->bad};
  for (auto& [rank, s] : it->ranks) all.push_back(s);
  for (QAbstractSeries* s : all) {
    chart_->removeSeries(s);
    delete s;
  }
  runs_.erase(it);
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
  if (accelerated_ == on) return;
  accelerated_ = on;
  for (QAbstractSeries* s : chart_->series()) {
    if (qobject_cast<QLineSeries*>(s)) s->setUseOpenGL(on);
  }
  scheduleRedraw();
}

void LossChart::addSeries(QAbstractSeries* series, bool inLegend) {
  if (accelerated_ && qobject_cast<QLineSeries*>(series)) series->setUseOpenGL(true);
  chart_->addSeries(series);
  series->attachAxis(axisX_);
  series->attachAxis(axisY_);
  if (!inLegend) hideFromLegend(series);
}

void LossChart::hideFromLegend(QAbstractSeries* series) {
  for (QLegendMarker* m : chart_->legend()->markers(series)) m->setVisible(false);
}

void LossChart::setRunHidden(qint64 runId, bool hidden) {
  for (RunSeries& rs : runs_) {
    if (rs.info.id != runId || rs.hidden == hidden) continue;
    rs.hidden = hidden;
    styleLegendEntry(rs);
    scheduleRedraw();
  }
}

bool LossChart::isRunHidden(qint64 runId) const {
  for (const RunSeries& rs : runs_) {
    if (rs.info.id == runId) return rs.hidden;
  }
  return false;
}

void LossChart::styleLegendEntry(RunSeries& rs) {
  const QColor grey(0x9e, 0x9e, 0x9e);
  for (QLegendMarker* m : chart_->legend()->markers(rs.main)) {
    m->setLabelBrush(rs.hidden ? QBrush(grey) : chart_->legend()->labelBrush());
    m->setBrush(rs.hidden ? QBrush(grey.lighter(130)) : QBrush(rs.color));
    m->setPen(rs.hidden ? QPen(grey) : QPen(rs.color));
  }
}

void LossChart::styleSeries(RunSeries& rs) {
  QColor faint = rs.color;
  faint.setAlpha(70);
  QPen rawPen(faint);
  rawPen.setWidthF(1.0);
  rs.raw->setPen(rawPen);
  QPen mainPen(rs.color);
  mainPen.setWidthF(beta_ > 0 ? 2.0 : 1.5);
  rs.main->setPen(mainPen);
  rs.raw->setVisible(beta_ > 0);
  hideFromLegend(rs.raw);  // showing a series shows its legend entry again
  rs.bad->setColor(rs.color);
  rs.bad->setBorderColor(QColor(0x9b, 0x00, 0x00));
  for (auto& [rank, s] : rs.ranks) {
    QColor c = rs.color.lighter(135);
    c.setAlpha(150);
    QPen pen(c);
    pen.setWidthF(1.0);
    pen.setStyle(Qt::DashLine);
    s->setPen(pen);
  }
}

void LossChart::syncRankSeries(RunSeries& rs) {
  std::vector<int> wanted;
  if (showRanks_) {
    for (int rank : store_.ranks(rs.info.id)) {
      if (rank >= 0) wanted.push_back(rank);
    }
  }
  for (auto it = rs.ranks.begin(); it != rs.ranks.end();) {
    if (std::find(wanted.begin(), wanted.end(), it->first) == wanted.end()) {
      chart_->removeSeries(it->second);
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
    addSeries(s, false);
    rs.ranks[rank] = s;
    added = true;
  }
  if (added) styleSeries(rs);
}

void LossChart::updateLegendNames() {
  QHash<QString, int> count;
  for (const RunSeries& rs : runs_) ++count[rs.info.label];
  for (RunSeries& rs : runs_) {
    const QString name = count[rs.info.label] > 1
                             ? QString("%1 (#%2)").arg(rs.info.label).arg(rs.info.id)
                             : rs.info.label;
    rs.main->setName(name);
    rs.raw->setName(name + tr(" (raw)"));
  }
}

void LossChart::setShowRanks(bool on) {
  if (showRanks_ == on) return;
  showRanks_ = on;
  for (RunSeries& rs : runs_) syncRankSeries(rs);
  refresh();
  scheduleRedraw();
}

void LossChart::setSmoothing(double beta) {
  beta = std::clamp(beta, 0.0, 0.999);
  if (beta_ == beta) return;
  beta_ = beta;
  for (RunSeries& rs : runs_) styleSeries(rs);
  scheduleRedraw();
}

void LossChart::refresh() {
  if (inFlight_) {
    refreshPending_ = true;
    return;
  }
  refreshPending_ = false;
  CurveFetchRequest request;
  for (const RunSeries& rs : runs_) {
    const qint64 id = rs.info.id;
    request.curves.push_back({id, -1, store_.lastStep(id, -1)});
    if (showRanks_) {
      for (int rank : store_.ranks(id)) {
        if (rank >= 0) request.curves.push_back({id, rank, store_.lastStep(id, rank)});
      }
    }
    // Ranks are listed until some are stored, and while a run may still be adding them.
    if (!store_.ranksKnown(id) || store_.ranks(id).empty() ||
        rs.info.status == storage::RunStatus::kQueued) {
      request.rankRuns.push_back(id);
    }
  }
  if (request.curves.empty() && request.rankRuns.empty()) return;
  inFlight_ = true;
  const quint64 token = token_;
  QMetaObject::invokeMethod(
      loader_, [l = loader_, token, request] { l->fetch(token, request); }, Qt::QueuedConnection);
}

void LossChart::onFetched(quint64 token, const CurveFetch& result) {
  if (token != token_) return;  // stale: the database or the run set changed meanwhile
  inFlight_ = false;
  lastFetchEmpty_ = result.chunks.empty();
  bool ranksGrew = false;
  for (const RankList& r : result.ranks) {
    ranksGrew |= store_.ranks(r.runId) != r.ranks;
    store_.setRanks(r.runId, r.ranks);
  }
  for (const CurveChunk& chunk : result.chunks) store_.append(chunk.runId, chunk.rank, chunk.rows);
  if (ranksGrew && showRanks_) {
    for (RunSeries& rs : runs_) syncRankSeries(rs);
    refreshPending_ = true;  // the new ranks' rows are not loaded yet
  }
  if (!result.chunks.empty()) {
    dirty_ = true;
    scheduleRedraw();
  }
  if (refreshPending_) {
    refresh();
  } else {
    // Rows may have landed between the poll and this fetch: catch up if the runs say so.
    bool behind = false;
    for (const RunSeries& rs : runs_) {
      behind |= rs.info.stepsDone > store_.lastStep(rs.info.id, -1) && !result.chunks.empty();
    }
    if (behind) refresh();
  }
}

bool LossChart::isSettled() const {
  if (inFlight_ || refreshPending_ || dirty_ || redrawTimer_.isActive() ||
      refineTimer_.isActive()) {
    return false;
  }
  // A run whose counter is ahead of its stored rows is caught up once a fetch finds nothing new.
  for (const RunSeries& rs : runs_) {
    if (store_.lastStep(rs.info.id, -1) < rs.info.stepsDone && !lastFetchEmpty_) return false;
  }
  return true;
}

std::vector<int> LossChart::drawnPointCounts() const {
  std::vector<int> counts;
  for (const RunSeries& rs : runs_) counts.push_back(static_cast<int>(rs.main->count()));
  return counts;
}

int LossChart::badMarkerCount() const {
  int n = 0;
  for (const RunSeries& rs : runs_) n += rs.bad->count();
  return n;
}

}  // namespace parity::ui
