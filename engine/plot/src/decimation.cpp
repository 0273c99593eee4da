#include <parity/plot/decimation.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

namespace parity::plot {

using analysis::Range;
using analysis::Series;

namespace {

void check_lengths(const Series& s, const char* what) {
  if (s.x.size() != s.y.size()) {
    throw PlotError(std::string(what) + ": series has " + std::to_string(s.x.size()) +
                    " x values but " + std::to_string(s.y.size()) + " y values");
  }
}

}  // namespace

void decimate_min_max(const Series& s, const DecimateOptions& options, Series& out) {
  check_lengths(s, "decimate_min_max");
  if (options.pixel_width < 1) {
    throw PlotError("decimate_min_max: pixel_width " + std::to_string(options.pixel_width) +
                    " is not allowed; use >= 1");
  }
  out.x.clear();
  out.y.clear();
  const Range range = options.x_range.empty() ? analysis::x_range(s) : options.x_range;
  if (s.empty() || range.empty()) return;
  const size_t n = s.size();
  const auto first =
      static_cast<size_t>(std::lower_bound(s.x.begin(), s.x.end(), range.lo) - s.x.begin());
  const auto end =
      static_cast<size_t>(std::upper_bound(s.x.begin(), s.x.end(), range.hi) - s.x.begin());
  const size_t pixels = static_cast<size_t>(options.pixel_width);
  out.x.reserve(4 * pixels + 2);
  out.y.reserve(4 * pixels + 2);
  auto push = [&](size_t i) {
    out.x.push_back(s.x[i]);
    out.y.push_back(s.y[i]);
  };
  // The last finite point before the range, so the line enters from the left edge.
  for (size_t i = first; i > 0; --i) {
    if (std::isfinite(s.y[i - 1])) {
      push(i - 1);
      break;
    }
  }
  const double scale = range.width() > 0 ? static_cast<double>(pixels) / range.width() : 0.0;
  size_t i = first;
  while (i < end) {
    const auto column = std::min(pixels - 1, static_cast<size_t>((s.x[i] - range.lo) * scale));
    // Points of one column are contiguous because x is sorted.
    size_t col_first = n, col_last = n, col_min = n, col_max = n;
    for (; i < end; ++i) {
      const auto c = std::min(pixels - 1, static_cast<size_t>((s.x[i] - range.lo) * scale));
      if (c != column) break;
      if (!std::isfinite(s.y[i])) continue;
      if (col_first == n) col_first = col_min = col_max = i;
      if (s.y[i] < s.y[col_min]) col_min = i;
      if (s.y[i] > s.y[col_max]) col_max = i;
      col_last = i;
    }
    if (col_first == n) continue;
    size_t picks[4] = {col_first, std::min(col_min, col_max), std::max(col_min, col_max), col_last};
    size_t previous = n;
    for (size_t p : picks) {
      if (p != previous) push(p);
      previous = p;
    }
  }
  // The first finite point after the range, so the line leaves through the right edge.
  for (size_t j = end; j < n; ++j) {
    if (std::isfinite(s.y[j])) {
      push(j);
      break;
    }
  }
}

MinMaxIndex::MinMaxIndex(const std::vector<double>& y) : finite_(1, 0) { extend(y); }

void MinMaxIndex::extend(const std::vector<double>& y) {
  if (y.size() < n_) {
    throw PlotError("MinMaxIndex::extend: " + std::to_string(y.size()) +
                    " points, fewer than the " + std::to_string(n_) + " it holds");
  }
  if (y.size() >= std::numeric_limits<uint32_t>::max()) {
    throw PlotError("MinMaxIndex: " + std::to_string(y.size()) + " points is more than it counts");
  }
  const size_t old = n_;
  if (y.size() == old) return;
  n_ = y.size();
  y_.insert(y_.end(), y.begin() + static_cast<std::ptrdiff_t>(old), y.end());
  finite_.resize(n_ + 1);
  for (size_t i = old; i < n_; ++i) finite_[i + 1] = finite_[i] + (std::isfinite(y_[i]) ? 1 : 0);
  // "None" is spelled n_: the blocks without a finite value move with it.
  for (std::vector<size_t>* v : {&block_min_, &block_max_})
    for (size_t& i : *v)
      if (i == old) i = n_;
  // The last partial block is scanned again with its new points, then the new blocks.
  const size_t first = old / kBlock, blocks = (n_ + kBlock - 1) / kBlock;
  block_min_.resize(blocks);
  block_max_.resize(blocks);
  block_min_y_.resize(blocks);
  block_max_y_.resize(blocks);
  for (size_t k = first; k < blocks; ++k) {
    block_min_[k] = block_max_[k] = n_;
    block_min_y_[k] = block_max_y_[k] = 0;
    scan(k * kBlock, std::min(n_, (k + 1) * kBlock), block_min_[k], block_min_y_[k], block_max_[k],
         block_max_y_[k]);
  }
}

// Leftmost finite min and max of y[a, b), merged into (min, min_y) and (max, max_y); an index of
// n_ means none yet. Points are visited left to right and only a strictly better one replaces
// the best, so ties keep the leftmost.
void MinMaxIndex::scan(size_t a, size_t b, size_t& min, double& min_y, size_t& max,
                       double& max_y) const {
  for (size_t i = a; i < b; ++i) {
    const double v = y_[i];
    if (!std::isfinite(v)) continue;
    if (min == n_ || v < min_y) {
      min = i;
      min_y = v;
    }
    if (max == n_ || v > max_y) {
      max = i;
      max_y = v;
    }
  }
}

void MinMaxIndex::argminmax(size_t a, size_t b, size_t& min, size_t& max) const {
  min = max = n_;
  double min_y = 0, max_y = 0;
  b = std::min(b, n_);
  if (a >= b) return;
  const size_t first_block = (a + kBlock - 1) / kBlock, end_block = b / kBlock;
  if (first_block >= end_block) {
    scan(a, b, min, min_y, max, max_y);
    return;
  }
  scan(a, first_block * kBlock, min, min_y, max, max_y);
  for (size_t k = first_block; k < end_block; ++k) {
    if (block_min_[k] != n_ && (min == n_ || block_min_y_[k] < min_y)) {
      min = block_min_[k];
      min_y = block_min_y_[k];
    }
    if (block_max_[k] != n_ && (max == n_ || block_max_y_[k] > max_y)) {
      max = block_max_[k];
      max_y = block_max_y_[k];
    }
  }
  scan(end_block * kBlock, b, min, min_y, max, max_y);
}

size_t MinMaxIndex::argmin(size_t a, size_t b) const {
  size_t min = n_, max = n_;
  argminmax(a, b, min, max);
  return min;
}

size_t MinMaxIndex::argmax(size_t a, size_t b) const {
  size_t min = n_, max = n_;
  argminmax(a, b, min, max);
  return max;
}

size_t MinMaxIndex::first_finite(size_t a, size_t b) const {
  b = std::min(b, n_);
  if (a < b && std::isfinite(y_[a])) return a;
  if (a >= b || finite_[b] == finite_[a]) return n_;
  // The first i in [a, b) with finite_[i + 1] > finite_[a].
  auto it = std::upper_bound(finite_.begin() + static_cast<long>(a) + 1,
                             finite_.begin() + static_cast<long>(b) + 1, finite_[a]);
  return static_cast<size_t>(it - finite_.begin()) - 1;
}

size_t MinMaxIndex::last_finite(size_t a, size_t b) const {
  b = std::min(b, n_);
  if (a < b && std::isfinite(y_[b - 1])) return b - 1;
  if (a >= b || finite_[b] == finite_[a]) return n_;
  // The last i in [a, b) with finite_[i] < finite_[b].
  auto it = std::lower_bound(finite_.begin() + static_cast<long>(a),
                             finite_.begin() + static_cast<long>(b) + 1, finite_[b]);
  return static_cast<size_t>(it - finite_.begin()) - 1;
}

void decimate_min_max(const Series& s, const MinMaxIndex& index, const DecimateOptions& options,
                      Series& out) {
  check_lengths(s, "decimate_min_max");
  if (index.size() != s.size()) {
    throw PlotError("decimate_min_max: the index covers " + std::to_string(index.size()) +
                    " points, the series has " + std::to_string(s.size()));
  }
  const Range range = options.x_range.empty() ? analysis::x_range(s) : options.x_range;
  const size_t pixels = static_cast<size_t>(std::max(1, options.pixel_width));
  const auto first =
      static_cast<size_t>(std::lower_bound(s.x.begin(), s.x.end(), range.lo) - s.x.begin());
  const auto end =
      static_cast<size_t>(std::upper_bound(s.x.begin(), s.x.end(), range.hi) - s.x.begin());
  // Few points per column: the plain scan is faster than binary searches.
  if (options.pixel_width < 1 || s.empty() || range.empty() || end - first <= 8 * pixels) {
    decimate_min_max(s, options, out);
    return;
  }
  out.x.clear();
  out.y.clear();
  const size_t n = s.size();
  auto push = [&](size_t i) {
    out.x.push_back(s.x[i]);
    out.y.push_back(s.y[i]);
  };
  if (first > 0) {
    const size_t before = index.last_finite(0, first);
    if (before < n) push(before);
  }
  const double scale = range.width() > 0 ? static_cast<double>(pixels) / range.width() : 0.0;
  // The same column arithmetic as the scan, so both cut the points identically.
  auto column_of = [&](size_t i) {
    return std::min(pixels - 1, static_cast<size_t>((s.x[i] - range.lo) * scale));
  };
  // Columns hold about this many points when x is evenly spaced: the search for a column's end
  // starts there and gallops out, a few steps instead of a binary search over the whole range.
  const size_t typical = std::max<size_t>(1, (end - first) / pixels);
  size_t i = first;
  while (i < end) {
    const size_t column = column_of(i);
    size_t lo = i + 1, hi = end;  // first index whose column is greater
    for (size_t step = typical; lo < hi;) {
      const size_t probe = std::min(hi, lo + step);
      if (probe == hi || column_of(probe) > column) {
        hi = probe;
        break;
      }
      lo = probe + 1;
      step *= 2;
    }
    while (lo < hi) {
      const size_t mid = lo + (hi - lo) / 2;
      if (column_of(mid) > column)
        hi = mid;
      else
        lo = mid + 1;
    }
    const size_t col_end = lo;
    const size_t col_first = index.first_finite(i, col_end);
    if (col_first < n) {
      size_t col_min = n, col_max = n;
      index.argminmax(i, col_end, col_min, col_max);
      const size_t col_last = index.last_finite(i, col_end);
      const size_t picks[4] = {col_first, std::min(col_min, col_max), std::max(col_min, col_max),
                               col_last};
      size_t previous = n;
      for (size_t p : picks) {
        if (p != previous) push(p);
        previous = p;
      }
    }
    i = col_end;
  }
  if (end < n) {
    const size_t after = index.first_finite(end, n);
    if (after < n) push(after);
  }
}

Series decimate_min_max(const Series& s, const DecimateOptions& options) {
  Series out;
  decimate_min_max(s, options, out);
  return out;
}

}  // namespace parity::plot
