#include <gtest/gtest.h>
#include <parity/analysis/curve_analysis.h>

#include <cmath>
#include <limits>
#include <vector>

namespace parity::engine {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

TEST(Interpolate, LinearInsideNoExtrapolationOutside) {
  const Series s{{0, 10, 20}, {0, 10, 40}};
  const Resampled r = interpolate(s, {-1, 0, 5, 10, 15, 20, 21});
  EXPECT_EQ(r.covered, (std::vector<bool>{false, true, true, true, true, true, false}));
  EXPECT_EQ(r.covered_count, 5u);
  EXPECT_TRUE(std::isnan(r.y[0]));
  EXPECT_DOUBLE_EQ(r.y[1], 0);
  EXPECT_DOUBLE_EQ(r.y[2], 5);
  EXPECT_DOUBLE_EQ(r.y[3], 10);
  EXPECT_DOUBLE_EQ(r.y[4], 25);
  EXPECT_DOUBLE_EQ(r.y[5], 40);
  EXPECT_TRUE(std::isnan(r.y[6]));
}

TEST(Interpolate, UnsortedQueriesAndRepeatedX) {
  const Series s{{0, 10, 20}, {0, 10, 40}};
  const Resampled r = interpolate(s, {15, 5, 19});
  EXPECT_DOUBLE_EQ(r.y[0], 25);
  EXPECT_DOUBLE_EQ(r.y[1], 5);
  EXPECT_DOUBLE_EQ(r.y[2], 37);
  // At a repeated x the later point wins; after it the line starts from that later point.
  const Series step{{0, 1, 1, 2}, {0, 1, 3, 5}};
  EXPECT_DOUBLE_EQ(*interpolate_at(step, 1), 3);
  EXPECT_DOUBLE_EQ(*interpolate_at(step, 1.5), 4);
  EXPECT_DOUBLE_EQ(*interpolate_at(step, 0.5), 0.5);
  EXPECT_FALSE(interpolate_at(step, 2.01).has_value());
  EXPECT_FALSE(interpolate_at(Series{}, 0).has_value());
}

TEST(Interpolate, NanStaysInItsNeighbourhood) {
  const Series s{{0, 1, 2, 3}, {0, kNaN, 2, 3}};
  const Resampled r = interpolate(s, {0, 0.5, 1, 1.5, 2, 2.5});
  EXPECT_EQ(r.covered, std::vector<bool>(6, true));
  EXPECT_DOUBLE_EQ(r.y[0], 0);
  EXPECT_TRUE(std::isnan(r.y[1]));
  EXPECT_TRUE(std::isnan(r.y[2]));
  EXPECT_TRUE(std::isnan(r.y[3]));
  EXPECT_DOUBLE_EQ(r.y[4], 2);
  EXPECT_DOUBLE_EQ(r.y[5], 2.5);
}

TEST(Interpolate, MismatchedLengthsThrow) {
  const Series bad{{0, 1}, {0}};
  EXPECT_THROW(interpolate(bad, {0.5}), AnalysisError);
  EXPECT_THROW(ema(bad), AnalysisError);
  EXPECT_THROW(band({bad}), AnalysisError);
  EXPECT_THROW(value_at_position({}, 0), AnalysisError);
}

TEST(Overlap, IntersectsRanges) {
  const Series a{{0, 5, 10}, {1, 1, 1}};
  const Series b{{5, 20}, {1, 1}};
  const Range o = overlap(a, b);
  EXPECT_DOUBLE_EQ(o.lo, 5);
  EXPECT_DOUBLE_EQ(o.hi, 10);
  EXPECT_TRUE(overlap(Range{0, 1}, Range{2, 3}).empty());
  EXPECT_TRUE(overlap(a, Series{}).empty());
  EXPECT_TRUE(x_range(Series{}).empty());
  EXPECT_EQ(overlap(Range{0, 1}, Range{1, 3}).width(), 0);
  EXPECT_FALSE(overlap(Range{0, 1}, Range{1, 3}).empty());
}

TEST(Ema, DebiasedMatchesHandComputation) {
  // a = 0.5: raw ema 1, 2.5; debias by 1 - 0.5 and 1 - 0.25.
  const std::vector<double> out = ema(std::vector<double>{2, 4}, EmaOptions{0.5, true});
  EXPECT_DOUBLE_EQ(out[0], 2);
  EXPECT_DOUBLE_EQ(out[1], 2.5 / 0.75);
  // A constant stays constant when debiased, and is pulled towards 0 when not.
  const std::vector<double> flat = ema(std::vector<double>{1, 1, 1}, EmaOptions{0.9, true});
  for (double v : flat) EXPECT_NEAR(v, 1, 1e-15);
  const std::vector<double> biased = ema(std::vector<double>{1, 1, 1}, EmaOptions{0.5, false});
  EXPECT_DOUBLE_EQ(biased[0], 0.5);
  EXPECT_DOUBLE_EQ(biased[1], 0.75);
  EXPECT_DOUBLE_EQ(biased[2], 0.875);
}

TEST(Ema, NanPassesThroughWithoutPoisoning) {
  const std::vector<double> out = ema(std::vector<double>{1, kNaN, 3}, EmaOptions{0.5, true});
  EXPECT_DOUBLE_EQ(out[0], 1);
  EXPECT_TRUE(std::isnan(out[1]));
  // The NaN is skipped: the third value folds 3 into the state after the first point only.
  EXPECT_DOUBLE_EQ(out[2], (0.5 * 0.5 + 0.5 * 3) / 0.75);
}

TEST(Ema, WeightZeroIsIdentityAndBadWeightsThrow) {
  const Series s{{1, 2, 3}, {5, -1, 7}};
  EXPECT_EQ(ema(s, EmaOptions{0, true}).y, s.y);
  EXPECT_THROW(ema(s.y, EmaOptions{1.0, true}), AnalysisError);
  EXPECT_THROW(ema(s.y, EmaOptions{-0.1, true}), AnalysisError);
}

TEST(Band, MeanMinMaxOnFirstMembersPoints) {
  const Series a{{0, 1, 2}, {1, 2, 3}};
  const Series b{{0, 1, 2}, {3, 4, 5}};
  const Series c{{0, 2}, {2, 6}};  // interpolated at 1: 4
  const Band out = band({a, b, c});
  ASSERT_EQ(out.x, (std::vector<double>{0, 1, 2}));
  EXPECT_DOUBLE_EQ(out.mean[0], 2);
  EXPECT_DOUBLE_EQ(out.lo[0], 1);
  EXPECT_DOUBLE_EQ(out.hi[0], 3);
  EXPECT_DOUBLE_EQ(out.mean[1], 10.0 / 3);
  EXPECT_DOUBLE_EQ(out.lo[1], 2);
  EXPECT_DOUBLE_EQ(out.hi[1], 4);
  EXPECT_DOUBLE_EQ(out.mean[2], 14.0 / 3);
  EXPECT_DOUBLE_EQ(out.hi[2], 6);
  EXPECT_EQ(out.count, (std::vector<int>{3, 3, 3}));
}

TEST(Band, NonFiniteMemberPointsAreLeftOut) {
  const Series a{{0, 1, 2}, {1, kNaN, 3}};
  const Series b{{0, 1, 2}, {3, 4, 5}};
  const Band out = band({a, b});
  EXPECT_EQ(out.x, (std::vector<double>{0, 2}));  // at 1 only b is finite: not common
  EXPECT_DOUBLE_EQ(out.mean[1], 4);
  EXPECT_EQ(out.count, (std::vector<int>{2, 2}));
}

TEST(Band, CommonRangeOrUnion) {
  const Series a{{0, 2}, {0, 2}};
  const Series b{{1, 3}, {10, 30}};
  const Band common = band({a, b});
  EXPECT_EQ(common.x, (std::vector<double>{2}));
  EXPECT_DOUBLE_EQ(common.mean[0], (2 + 20) / 2.0);
  const Band any = band({a, b}, BandOptions{BandGrid::kUnion, false});
  EXPECT_EQ(any.x, (std::vector<double>{0, 1, 2, 3}));
  EXPECT_EQ(any.count, (std::vector<int>{1, 2, 2, 1}));
  EXPECT_DOUBLE_EQ(any.mean[1], (1 + 10) / 2.0);
  EXPECT_DOUBLE_EQ(any.lo[3], 30);
  EXPECT_TRUE(band({}).x.empty());
}

TEST(Crossing, FirstCrossingInterpolated) {
  const Series s{{10, 20, 30, 40}, {1.0, 0.8, 0.5, 0.2}};
  const auto pos = first_crossing_position(s.y, 0.6);
  ASSERT_TRUE(pos.has_value());
  EXPECT_NEAR(*pos, 1 + 2.0 / 3, 1e-12);
  EXPECT_NEAR(*first_crossing(s, 0.6), 20 + 20.0 / 3, 1e-12);
  EXPECT_DOUBLE_EQ(*first_crossing(s, 0.5), 30);  // reaching exactly counts
  EXPECT_DOUBLE_EQ(*first_crossing(s, 2.0), 10);  // already below at the start
  EXPECT_FALSE(first_crossing(s, 0.1).has_value());
  // A later re-crossing does not count, and NaN never crosses.
  const Series bumpy{{1, 2, 3, 4}, {1, kNaN, 0.4, 0.9}};
  EXPECT_DOUBLE_EQ(*first_crossing(bumpy, 0.5), 3);
  EXPECT_DOUBLE_EQ(value_at_position({0, 100}, 0.25), 25);
  EXPECT_DOUBLE_EQ(value_at_position({0, 100}, 7), 100);
}

}  // namespace
}  // namespace parity::engine
