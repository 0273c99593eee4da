#pragma once
/// Curve analysis on plain vectors: interpolation and overlap, debiased EMA smoothing, seed bands
/// and target crossings. Torch-free, Qt-free and storage-free; shared by the verdict, the CLI and
/// the window's charts (whose per-pixel decimation is drawing code: parity/plot/decimation.h).
///
/// A Series is y against x with x non-decreasing (step, samples seen, epoch or wall time all are);
/// every function here assumes that order and does not sort.

#include <parity/analysis/analysis_error.h>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <vector>

namespace parity::analysis {

/// y against x; x.size() == y.size(), x non-decreasing.
struct Series {
  std::vector<double> x, y;

  size_t size() const { return x.size(); }
  bool empty() const { return x.empty(); }
};

/// A closed interval [lo, hi]; empty when lo > hi (or either is NaN). The default is empty.
struct Range {
  double lo = 1;
  double hi = 0;

  bool empty() const { return !(lo <= hi); }
  double width() const { return empty() ? 0.0 : hi - lo; }
  bool contains(double v) const { return lo <= v && v <= hi; }
};

/// [first x, last x] of the series; empty for an empty series.
Range x_range(const Series& s);
/// Intersection of two ranges (empty when they do not meet).
Range overlap(const Range& a, const Range& b);

/// Values of a series at given x points.
struct Resampled {
  std::vector<double> y;      ///< NaN where not covered
  std::vector<bool> covered;  ///< at[i] lies inside the series' x range
};

/// Linear interpolation of `s` at each of `at` (any order; fastest when non-decreasing). No
/// extrapolation: points outside [first x, last x] are reported as not covered. At an x that the
/// series repeats, the last point with that x wins. A NaN y stays NaN in its neighbourhood only.
/// Throws AnalysisError when s.x and s.y differ in length.
Resampled interpolate(const Series& s, const std::vector<double>& at);

struct EmaOptions {
  double weight = 0.6;  ///< smoothing weight a in [0, 1); 0 = no smoothing
  bool debias = true;   ///< divide by 1 - a^t so the start is not pulled towards 0
};

/// Exponential moving average as TensorBoard and W&B draw it: ema_t = a*ema_{t-1} + (1-a)*y_t,
/// shown as ema_t / (1 - a^t) when debiased, t counting the finite points seen so far.
/// Non-finite points pass through unchanged and are not folded into the average, so one NaN does
/// not poison the rest of the curve. Throws AnalysisError for a weight outside [0, 1).
std::vector<double> ema(const std::vector<double>& y, const EmaOptions& options = {});
/// ema() of s.y, x unchanged.
Series ema(const Series& s, const EmaOptions& options = {});

/// Where an ema() stopped: enough to continue it over values appended later.
struct EmaState {
  std::size_t size = 0;  ///< values of y folded in so far (out holds as many)
  double value = 0;      ///< the undebiased average
  double decay = 1;      ///< a^t over the finite points seen
};
/// Extends `out` (ema() of y's first state.size values) over y's values past them: the same
/// numbers ema(y) gives, computed in the same order, so a growing live curve costs only its new
/// points. Throws AnalysisError for a weight outside [0, 1) or a y shorter than state.size.
void ema_extend(const std::vector<double>& y, const EmaOptions& options, EmaState& state,
                std::vector<double>& out);

/// Mean curve with a min-max band over several series (e.g. one setup run with several seeds).
struct Band {
  std::vector<double> x, mean, lo, hi;
};

/// The band at the first member's x points where every member is defined and finite (members
/// are interpolated there, no extrapolation). Empty input gives an empty band.
Band band(const std::vector<Series>& members);

/// Where a curve first reaches a target: a fractional index t (point floor(t), a share t-floor(t)
/// of the way to the next), so the same crossing can be read on any parallel column (samples,
/// time) with value_at_position(). The first point at or below `target` crosses; between it and
/// the point before (above target) the crossing is interpolated linearly. nullopt when it never
/// does. Non-finite points never cross.
std::optional<double> first_crossing_position(const std::vector<double>& y, double target);
/// Linear interpolation of v at a fractional index (clamped to v's range). v must be non-empty.
double value_at_position(const std::vector<double>& v, double position);

}  // namespace parity::analysis
