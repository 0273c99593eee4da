#include <parity/analysis/curve_analysis.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

namespace parity::engine {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

void check_lengths(const Series& s, const char* what) {
  if (s.x.size() != s.y.size()) {
    throw AnalysisError(std::string(what) + ": series has " + std::to_string(s.x.size()) +
                        " x values but " + std::to_string(s.y.size()) + " y values");
  }
}

// Interpolates at x given hi = index of the first point with x_i > x (upper bound, >= 1 because
// x >= x[0]). At a repeated x the last point with that x wins (hi - 1).
double interpolate_between(const Series& s, size_t hi, double x) {
  const size_t lo = hi - 1;
  if (hi >= s.x.size() || s.x[lo] == x) return s.y[lo];
  const double x0 = s.x[lo], x1 = s.x[hi];
  const double t = (x - x0) / (x1 - x0);
  return s.y[lo] + t * (s.y[hi] - s.y[lo]);
}

}  // namespace

Range x_range(const Series& s) {
  if (s.empty()) return {};
  return {s.x.front(), s.x.back()};
}

Range overlap(const Range& a, const Range& b) {
  if (a.empty() || b.empty()) return {};
  return {std::max(a.lo, b.lo), std::min(a.hi, b.hi)};
}

Range overlap(const Series& a, const Series& b) { return overlap(x_range(a), x_range(b)); }

Resampled interpolate(const Series& s, const std::vector<double>& at) {
  check_lengths(s, "interpolate");
  Resampled out;
  out.y.assign(at.size(), kNaN);
  out.covered.assign(at.size(), false);
  const Range r = x_range(s);
  if (r.empty()) return out;
  // A cursor that only moves forward while `at` is non-decreasing: O(n + m) in the usual case,
  // a binary search when a point goes backwards.
  size_t hi = 0;
  double previous = -std::numeric_limits<double>::infinity();
  for (size_t i = 0; i < at.size(); ++i) {
    const double x = at[i];
    if (!r.contains(x)) continue;
    if (x < previous) {
      hi = static_cast<size_t>(std::upper_bound(s.x.begin(), s.x.end(), x) - s.x.begin());
    } else {
      while (hi < s.x.size() && s.x[hi] <= x) ++hi;
    }
    previous = x;
    out.y[i] = interpolate_between(s, hi, x);
    out.covered[i] = true;
    ++out.covered_count;
  }
  return out;
}

std::optional<double> interpolate_at(const Series& s, double x) {
  check_lengths(s, "interpolate_at");
  if (!x_range(s).contains(x)) return std::nullopt;
  const auto hi = static_cast<size_t>(std::upper_bound(s.x.begin(), s.x.end(), x) - s.x.begin());
  return interpolate_between(s, hi, x);
}

std::vector<double> ema(const std::vector<double>& y, const EmaOptions& options) {
  const double a = options.weight;
  if (!(a >= 0 && a < 1)) {
    throw AnalysisError("ema: weight " + std::to_string(a) +
                        " is not allowed; use 0 <= weight < 1");
  }
  std::vector<double> out(y.size());
  double value = 0;
  double decay = 1;  // a^t over the finite points seen
  for (size_t i = 0; i < y.size(); ++i) {
    if (!std::isfinite(y[i])) {
      out[i] = y[i];
      continue;
    }
    value = a * value + (1 - a) * y[i];
    decay *= a;
    out[i] = options.debias ? value / (1 - decay) : value;
  }
  return out;
}

Series ema(const Series& s, const EmaOptions& options) {
  check_lengths(s, "ema");
  return {s.x, ema(s.y, options)};
}

