#pragma once
/// Curve analysis on plain vectors: interpolation and overlap, debiased EMA smoothing, per-pixel
/// min/max decimation for drawing, seed bands and target crossings. Torch-free, Qt-free and
/// storage-free; shared by the verdict, the CLI and the window's charts.
///
/// A Series is y against x with x non-decreasing (step, samples seen, epoch or wall time all are);
/// every function here assumes that order and does not sort.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <vector>

namespace parity::engine {

/// A bad argument to an analysis function (mismatched lengths, a weight out of range, ...).
/// what() names the argument and its value.
class AnalysisError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

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
/// Intersection of the x ranges of both series.
Range overlap(const Series& a, const Series& b);

/// Values of a series at given x points.
struct Resampled {
  std::vector<double> y;      ///< NaN where not covered
  std::vector<bool> covered;  ///< at[i] lies inside the series' x range
  size_t covered_count = 0;
};

/// Linear interpolation of `s` at each of `at` (any order; fastest when non-decreasing). No
/// extrapolation: points outside [first x, last x] are reported as not covered. At an x that the
/// series repeats, the last point with that x wins. A NaN y stays NaN in its neighbourhood only.
/// Throws AnalysisError when s.x and s.y differ in length.
Resampled interpolate(const Series& s, const std::vector<double>& at);
/// One point of interpolate(); nullopt when x is outside the series' range or s is empty.
std::optional<double> interpolate_at(const Series& s, double x);

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

struct DecimateOptions {
  Range x_range;        ///< visible range; empty = the series' whole range
  int pixel_width = 1;  ///< pixel columns across x_range (>= 1)
};

/// Per-pixel min/max decimation for drawing (PlotJuggler's approach): the visible range is cut into
/// pixel_width equal columns and each column with points keeps its first, min, max and last point,
/// in x order and without duplicates; non-finite y are skipped. The last point before the range
/// and the first point after it are kept too, so lines reach the edges. Output has at most
/// 4 * pixel_width + 2 points. One pass over the visible points (plus two binary searches);
/// `out` is cleared and reused so a redraw allocates nothing once it has grown.
/// Throws AnalysisError for mismatched lengths or pixel_width < 1.
void decimate_min_max(const Series& s, const DecimateOptions& options, Series& out);

/// An index over a series' y that lets decimate_min_max visit each pixel column in O(log n)
/// instead of every point: leftmost argmin/argmax of the finite values over any index range (a
/// segment tree of 32-bit indices) and a prefix count of finite values. Built in O(n) from y only,
/// so one index serves every x-axis of the same rows. Rebuild it when y changes.
class MinMaxIndex {
 public:
  MinMaxIndex() = default;
  explicit MinMaxIndex(const std::vector<double>& y);
  size_t size() const { return n_; }
  /// Leftmost index of the smallest / largest finite y in [a, b); size() when there is none.
  size_t argmin(size_t a, size_t b) const;
  size_t argmax(size_t a, size_t b) const;
  /// First / last index in [a, b) with a finite y; size() when there is none.
  size_t first_finite(size_t a, size_t b) const;
  size_t last_finite(size_t a, size_t b) const;

 private:
  size_t n_ = 0;
  std::vector<double> y_;
  std::vector<uint32_t> min_, max_;  // tree nodes [1, 2n): leaves at [n, 2n)
  std::vector<uint32_t> finite_;     // finite_[i] = finite values among y[0, i)
};

/// The same output as decimate_min_max(s, options, out), column by column through `index` (which
/// must have been built from s.y): O(columns x log n), for long series drawn at many zoom levels.
void decimate_min_max(const Series& s, const MinMaxIndex& index, const DecimateOptions& options,
                      Series& out);
/// Allocating convenience form of decimate_min_max().
Series decimate_min_max(const Series& s, const DecimateOptions& options);

/// How a band chooses the x points it is computed at.
enum class BandGrid {
  kFirst,  ///< the first member's x points
  kUnion,  ///< the sorted union of every member's x points
};

struct BandOptions {
  BandGrid grid = BandGrid::kFirst;
  /// true: only x points every member covers (mean of all members); false: any point at least
  /// one member covers, over the members that cover it.
  bool common_range_only = true;
};

/// Mean curve with a min-max band over several series (e.g. one setup run with several seeds).
struct Band {
  std::vector<double> x, mean, lo, hi;
  std::vector<int> count;  ///< members that cover each point (and are finite there)
};

/// Members are interpolated onto the grid (no extrapolation). Empty input gives an empty band.
Band band(const std::vector<Series>& members, const BandOptions& options = {});

/// Where a curve first reaches a target: a fractional index t (point floor(t), a share t-floor(t)
/// of the way to the next), so the same crossing can be read on any parallel column (samples,
/// time) with value_at_position(). The first point at or below `target` crosses; between it and
/// the point before (above target) the crossing is interpolated linearly. nullopt when it never
/// does. Non-finite points never cross.
std::optional<double> first_crossing_position(const std::vector<double>& y, double target);
/// Linear interpolation of v at a fractional index (clamped to v's range). v must be non-empty.
double value_at_position(const std::vector<double>& v, double position);
/// x at which s first reaches y <= target (interpolated), or nullopt.
std::optional<double> first_crossing(const Series& s, double target);

}  // namespace parity::engine
