#include <gtest/gtest.h>
#include <parity/analysis/curve_analysis.h>

#include <cmath>
#include <limits>
#include <vector>

namespace parity::analysis {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

TEST(Interpolate, LinearInsideNoExtrapolationOutside) {
  const Series s{{0, 10, 20}, {0, 10, 40}};
  const Resampled r = interpolate(s, {-1, 0, 5, 10, 15, 20, 21});
  EXPECT_EQ(r.covered, (std::vector<bool>{false, true, true, true, true, true, false}));
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
  // Queried backwards too, so both the forward cursor and the binary search meet it.
  const Series step{{0, 1, 1, 2}, {0, 1, 3, 5}};
  for (const std::vector<double>& at :
       {std::vector<double>{0.5, 1, 1.5, 2.01}, std::vector<double>{2.01, 1.5, 1, 0.5}}) {
    const Resampled s = interpolate(step, at);
    const bool forward = at.front() < at.back();
    const auto y = [&](size_t i) { return s.y[forward ? i : 3 - i]; };
    const auto covered = [&](size_t i) { return s.covered[forward ? i : 3 - i]; };
    EXPECT_DOUBLE_EQ(y(0), 0.5);
    EXPECT_DOUBLE_EQ(y(1), 3);
    EXPECT_DOUBLE_EQ(y(2), 4);
    EXPECT_FALSE(covered(3));
    EXPECT_TRUE(std::isnan(y(3)));
  }
  const Resampled none = interpolate(Series{}, {0});
  EXPECT_EQ(none.covered, std::vector<bool>{false});
  EXPECT_TRUE(std::isnan(none.y[0]));
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
  const Range o = overlap(x_range(a), x_range(b));
  EXPECT_DOUBLE_EQ(o.lo, 5);
  EXPECT_DOUBLE_EQ(o.hi, 10);
  EXPECT_TRUE(overlap(Range{0, 1}, Range{2, 3}).empty());
  EXPECT_TRUE(overlap(x_range(a), x_range(Series{})).empty());
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
  EXPECT_EQ(out.lo.size(), 3u);
  EXPECT_EQ(out.hi.size(), 3u);
}

TEST(Band, NonFiniteMemberPointsAreLeftOut) {
  const Series a{{0, 1, 2}, {1, kNaN, 3}};
  const Series b{{0, 1, 2}, {3, 4, 5}};
  const Band out = band({a, b});
  EXPECT_EQ(out.x, (std::vector<double>{0, 2}));  // at 1 only b is finite: not common
  EXPECT_DOUBLE_EQ(out.mean[1], 4);
  EXPECT_DOUBLE_EQ(out.lo[1], 3);
  EXPECT_DOUBLE_EQ(out.hi[1], 5);
}

TEST(Band, OnlyTheCommonRange) {
  const Series a{{0, 2}, {0, 2}};
  const Series b{{1, 3}, {10, 30}};
  const Band common = band({a, b});
  EXPECT_EQ(common.x, (std::vector<double>{2}));
  EXPECT_DOUBLE_EQ(common.mean[0], (2 + 20) / 2.0);
  EXPECT_DOUBLE_EQ(common.lo[0], 2);
  EXPECT_DOUBLE_EQ(common.hi[0], 20);
  // A repeated x of the first member gives one band point (the later value wins).
  const Band repeated = band({Series{{0, 1, 1}, {1, 2, 4}}, Series{{0, 1}, {1, 4}}});
  EXPECT_EQ(repeated.x, (std::vector<double>{0, 1}));
  EXPECT_DOUBLE_EQ(repeated.mean[1], 4);
  EXPECT_TRUE(band({}).x.empty());
}

TEST(Crossing, FirstCrossingInterpolated) {
  const std::vector<double> x{10, 20, 30, 40}, y{1.0, 0.8, 0.5, 0.2};
  const auto pos = first_crossing_position(y, 0.6);
  ASSERT_TRUE(pos.has_value());
  EXPECT_NEAR(*pos, 1 + 2.0 / 3, 1e-12);
  EXPECT_NEAR(value_at_position(x, *pos), 20 + 20.0 / 3, 1e-12);  // read on a parallel column
  EXPECT_DOUBLE_EQ(*first_crossing_position(y, 0.5), 2);          // reaching exactly counts
  EXPECT_DOUBLE_EQ(*first_crossing_position(y, 2.0), 0);          // already below at the start
  EXPECT_FALSE(first_crossing_position(y, 0.1).has_value());
  // A later re-crossing does not count, and NaN never crosses (nor is interpolated from).
  EXPECT_DOUBLE_EQ(*first_crossing_position({1, kNaN, 0.4, 0.9}, 0.5), 2);
  EXPECT_FALSE(first_crossing_position({kNaN, kNaN}, 10).has_value());
  EXPECT_FALSE(first_crossing_position({}, 10).has_value());
  EXPECT_DOUBLE_EQ(value_at_position({0, 100}, 0.25), 25);
  EXPECT_DOUBLE_EQ(value_at_position({0, 100}, 7), 100);
  EXPECT_DOUBLE_EQ(value_at_position({0, 100}, -1), 0);
  EXPECT_DOUBLE_EQ(value_at_position({5}, 0.5), 5);
}

TEST(CurveAnalysis, EmaExtendedPieceByPieceIsTheWholeEmaToTheBit) {
  std::vector<double> y;
  for (int i = 0; i < 300; ++i) y.push_back(i % 17 == 5 ? std::nan("") : std::sin(i * 0.37) + 2);
  for (bool debias : {true, false}) {
    const EmaOptions options{0.93, debias};
    const std::vector<double> whole = ema(y, options);
    EmaState state;
    std::vector<double> out;
    for (std::size_t end : {0u, 1u, 2u, 50u, 51u, 200u, 300u}) {
      ema_extend(std::vector<double>(y.begin(), y.begin() + static_cast<std::ptrdiff_t>(end)),
                 options, state, out);
      ASSERT_EQ(out.size(), end);
    }
    for (std::size_t i = 0; i < y.size(); ++i) {
      if (std::isnan(whole[i])) {
        EXPECT_TRUE(std::isnan(out[i]));
      } else {
        EXPECT_EQ(out[i], whole[i]) << i;
      }
    }
  }
  EmaState ahead{5, 0, 1};
  std::vector<double> short_out(5);
  EXPECT_THROW(ema_extend(std::vector<double>(3), {}, ahead, short_out), AnalysisError);
}

}  // namespace
}  // namespace parity::analysis
