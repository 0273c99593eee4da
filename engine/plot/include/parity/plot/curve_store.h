#pragma once
/// The loss series the chart has loaded, one per (run, rank), kept ready for the engine's
/// curve analysis (analysis::Series for the chosen x-axis, and its debiased EMA).
/// Thread affinity: UI thread only (the CurveLoader hands it rows through queued signals).

#include <parity/analysis/axis.h>
#include <parity/analysis/curve_analysis.h>
#include <parity/plot/decimation.h>
#include <parity/storage/database.h>

#include <cstdint>
#include <map>
#include <utility>
#include <vector>

namespace parity::plot {

/// One stored series. The four x columns are kept; `raw` pairs the loss with one of them.
struct CurveSeries {
  std::vector<double> step, samples, epoch, time;
  std::vector<double> lr;   ///< the lr each step used (shown on hover)
  analysis::Series raw;     ///< x = column(rawKind), y = loss
  analysis::Series smooth;  ///< x = raw.x, y = EMA of raw.y's first smoothState.size values
  std::vector<std::size_t> nonFinite;  ///< indices of NaN/inf losses, ascending
  analysis::Axis rawKind = analysis::Axis::kStep;
  analysis::Axis smoothKind = analysis::Axis::kStep;  ///< the x column smooth.x holds
  // The caches over y (the EMA, the two indexes) cover a prefix of the rows and are extended over
  // the rows appended since (rows are only appended); a new weight rebuilds the EMA's.
  double smoothBeta = -1;
  analysis::EmaState smoothState;  ///< where the EMA stopped
  MinMaxIndex rawIndex;            ///< over raw.y, for decimation at any zoom
  MinMaxIndex smoothIndex;         ///< over smooth.y
  double smoothIndexBeta = -1;
  int64_t lastStep = 0;

  std::size_t size() const { return raw.y.size(); }
  const std::vector<double>& column(analysis::Axis kind) const;
  /// Whether the series can be drawn against `kind`: not against samples seen when it has none
  /// (an imported run whose setup is unknown records 0 at every step: a vertical line at 0).
  bool hasAxis(analysis::Axis kind) const {
    return kind != analysis::Axis::kSamples || samples.empty() || samples.back() > 0;
  }
};

class CurveStore {
 public:
  /// Appends rows of one (run, rank), in step order; rows at or before lastStep are ignored.
  void append(int64_t runId, int rank, const std::vector<storage::StepRow>& rows);
  /// Null when nothing is loaded for that (run, rank).
  const CurveSeries* find(int64_t runId, int rank) const;
  int64_t lastStep(int64_t runId, int rank) const;
  /// The loss against `kind` (switching the stored x column if needed); null when not loaded.
  const analysis::Series* raw(int64_t runId, int rank, analysis::Axis kind);
  /// analysis::ema() of it (debiased) for `weight`, recomputed only when rows or weight changed.
  const analysis::Series* smoothed(int64_t runId, int rank, analysis::Axis kind, double weight);

  /// A MinMaxIndex over the series raw() (smooth = false) or smoothed() (true) last returned for
  /// (run, rank), rebuilt only when its values changed; null when not loaded.
  const MinMaxIndex* index(int64_t runId, int rank, bool smooth);
  void setRanks(int64_t runId, std::vector<int> ranks) { ranks_[runId] = std::move(ranks); }
  /// The ranks stored for a run (-1 first), as last reported by the loader.
  const std::vector<int>& ranks(int64_t runId) const;
  bool ranksKnown(int64_t runId) const { return ranks_.count(runId) > 0; }

  void removeRun(int64_t runId);
  void clear();
  std::size_t pointCount() const;

 private:
  CurveSeries* findMutable(int64_t runId, int rank);
  std::map<std::pair<int64_t, int>, CurveSeries> series_;
  std::map<int64_t, std::vector<int>> ranks_;
};

}  // namespace parity::plot