void decimate_min_max(const Series& s, const DecimateOptions& options, Series& out) {
  check_lengths(s, "decimate_min_max");
  if (options.pixel_width < 1) {
    throw AnalysisError("decimate_min_max: pixel_width " + std::to_string(options.pixel_width) +
                        " is not allowed; use >= 1");
  }
  out.x.clear();
  out.y.clear();
  const Range range = options.x_range.empty() ? x_range(s) : options.x_range;
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

namespace {

// Comparison keys: non-finite values never win a min or a max.
double min_key(const std::vector<double>& y, size_t i) {
  return i < y.size() && std::isfinite(y[i]) ? y[i] : std::numeric_limits<double>::infinity();
}
double max_key(const std::vector<double>& y, size_t i) {
  return i < y.size() && std::isfinite(y[i]) ? y[i] : -std::numeric_limits<double>::infinity();
}

}  // namespace

MinMaxIndex::MinMaxIndex(const std::vector<double>& y) : n_(y.size()), y_(y) {
  if (n_ >= std::numeric_limits<uint32_t>::max()) {
    throw AnalysisError("MinMaxIndex: " + std::to_string(n_) + " points is more than it indexes");
  }
  min_.assign(2 * n_, 0);
  max_.assign(2 * n_, 0);
  finite_.assign(n_ + 1, 0);
  for (size_t i = 0; i < n_; ++i) {
    min_[n_ + i] = max_[n_ + i] = static_cast<uint32_t>(i);
    finite_[i + 1] = finite_[i] + (std::isfinite(y[i]) ? 1 : 0);
  }
  // Node p covers its children 2p (left) and 2p+1 (right); ties keep the left one.
  for (size_t p = n_ - 1; n_ > 0 && p > 0; --p) {
    const uint32_t l = min_[2 * p], r = min_[2 * p + 1];
    min_[p] = min_key(y_, r) < min_key(y_, l) ? r : l;
    const uint32_t lx = max_[2 * p], rx = max_[2 * p + 1];
    max_[p] = max_key(y_, rx) > max_key(y_, lx) ? rx : lx;
  }
}

// Bottom-up query keeping a left and a right partial result, so that ties go to the leftmost
// index whatever n is (the combine is not commutative).
size_t MinMaxIndex::argmin(size_t a, size_t b) const {
  size_t left = n_, right = n_;
  for (size_t l = a + n_, r = std::min(b, n_) + n_; l < r; l /= 2, r /= 2) {
    if (l & 1) {
      const size_t c = min_[l++];
      if (left == n_ || min_key(y_, c) < min_key(y_, left)) left = c;
    }
    if (r & 1) {
      const size_t c = min_[--r];
      if (right == n_ || !(min_key(y_, right) < min_key(y_, c))) right = c;
    }
  }
  size_t best =
      left == n_ ? right : (right != n_ && min_key(y_, right) < min_key(y_, left) ? right : left);
  return best < n_ && std::isfinite(y_[best]) ? best : n_;
}

size_t MinMaxIndex::argmax(size_t a, size_t b) const {
  size_t left = n_, right = n_;
  for (size_t l = a + n_, r = std::min(b, n_) + n_; l < r; l /= 2, r /= 2) {
    if (l & 1) {
      const size_t c = max_[l++];
      if (left == n_ || max_key(y_, c) > max_key(y_, left)) left = c;
    }
    if (r & 1) {
      const size_t c = max_[--r];
      if (right == n_ || !(max_key(y_, right) > max_key(y_, c))) right = c;
    }
  }
  size_t best =
      left == n_ ? right : (right != n_ && max_key(y_, right) > max_key(y_, left) ? right : left);
  return best < n_ && std::isfinite(y_[best]) ? best : n_;
}

size_t MinMaxIndex::first_finite(size_t a, size_t b) const {
  b = std::min(b, n_);
  if (a >= b || finite_[b] == finite_[a]) return n_;
  // The first i in [a, b) with finite_[i + 1] > finite_[a].
  auto it = std::upper_bound(finite_.begin() + static_cast<long>(a) + 1,
                             finite_.begin() + static_cast<long>(b) + 1, finite_[a]);
  return static_cast<size_t>(it - finite_.begin()) - 1;
}

size_t MinMaxIndex::last_finite(size_t a, size_t b) const {
  b = std::min(b, n_);
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
    throw AnalysisError("decimate_min_max: the index covers " + std::to_string(index.size()) +
                        " points, the series has " + std::to_string(s.size()));
  }
  const Range range = options.x_range.empty() ? x_range(s) : options.x_range;
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
  size_t i = first;
  while (i < end) {
    const size_t column = column_of(i);
    size_t lo = i + 1, hi = end;  // first index whose column is greater
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
      const size_t col_min = index.argmin(i, col_end), col_max = index.argmax(i, col_end);
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

Band band(const std::vector<Series>& members, const BandOptions& options) {
  Band out;
  if (members.empty()) return out;
  for (const Series& m : members) check_lengths(m, "band");
  std::vector<double> grid;
  if (options.grid == BandGrid::kFirst) {
    grid = members.front().x;
  } else {
    for (const Series& m : members) grid.insert(grid.end(), m.x.begin(), m.x.end());
    std::sort(grid.begin(), grid.end());
    grid.erase(std::unique(grid.begin(), grid.end()), grid.end());
  }
  std::vector<Resampled> values;
  values.reserve(members.size());
  for (const Series& m : members) values.push_back(interpolate(m, grid));
  const int needed = options.common_range_only ? static_cast<int>(members.size()) : 1;
  for (size_t i = 0; i < grid.size(); ++i) {
    if (i > 0 && grid[i] == grid[i - 1]) continue;  // a repeated x of the first member
    double sum = 0, lo = std::numeric_limits<double>::infinity(), hi = -lo;
    int count = 0;
    for (const Resampled& v : values) {
      const double y = v.y[i];
      if (!v.covered[i] || !std::isfinite(y)) continue;
      sum += y;
      lo = std::min(lo, y);
      hi = std::max(hi, y);
      ++count;
    }
    if (count < needed) continue;
    out.x.push_back(grid[i]);
    out.mean.push_back(sum / count);
    out.lo.push_back(lo);
    out.hi.push_back(hi);
    out.count.push_back(count);
  }
  return out;
}

std::optional<double> first_crossing_position(const std::vector<double>& y, double target) {
  for (size_t i = 0; i < y.size(); ++i) {
    if (!std::isfinite(y[i]) || y[i] > target) continue;
    if (i == 0 || !std::isfinite(y[i - 1])) return static_cast<double>(i);
    // y[i-1] > target >= y[i]: the crossing lies between them.
    const double t = (y[i - 1] - target) / (y[i - 1] - y[i]);
    return static_cast<double>(i - 1) + t;
  }
  return std::nullopt;
}

double value_at_position(const std::vector<double>& v, double position) {
  if (v.empty()) throw AnalysisError("value_at_position: empty column");
  const double last = static_cast<double>(v.size() - 1);
  const double p = std::clamp(position, 0.0, last);
  const auto i = static_cast<size_t>(std::floor(p));
  if (i + 1 >= v.size()) return v.back();
  const double t = p - static_cast<double>(i);
  return t == 0 ? v[i] : v[i] + t * (v[i + 1] - v[i]);
}

std::optional<double> first_crossing(const Series& s, double target) {
  check_lengths(s, "first_crossing");
  const auto position = first_crossing_position(s.y, target);
  if (!position) return std::nullopt;
  return value_at_position(s.x, *position);
}

}  // namespace parity::engine
