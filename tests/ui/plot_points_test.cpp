#include <gtest/gtest.h>
#include <parity/ui/chart/plot_points.h>

#include <cmath>

namespace parity::ui {
namespace {

TEST(PlotPoints, CollapseKeepsEachColumnsMinAndMaxInOrder) {
  analysis::Series d;
  d.x = {0.1, 0.2, 0.3, 0.4, 1.1, 1.5};
  d.y = {5, 1, 9, 4, 3, 3};
  QList<QPointF> out;
  collapseToMinMax(d, 0, 1, false, out);
  ASSERT_EQ(out.size(), 3);
  EXPECT_EQ(out[0], QPointF(0.2, 1));
  EXPECT_EQ(out[1], QPointF(0.3, 9));
  EXPECT_EQ(out[2].x(), 1.1);
}

TEST(PlotPoints, SimplifyDropsWhatAPixelCannotShow) {
  QList<QPointF> line;
  for (int i = 0; i <= 1000; ++i) line.append(QPointF(i, 2.0 * i));  // straight
  simplifyInPixels(line, PixelScale{0, 1, 0, 1, false}, 0.5);
  EXPECT_EQ(line.size(), 2);

  QList<QPointF> curve;
  for (int i = 0; i <= 1000; ++i) curve.append(QPointF(i, 300 * std::exp(-i / 200.0)));
  const QList<QPointF> original = curve;
  simplifyInPixels(curve, PixelScale{0, 1, 0, 1, false}, 0.3);
  EXPECT_LT(curve.size(), 120);
  EXPECT_EQ(curve.front(), original.front());
  EXPECT_EQ(curve.back(), original.back());
  // Every dropped point stays within the tolerance of the kept polyline.
  qsizetype k = 0;
  for (const QPointF& p : original) {
    while (k + 1 < curve.size() && curve[k + 1].x() < p.x()) ++k;
    const QPointF a = curve[k], b = curve[std::min(k + 1, curve.size() - 1)];
    const double t = b.x() == a.x() ? 0 : (p.x() - a.x()) / (b.x() - a.x());
    EXPECT_LE(std::abs(a.y() + t * (b.y() - a.y()) - p.y()), 0.31) << p.x();
  }
}

TEST(PlotPoints, LogAxisDropsNonPositive) {
  analysis::Series d;
  d.x = {1, 2, 3};
  d.y = {0.5, 0, -1};
  QList<QPointF> out;
  appendPoints(d, true, out);
  EXPECT_EQ(out.size(), 1);
}

}  // namespace
}  // namespace parity::ui
