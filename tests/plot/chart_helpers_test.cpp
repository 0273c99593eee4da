// The chart's plain helpers: log-axis ticks and the identical-curve check.
#include <gtest/gtest.h>
#include <parity/plot/axis_ticks.h>
#include <parity/plot/curve_overlap.h>

#include <cmath>

namespace parity::plot {
namespace {

analysis::Series curve(int n, int stride, double scale = 1.0) {
  analysis::Series s;
  for (int i = 1; i <= n; ++i) {
    s.x.push_back(i * stride);
    s.y.push_back(scale * (0.3 + 2.0 / std::sqrt(i)));
  }
  return s;
}

TEST(LogTicks, RoundLossesOverAFactorOfSeven) {
  // The 0.35-2.3 on a 350 px axis: every tenth of a decade that fits.
  const std::vector<double> ticks = logTicks(0.35, 2.3, 350);
  ASSERT_GE(ticks.size(), 4u);
  auto has = [&](double v) {
    for (double t : ticks) {
      if (std::abs(t - v) < 1e-9) return true;
    }
    return false;
  };
  EXPECT_TRUE(has(0.5));
  EXPECT_TRUE(has(1));
  EXPECT_TRUE(has(2));
  for (double t : ticks) {
    EXPECT_GE(t, 0.35);
    EXPECT_LE(t, 2.3);
  }
  // On a short axis the ticks thin out to 1-2-5 instead of overlapping.
  EXPECT_EQ(logTicks(0.35, 2.3, 120), (std::vector<double>{0.5, 1, 2}));
}

TEST(LogTicks, ManyDecadesGetPowersOfTenAndANarrowRangeLinearSteps) {
  EXPECT_EQ(logTicks(1e-4, 10, 200), (std::vector<double>{1e-4, 1e-3, 1e-2, 1e-1, 1, 10}));
  const std::vector<double> narrow = logTicks(0.31, 0.44, 400);
  ASSERT_GE(narrow.size(), 2u);
  for (double t : narrow) {
    EXPECT_GE(t, 0.31);
    EXPECT_LE(t, 0.44);
  }
  EXPECT_TRUE(logTicks(0, 1, 100).empty());
}

TEST(CurveOverlap, IdenticalWithinATinyToleranceOverTheCommonPoints) {
  const analysis::Series a = curve(300, 64);
  analysis::Series b = curve(150, 64);  // a run still going: a prefix of a
  b.y[10] += 1e-6;                      // float rounding, far under a pixel
  EXPECT_TRUE(curvesCoincide(a, b));
  EXPECT_FALSE(curvesCoincide(a, curve(300, 64, 1.01)));
  b.y[20] += 0.05;
  EXPECT_FALSE(curvesCoincide(a, b));
  // Shares too few x values to say (1x64 against 1x128 on samples seen: every other point, and
  // the losses differ there anyway).
  EXPECT_FALSE(curvesCoincide(a, curve(150, 128)));
  analysis::Series nanA = a, nanB = a;
  nanA.y[5] = nanB.y[5] = std::nan("");
  EXPECT_TRUE(curvesCoincide(nanA, nanB));
  EXPECT_FALSE(curvesCoincide(nanA, a));
}

// The 0.1 % rule at its edge: a curve spanning exactly 0..1 allows 1e-3 at any common point, and
// half of the shorter curve's points must be common.
TEST(CurveOverlap, TheToleranceAndTheCommonShareHoldAtTheirEdges) {
  analysis::Series a;
  for (int i = 0; i <= 100; ++i) {
    a.x.push_back(i);
    a.y.push_back(1.0 - i / 100.0);
  }
  analysis::Series inside = a, outside = a;
  inside.y[50] += 0.999e-3;  // 0.5 + a hair under the tolerance; the range stays 0..1
  outside.y[50] += 1.001e-3;
  EXPECT_TRUE(curvesCoincide(a, inside));
  EXPECT_FALSE(curvesCoincide(a, outside));
  // b has 40 points, 20 of them on a's x values: exactly half is enough, 19 is not.
  auto half_common = [&](int common) {
    analysis::Series b;
    for (int i = 0; i < 40; ++i) {
      const double x = i < common ? i : 200.5 + i;  // the rest fall between or past a's x values
      b.x.push_back(x);
      b.y.push_back(i < common ? a.y[static_cast<size_t>(i)] : 0.5);
    }
    return b;
  };
  EXPECT_TRUE(curvesCoincide(a, half_common(20)));
  EXPECT_FALSE(curvesCoincide(a, half_common(19)));
}

TEST(CurveOverlap, GroupsPointAtTheFirstOfEachGroup) {
  const analysis::Series a = curve(100, 64), other = curve(100, 64, 1.2);
  EXPECT_EQ(identicalGroups({&a, &other, &a, nullptr, &other, &a}),
            (std::vector<int>{-1, -1, 0, -1, 1, 0}));
}

}  // namespace
}  // namespace parity::plot
