#include <parity/ui/chart/plot_points.h>

#include <cmath>
#include <utility>
#include <vector>

namespace parity::ui {

void appendPoints(const analysis::Series& d, bool positiveOnly, QList<QPointF>& out) {
  out.reserve(out.size() + static_cast<qsizetype>(d.size()));
  for (std::size_t i = 0; i < d.size(); ++i) {
    if (positiveOnly && !(d.y[i] > 0)) continue;
    out.append(QPointF(d.x[i], d.y[i]));
  }
}

void collapseToMinMax(const analysis::Series& d, double x0, double columnWidth, bool positiveOnly,
                      QList<QPointF>& out) {
  std::size_t i = 0;
  const std::size_t n = d.size();
  while (i < n) {
    const double column = std::floor((d.x[i] - x0) / columnWidth);
    std::size_t lo = n, hi = n;
    for (; i < n && std::floor((d.x[i] - x0) / columnWidth) == column; ++i) {
      if (positiveOnly && !(d.y[i] > 0)) continue;
      if (lo == n || d.y[i] < d.y[lo]) lo = i;
      if (hi == n || d.y[i] > d.y[hi]) hi = i;
    }
    if (lo == n) continue;
    const std::size_t a = std::min(lo, hi), b = std::max(lo, hi);
    out.append(QPointF(d.x[a], d.y[a]));
    if (b != a) out.append(QPointF(d.x[b], d.y[b]));
  }
}

void simplifyInPixels(QList<QPointF>& points, const PixelScale& s, double tolerancePx) {
  const qsizetype n = points.size();
  if (n < 3) return;
  std::vector<double> px(n), py(n);
  for (qsizetype i = 0; i < n; ++i) {
    px[i] = (points[i].x() - s.x0) / s.xPerPixel;
    const double y = s.logY ? std::log10(points[i].y()) : points[i].y();
    py[i] = (y - s.y0) / s.yPerPixel;
  }
  std::vector<char> keep(n, 0);
  keep[0] = keep[n - 1] = 1;
  std::vector<std::pair<qsizetype, qsizetype>> stack = {{0, n - 1}};
  const double tol2 = tolerancePx * tolerancePx;
  while (!stack.empty()) {
    const auto [a, b] = stack.back();
    stack.pop_back();
    const double dx = px[b] - px[a], dy = py[b] - py[a];
    const double len2 = dx * dx + dy * dy;
    double worst = -1;
    qsizetype at = -1;
    for (qsizetype i = a + 1; i < b; ++i) {
      // Squared distance from point i to the segment a-b.
      double t = len2 > 0 ? ((px[i] - px[a]) * dx + (py[i] - py[a]) * dy) / len2 : 0;
      t = t < 0 ? 0 : (t > 1 ? 1 : t);
      const double ex = px[a] + t * dx - px[i], ey = py[a] + t * dy - py[i];
      const double d2 = ex * ex + ey * ey;
      if (d2 > worst) {
        worst = d2;
        at = i;
      }
    }
    if (at >= 0 && worst > tol2) {
      keep[at] = 1;
      stack.push_back({a, at});
      stack.push_back({at, b});
    }
  }
  QList<QPointF> kept;
  kept.reserve(n / 4);
  for (qsizetype i = 0; i < n; ++i) {
    if (keep[i]) kept.append(points[i]);
  }
  points = std::move(kept);
}

}  // namespace parity::ui
