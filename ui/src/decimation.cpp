#include <parity/ui/decimation.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

namespace parity::ui {

using engine::AnalysisError;
using engine::Range;
using engine::Series;

namespace {

void check_lengths(const Series& s, const char* what) {
  if (s.x.size() != s.y.size()) {
    throw AnalysisError(std::string(what) + ": series has " + std::to_string(s.x.size()) +
                        " x values but " + std::to_string(s.y.size()) + " y values");
  }
}

}  // namespace

void decimate_min_max(const Series& s, const DecimateOptions& options, Series& out) {
  check_lengths(s, "decimate_min_max");
  if (options.pixel_width < 1) {
    throw AnalysisError("decimate_min_max: pixel_width " + std::to_string(options.pixel_width) +
                        " is not allowed; use >= 1");
  }
  out.x.clear();
  out.y.clear();
  const Range range = options.x_range.empty() ? engine::x_range(s) : options.x_range;
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
  const Range range = options.x_range.empty() ? engine::x_range(s) : options.x_range;
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

}  // namespace parity::ui
