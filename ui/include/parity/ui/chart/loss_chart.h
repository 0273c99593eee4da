#pragma once
/// The loss chart's controller: owns the QChart, one set of series per drawn run, and a
/// CurveLoader in its own thread. Data arrives incrementally (rows after the last loaded step);
/// redraws are batched (at most one per kRedrawMs) and draw a per-pixel min/max decimation of the
/// stored series for the visible x range, pushed with QXYSeries::replace(). Zoom and pan
/// re-decimate from the full data instead of scaling stale points.
/// Its internals (series, caches, the loader thread) are private (loss_chart_p.h).
/// Thread affinity: UI thread; the loader's results come back through queued signals carrying a
/// token, and results with an old token (a database switch, a deleted run) are dropped.

#include <parity/plot/curve_store.h>
#include <parity/storage/run_status.h>

#include <QColor>
#include <QObject>
#include <QPen>
#include <QPointF>
#include <QString>
#include <map>
#include <memory>
#include <utility>
#include <vector>

QT_BEGIN_NAMESPACE
class QAbstractSeries;
class QChart;
QT_END_NAMESPACE

namespace parity::ui {

struct CurveFetch;

/// A run the chart should draw, as the runs table knows it.
struct ChartRun {
  qint64 id = 0;
  QString label;
  storage::RunStatus status = storage::RunStatus::kQueued;
  qint64 stepsDone = 0;
};

/// One entry of the chart's legend (drawn by ChartLegend, under the chart, so labels stay whole).
struct LegendEntry {
  qint64 runId = 0;  ///< 0 on a rank entry
  int rank = -1;     ///< >= 0: the line style every run's rank `rank` is drawn with
  QString label;
  QString note;  ///< e.g. "= #1 1x64": this run's curve coincides with run 1's
  QString toolTip;
  QPen pen;  ///< the line as drawn (colour, width, dash pattern)
  bool hidden = false;

  bool operator==(const LegendEntry& o) const {
    return runId == o.runId && rank == o.rank && label == o.label && note == o.note &&
           toolTip == o.toolTip && pen == o.pen && hidden == o.hidden;
  }
  bool operator!=(const LegendEntry& o) const { return !(*this == o); }
};

class LossChart : public QObject {
  Q_OBJECT
 public:
  static constexpr int kRedrawMs = 100;
  /// After the last zoom or pan step, the full-detail redraw waits this long.
  static constexpr int kRefineMs = 250;

  explicit LossChart(QObject* parent = nullptr);
  ~LossChart() override;

  QChart* chart() const;

  /// Drops everything loaded and reads from this file from now on.
  void openDatabase(const QString& path);
  /// The runs to draw (in legend order); fetches rows each run has beyond what is loaded.
  void setRuns(const std::vector<ChartRun>& runs);
  /// Forgets a run's loaded rows (it was deleted).
  void forgetRun(qint64 runId);

  void setXAxis(analysis::Axis kind);
  analysis::Axis xAxis() const;
  /// Labels of the runs shown that cannot be drawn against the x axis (samples seen, for an
  /// imported run whose setup is unknown): they are left off the plot, and the status says so.
  QStringList runsOffAxis() const;
  /// EMA weight in [0, 1): 0 draws the raw curve only; otherwise EMA over a faint raw curve.
  void setSmoothing(double beta);
  double smoothing() const;
  void setLogY(bool on);
  bool logY() const;
  void setShowRanks(bool on);
  bool showRanks() const;

  // Navigation, in chart (scene) pixel coordinates.
  void resetZoom();
  bool isZoomed() const;
  void zoomToPixels(const QRectF& rect);
  void panPixels(const QPointF& delta);
  void zoomAt(double factorX, double factorY, const QPointF& pixel);
  /// Draws the line series through OpenGL (Qt Charts' accelerated path: no per-point geometry on
  /// the CPU). Off by default; the window turns it on when an OpenGL context can be made.
  void setAccelerated(bool on);
  bool accelerated() const;
  /// Whether this process can create an OpenGL context (probed once).
  static bool openGlAvailable();
  /// Most points pushed to the chart per redraw (all lines together); columns get wider than a
  /// pixel when per-pixel decimation of every drawn line would exceed it. 0 = no limit.
  void setPointBudget(int points);
  int pointBudget() const;
  /// Visible ranges as last drawn.
  std::pair<double, double> xRange() const;
  std::pair<double, double> yRange() const;

