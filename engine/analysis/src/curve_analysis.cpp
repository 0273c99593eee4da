#include <parity/analysis/curve_analysis.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

namespace parity::analysis {
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
  }
  return out;
}

void ema_extend(const std::vector<double>& y, const EmaOptions& options, EmaState& state,
                std::vector<double>& out) {
  const double a = options.weight;
  if (!(a >= 0 && a < 1)) {
    throw AnalysisError("ema: weight " + std::to_string(a) +
                        " is not allowed; use 0 <= weight < 1");
  }
  if (y.size() < state.size || out.size() != state.size) {
    throw AnalysisError("ema_extend: " + std::to_string(state.size) +
                        " values folded in, but y has " + std::to_string(y.size()) + " and out " +
                        std::to_string(out.size()));
  }
  out.resize(y.size());
  double value = state.value;
  double decay = state.decay;
  for (size_t i = state.size; i < y.size(); ++i) {
    if (!std::isfinite(y[i])) {
      out[i] = y[i];
      continue;
    }
    value = a * value + (1 - a) * y[i];
    decay *= a;
    out[i] = options.debias ? value / (1 - decay) : value;
  }
  state = EmaState{y.size(), value, decay};
}

std::vector<double> ema(const std::vector<double>& y, const EmaOptions& options) {
  std::vector<double> out;
  EmaState state;
  ema_extend(y, options, state, out);
  return out;
}

Series ema(const Series& s, const EmaOptions& options) {
  check_lengths(s, "ema");
  return {s.x, ema(s.y, options)};
}

Band band(const std::vector<Series>& members) {
  Band out;
  if (members.empty()) return out;
  for (const Series& m : members) check_lengths(m, "band");
  const std::vector<double>& grid = members.front().x;
  std::vector<Resampled> values;
  values.reserve(members.size());
  for (const Series& m : members) values.push_back(interpolate(m, grid));
  const int needed = static_cast<int>(members.size());
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

}  // namespace parity::analysis
