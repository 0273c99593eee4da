#pragma once
// Private to parity_ui: what LossChart is made of (the Qt Charts series and axes, the caches, the
// loader thread and the timers), so that its public header shows none of it.

#include <parity/ui/chart/curve_loader.h>
#include <parity/ui/chart/loss_chart.h>
#include <parity/ui/chart/plot_points.h>
#include <parity/ui/threads/worker_thread.h>

#include <QList>
#include <QPen>
#include <QPointF>
#include <QSizeF>
#include <QTimer>
#include <limits>
#include <map>
#include <optional>
#include <utility>
#include <vector>

QT_BEGIN_NAMESPACE
class QAbstractAxis;
class QLineSeries;
class QScatterSeries;
class QValueAxis;
QT_END_NAMESPACE

namespace parity::ui {

/// What a line's reduction depends on besides its values: it is redone when any of it changes.
struct LineView {
  double x0 = 0, x1 = 0, beta = -1;
  int columns = 0;
  analysis::Axis kind = analysis::Axis::kStep;
  bool logY = false;
  bool draft = false;  ///< reduced for a zoom or pan frame (fewer points)
  bool operator==(const LineView& o) const {
    return x0 == o.x0 && x1 == o.x1 && beta == o.beta && columns == o.columns && kind == o.kind &&
           logY == o.logY && draft == o.draft;
  }
};

/// What is drawn, against the rows read and the gesture: a redraw is due, or a run caught up.
struct DrawState {
  bool rowsPending = false;  ///< rows appended since the last redraw
  bool caughtUp = false;     ///< the last fetch found nothing new
  bool draftPens = false;    ///< lines styled for a gesture (styleSeries)
  bool draftFrame = false;   ///< the last frame was drawn coarser, for a gesture
};

/// A zoom or pan in progress (its frames are drawn coarser), or none.
enum class Gesture { kNone, kZooming, kPanning };
/// The curve loader: idle, fetching, or fetching with another fetch asked for meanwhile.
enum class Loading { kIdle, kFetching, kFetchingThenAgain };

/// One drawn line's last reduction, reused while its data (size) and view stay the same.
struct LossChart::LineCache {
  std::size_t size = 0;
  LineView view;
  QList<QPointF> points;  ///< decimated (and, for a faint line, collapsed), not yet simplified
  double ylo = 0, yhi = 0;
  QList<QPointF> simplified;  ///< a smooth line's points after simplifyInPixels
  PixelScale simplifiedFor{0, 0, 0, 0, false};
};
/// How a line is reduced for drawing.
enum class LossChart::LineKind : int { kExact, kFaint, kSmooth };
/// A line reduced for this frame, waiting for its points to be pushed.
struct LossChart::Pending {
  QLineSeries* series;
  LineCache* cache;
  LineKind kind;
};
/// One redraw: the visible ranges, the reduced lines and the non-finite markers' positions.
struct LossChart::Frame {
  double x0 = 0, x1 = 1;
  double ylo = std::numeric_limits<double>::infinity();
  double yhi = -std::numeric_limits<double>::infinity();
  int columns = 0;
  std::vector<Pending> pending;
  std::vector<QLineSeries*> empty;  ///< lines with nothing to show this frame
  std::vector<std::vector<double>> badByRun;
};

struct LossChart::RunSeries {
  ChartRun info;
  QColor color;
  QLineSeries* raw = nullptr;     ///< faint raw curve under the EMA
  QLineSeries* main = nullptr;    ///< EMA, or raw when smoothing is off; has the legend entry
  QScatterSeries* bad = nullptr;  ///< NaN/inf markers along the top edge
  QPen legendPen;                 ///< main's pen as the legend shows it (never the draft one)
  std::map<int, QLineSeries*> ranks;
  LineCache rawCache, mainCache;
  std::map<int, LineCache> rankCache;
  bool hidden = false;  ///< lines off, legend entry greyed (clicked in the legend)
  qint64 sameAs = 0;    ///< the earlier run whose curve this one's coincides with (0: none)
  int dash = 0;         ///< 0 solid; k: the k-th later member of its identical group
};

/// Marks a zoom or pan in progress: a coarser redraw now, a full one once the user pauses.
class LossChart::Interaction {
 public:
  Interaction(LossChart* chart, Gesture gesture);
  ~Interaction();

 private:
  LossChart* owner_;
};

struct LossChart::Private {
  QChart* chart_;
  QValueAxis* axisX_;
  QAbstractAxis* axisY_ = nullptr;
  std::vector<RunSeries> runs_;
  plot::CurveStore store_;
  analysis::Series decimated_;  ///< reused by every redraw so it allocates nothing once grown

  /// Reads the rows off the UI thread; its answers carry token_ (stale ones are dropped).
  WorkerThread<CurveLoader> loader_{QStringLiteral("parity-curves")};
  quint64 token_ = 1;
  // The chart's state: what the loader and the user are doing, rows not yet drawn, and the
  // pens' style (which follows the gesture at the next redraw).
  Loading loading_ = Loading::kIdle;
  Gesture gesture_ = Gesture::kNone;
  DrawState drawn_;
  QTimer redrawTimer_;
  QTimer refineTimer_;
  int redraws_ = 0;
  int drawnPoints_ = 0;

  int pointBudget_ = 40000;
  bool accelerated_ = false;
  analysis::Axis xKind_ = analysis::Axis::kSamples;
  double beta_ = 0.6;
  bool logY_ = false;
  bool showRanks_ = false;
  std::optional<std::pair<double, double>> zoomX_, zoomY_;
  /// On a log axis the points' y is log10(loss) and the y axis a QCategoryAxis labelled at
  /// round losses, so zoomY_ and shownY_ are in log10 units then.
  std::pair<double, double> shownX_{0, 1}, shownY_{0, 1};
  QSizeF shownSize_;  ///< the plot's size the ticks were laid out for
  /// What the identical-curve check last saw (each run's size, the axis): it reruns on change.
  std::vector<std::size_t> overlapKey_;
  std::vector<LegendEntry> legend_;
};

}  // namespace parity::ui