  /// Asks the loader for new rows now (normally driven by setRuns).
  void refresh();
  /// Batches a redraw; redrawNow() draws at once (benchmarks, tests, interaction).
  void scheduleRedraw();
  void redrawNow();

  /// True when every drawn run's rows up to its stepsDone are loaded and drawn, and nothing is
  /// in flight. The --screenshot mode waits for this.
  bool isSettled() const;

  /// The loaded rows; tests and the benchmark fill it directly.
  plot::CurveStore& store();
  /// Points currently pushed to the main (legend) series of each drawn run, in run order.
  std::vector<int> drawnPointCounts() const;
  /// Non-finite loss markers currently shown, over all runs.
  int badMarkerCount() const;
  int redrawCount() const;
  /// Points pushed to all lines by the last redraw.
  int drawnPoints() const;
  /// The last redraw was a zoom or pan step's draft (fewer points, 1-px pens); the full detail
  /// follows once the gesture pauses.
  bool drawnAsDraft() const;
  /// One of 20 colours that stay apart from each other, by run id.
  static QColor colorFor(qint64 runId);
  static constexpr int kPaletteSize = 20;

  /// Hides (or shows again) a run's lines while keeping its legend entry, greyed; a click on the
  /// entry toggles it.
  void setRunHidden(qint64 runId, bool hidden);
  bool isRunHidden(qint64 runId) const;
  /// The legend as last drawn: one entry per run in run order, then (per-rank view) one per rank
  /// line style. legendChanged() says when it changed.
  const std::vector<LegendEntry>& legendEntries() const;
  /// Run ids whose curve coincides, on the current x axis, with an earlier run's: id -> that
  /// run's id (the first of its group). They are drawn dashed over it.
  std::map<qint64, qint64> identicalRuns() const;
  /// What the runs shown are at the x under a chart pixel: for each, the nearest step with its
  /// samples, loss and lr. Empty outside the plot area or with nothing drawn.
  QString describeAt(const QPointF& chartPixel) const;

 signals:
  void redrawn();
  void legendChanged();
  void fetchFailed(const QString& message);

 private:
  struct LineCache;
  enum class LineKind : int;
  struct Pending;
  struct Frame;
  struct RunSeries;
  class Interaction;
  struct Private;

  void onFetched(quint64 token, const CurveFetch& result);
  RunSeries& addRun(const ChartRun& run);
  void removeRun(qint64 runId);
  void addSeries(QAbstractSeries* series);
  void syncRankSeries(RunSeries& rs);
  void findIdenticalRuns();
  void updateLegend();
  void rebuildYAxis();
  void styleSeries(RunSeries& rs);
  void updateLegendNames();
  std::pair<double, double> dataXExtent() const;
  /// Keeps a zoomed or panned x range on the data: never before its first x (negative samples
  /// seen) nor past its last; a range as wide as the data is no x zoom.
  void keepZoomOnData();
  // redrawNow()'s steps, in order.
  int decimationColumns(double width) const;
  std::pair<double, double> visibleX() const;
  void reduceLines(Frame& frame);
  std::pair<double, double> visibleY(double ylo, double yhi) const;
  void pushPoints(const Frame& frame, double width, double height);
  void setLogTicks(double ylo, double yhi, double height);
  void placeBadMarkers(const Frame& frame);
  bool anyActive() const;
  /// Decimates (or reuses) one series for the visible x range; returns its cached points.
  LineCache& reduce(LineCache& cache, const analysis::Series& series,
                    const plot::MinMaxIndex* index, LineKind kind, double x0, double x1,
                    int columns);
  double toValueX(double px) const;
  double toValueY(double py) const;

  std::unique_ptr<Private> d_;
};

}  // namespace parity::ui
