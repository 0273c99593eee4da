#pragma once
/// Per-pixel min/max decimation of a series for drawing (PlotJuggler's approach), and an index
/// that makes it cheap for long series drawn at many zoom levels. Drawing code, not
/// analysis: the full data stays in the store, only what one redraw shows is reduced.
/// Qt-free plain functions and a value class; callable from any thread.

#include <parity/analysis/curve_analysis.h>
#include <parity/plot/plot_error.h>

#include <cstddef>
#include <cstdint>
#include <vector>

namespace parity::plot {

struct DecimateOptions {
  analysis::Range x_range;  ///< visible range; empty = the series' whole range
  int pixel_width = 1;      ///< pixel columns across x_range (>= 1)
};

/// Per-pixel min/max decimation for drawing (PlotJuggler's approach): the visible range is cut into
/// pixel_width equal columns and each column with points keeps its first, min, max and last point,
/// in x order and without duplicates; non-finite y are skipped. The last point before the range
/// and the first point after it are kept too, so lines reach the edges. Output has at most
/// 4 * pixel_width + 2 points. One pass over the visible points (plus two binary searches);
/// `out` is cleared and reused so a redraw allocates nothing once it has grown.
/// Throws PlotError for mismatched lengths or pixel_width < 1.
void decimate_min_max(const analysis::Series& s, const DecimateOptions& options,
                      analysis::Series& out);

/// An index over a series' y that lets decimate_min_max visit each pixel column without reading
/// every point: leftmost argmin/argmax of the finite values over any index range, from the
/// minimum and maximum of each block of kBlock points (precomputed) plus at most two partial
/// blocks read point by point, and a prefix count of finite values. Everything it reads lies in
/// a few contiguous arrays, so a column costs a short sequential scan instead of a tree walk's
/// cache misses. Built in O(n) from y only, so one index serves every x-axis of the same rows.
/// Rebuild it when y's values change; extend() it when values are only appended.
class MinMaxIndex {
 public:
  static constexpr size_t kBlock = 64;

  MinMaxIndex() = default;
  explicit MinMaxIndex(const std::vector<double>& y);
  size_t size() const { return n_; }
  /// Takes in y's values past size() (y's first size() values must be those it was built
  /// from): the same index as MinMaxIndex(y), at the cost of the new values and the last
  /// partial block. Throws PlotError when y is shorter.
  void extend(const std::vector<double>& y);
  /// Leftmost index of the smallest / largest finite y in [a, b); size() when there is none.
  size_t argmin(size_t a, size_t b) const;
  size_t argmax(size_t a, size_t b) const;
  /// Both at once (one pass): what a decimation column needs.
  void argminmax(size_t a, size_t b, size_t& min, size_t& max) const;
  /// First / last index in [a, b) with a finite y; size() when there is none.
  size_t first_finite(size_t a, size_t b) const;
  size_t last_finite(size_t a, size_t b) const;

 private:
  void scan(size_t a, size_t b, size_t& min, double& min_y, size_t& max, double& max_y) const;
  size_t n_ = 0;
  std::vector<double> y_;
  // Per block: its leftmost argmin / argmax among finite values (n_ when none) and their y.
  std::vector<size_t> block_min_, block_max_;
  std::vector<double> block_min_y_, block_max_y_;
  std::vector<uint32_t> finite_;  // finite_[i] = finite values among y[0, i)
};

/// The same output as decimate_min_max(s, options, out), column by column through `index` (which
/// must have been built from s.y): O(columns x (kBlock + log n) + n / kBlock), for long series
/// drawn at many zoom levels.
void decimate_min_max(const analysis::Series& s, const MinMaxIndex& index,
                      const DecimateOptions& options, analysis::Series& out);
/// Allocating convenience form of decimate_min_max().
analysis::Series decimate_min_max(const analysis::Series& s, const DecimateOptions& options);

}  // namespace parity::plot
