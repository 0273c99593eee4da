#include <parity/ui/curve_overlap.h>

#include <algorithm>
#include <cmath>
#include <limits>

namespace parity::ui {

namespace {

void extendRange(const engine::Series& s, double& lo, double& hi) {
  for (double y : s.y) {
    if (!std::isfinite(y)) continue;
    lo = std::min(lo, y);
    hi = std::max(hi, y);
  }
}

bool sameX(double a, double b) {
  return std::abs(a - b) <= 1e-9 * std::max({1.0, std::abs(a), std::abs(b)});
}

}  // namespace

bool curvesCoincide(const engine::Series& a, const engine::Series& b,
                    const OverlapOptions& options) {
  if (a.empty() || b.empty()) return false;
  double lo = std::numeric_limits<double>::infinity(), hi = -lo;
  extendRange(a, lo, hi);
  extendRange(b, lo, hi);
  const double span = hi >= lo ? hi - lo : 0;
  const double tolerance = std::max(options.relTolerance * span, 1e-12);
  std::size_t i = 0, j = 0, common = 0;
  while (i < a.size() && j < b.size()) {
    if (sameX(a.x[i], b.x[j])) {
      const double ya = a.y[i], yb = b.y[j];
      const bool finiteA = std::isfinite(ya), finiteB = std::isfinite(yb);
      if (finiteA != finiteB) return false;
      if (finiteA && std::abs(ya - yb) > tolerance) return false;
      ++common;
      ++i;
      ++j;
    } else if (a.x[i] < b.x[j]) {
      ++i;
    } else {
      ++j;
    }
  }
  const double shorter = static_cast<double>(std::min(a.size(), b.size()));
  return common >= 2 && common >= options.minCommonFraction * shorter;
}

std::vector<int> identicalGroups(const std::vector<const engine::Series*>& curves,
                                 const OverlapOptions& options) {
  std::vector<int> group(curves.size(), -1);
  for (std::size_t i = 1; i < curves.size(); ++i) {
    if (!curves[i] || curves[i]->empty()) continue;
    for (std::size_t j = 0; j < i; ++j) {
      if (group[j] != -1 || !curves[j]) continue;  // compare with the first of each group only
      if (curvesCoincide(*curves[j], *curves[i], options)) {
        group[i] = static_cast<int>(j);
        break;
      }
    }
  }
  return group;
}

}  // namespace parity::ui
