#include <parity/plot/axis_ticks.h>

#include <algorithm>
#include <cmath>
#include <initializer_list>

namespace parity::plot {

double niceStep(double span, int ticks) {
  if (!(span > 0) || !std::isfinite(span)) return 1;
  const double raw = span / ticks;
  const double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
  const double r = raw / magnitude;
  return (r < 1.5 ? 1 : r < 3.5 ? 2 : r < 7.5 ? 5 : 10) * magnitude;
}

namespace {

/// m x 10^e for every mantissa m and decade e with the value in [lo, hi], ascending.
std::vector<double> decadeTicks(double lo, double hi, std::initializer_list<int> mantissas) {
  std::vector<double> ticks;
  const int first = static_cast<int>(std::floor(std::log10(lo)));
  const int last = static_cast<int>(std::ceil(std::log10(hi)));
  for (int e = first; e <= last; ++e) {
    for (int m : mantissas) {
      const double v = m * std::pow(10.0, e);
      if (v >= lo * (1 - 1e-12) && v <= hi * (1 + 1e-12)) ticks.push_back(v);
    }
  }
  return ticks;
}

double smallestGapPx(const std::vector<double>& ticks, double pxPerDecade) {
  double gap = pxPerDecade * 100;
  for (std::size_t i = 1; i < ticks.size(); ++i)
    gap = std::min(gap, std::log10(ticks[i] / ticks[i - 1]) * pxPerDecade);
  return gap;
}

std::vector<double> linearTicks(double lo, double hi, int count) {
  const double step = niceStep(hi - lo, count);
  std::vector<double> ticks;
  for (double k = std::ceil(lo / step - 1e-9); k * step <= hi * (1 + 1e-12); k += 1) {
    ticks.push_back(k * step);
  }
  return ticks;
}

}  // namespace

std::vector<double> logTicks(double lo, double hi, double heightPx, double minGapPx) {
  if (!(lo > 0) || !(hi > lo) || !std::isfinite(hi)) return {};
  const double pxPerDecade = heightPx / std::log10(hi / lo);
  std::vector<double> best;
  for (auto mantissas : {std::initializer_list<int>{1}, std::initializer_list<int>{1, 2, 5},
                         std::initializer_list<int>{1, 2, 3, 4, 5, 6, 7, 8, 9}}) {
    std::vector<double> ticks = decadeTicks(lo, hi, mantissas);
    if (ticks.size() > 1 && smallestGapPx(ticks, pxPerDecade) < minGapPx) break;
    if (ticks.size() > best.size()) best = std::move(ticks);
  }
  if (best.size() >= 3) return best;
  // A narrow range (or a short axis): round linear values, which a log axis shows just as well.
  const int count = std::clamp(static_cast<int>(heightPx / (2 * minGapPx)), 2, 6);
  std::vector<double> linear = linearTicks(lo, hi, count);
  return linear.size() >= best.size() ? linear : best;
}

}  // namespace parity::plot
