#include <gtest/gtest.h>
#include <parity/analysis/curve_analysis.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>

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

TEST(Interpolate, MismatchedLengthsThrow) {
  const Series bad{{0, 1}, {0}};
  EXPECT_THROW(interpolate(bad, {0.5}), AnalysisError);
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

Series wiggle(size_t n) {
  Series s;
  for (size_t i = 0; i < n; ++i) {
    s.x.push_back(static_cast<double>(i));
    s.y.push_back(std::sin(0.37 * static_cast<double>(i)) + 0.001 * static_cast<double>(i % 7));
  }
  return s;
}

TEST(Decimate, KeepsExtremesFirstLastPerColumnInOrder) {
  Series s = wiggle(1000);
  s.y[123] = 50;   // spike
  s.y[777] = -50;  // dip
  const int pixels = 10;
  const Series d = decimate_min_max(s, DecimateOptions{{}, pixels});
  ASSERT_LE(d.size(), 4u * pixels + 2);
  EXPECT_GE(d.size(), 2u * pixels);
  EXPECT_TRUE(std::is_sorted(d.x.begin(), d.x.end()));
  EXPECT_EQ(d.x.front(), 0);
  EXPECT_EQ(d.y.front(), s.y.front());
  EXPECT_EQ(d.x.back(), 999);
  EXPECT_EQ(d.y.back(), s.y.back());
  EXPECT_NE(std::find(d.y.begin(), d.y.end(), 50), d.y.end());
  EXPECT_NE(std::find(d.y.begin(), d.y.end(), -50), d.y.end());
  // Every column's own min and max survive.
  const double width = 999.0 / pixels;
  for (int c = 0; c < pixels; ++c) {
    double lo = 1e9, hi = -1e9, dlo = 1e9, dhi = -1e9;
    for (size_t i = 0; i < s.size(); ++i) {
      if (std::min(pixels - 1, static_cast<int>(s.x[i] / width)) != c) continue;
      lo = std::min(lo, s.y[i]);
      hi = std::max(hi, s.y[i]);
    }
    for (size_t i = 0; i < d.size(); ++i) {
      if (std::min(pixels - 1, static_cast<int>(d.x[i] / width)) != c) continue;
      dlo = std::min(dlo, d.y[i]);
      dhi = std::max(dhi, d.y[i]);
    }
    EXPECT_EQ(lo, dlo) << "column " << c;
    EXPECT_EQ(hi, dhi) << "column " << c;
  }
}

TEST(Decimate, OutputIsBoundedByPixelsAndReusesBuffer) {
  const Series s = wiggle(100000);
  Series out;
  decimate_min_max(s, DecimateOptions{{}, 200}, out);
  EXPECT_LE(out.size(), 802u);
  EXPECT_GE(out.size(), 400u);
  const double* data = out.x.data();
  decimate_min_max(s, DecimateOptions{{}, 200}, out);
  EXPECT_EQ(out.x.data(), data);  // no reallocation on redraw
}

TEST(Decimate, VisibleRangeKeepsNeighboursOutside) {
  const Series s = wiggle(1000);
  const Series d = decimate_min_max(s, DecimateOptions{Range{100, 199}, 5});
  ASSERT_GE(d.size(), 3u);
  EXPECT_EQ(d.x.front(), 99);
  EXPECT_EQ(d.x.back(), 200);
  for (size_t i = 1; i + 1 < d.size(); ++i) {
    EXPECT_GE(d.x[i], 100);
    EXPECT_LE(d.x[i], 199);
  }
  EXPECT_LE(d.size(), 4u * 5 + 2);
}

TEST(Decimate, SmallSeriesKeptWholeAndNanSkipped) {
  const Series s{{0, 1, 2, 3}, {4, kNaN, 2, 3}};
  const Series d = decimate_min_max(s, DecimateOptions{{}, 100});
  EXPECT_EQ(d.x, (std::vector<double>{0, 2, 3}));
  EXPECT_THROW(decimate_min_max(s, DecimateOptions{{}, 0}), AnalysisError);
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

TEST(MinMaxIndex, MatchesBruteForceWithTiesAndNaN) {
  std::mt19937 rng(11);
  for (int trial = 0; trial < 200; ++trial) {
    const size_t n = 1 + rng() % 70;
    std::vector<double> y(n);
    for (auto& v : y) {
      const int r = static_cast<int>(rng() % 12);
      v = r == 0   ? std::nan("")
          : r == 1 ? std::numeric_limits<double>::infinity()
                   : static_cast<double>(rng() % 5);  // many ties
    }
    const MinMaxIndex index(y);
    for (size_t a = 0; a <= n; ++a) {
      for (size_t b = a; b <= n; ++b) {
        size_t mn = n, mx = n, ff = n, lf = n;
        for (size_t i = a; i < b; ++i) {
          if (!std::isfinite(y[i])) continue;
          if (ff == n) ff = i;
          lf = i;
          if (mn == n || y[i] < y[mn]) mn = i;
          if (mx == n || y[i] > y[mx]) mx = i;
        }
        ASSERT_EQ(index.argmin(a, b), mn) << "n=" << n << " [" << a << "," << b << ")";
        ASSERT_EQ(index.argmax(a, b), mx) << "n=" << n << " [" << a << "," << b << ")";
        ASSERT_EQ(index.first_finite(a, b), ff);
        ASSERT_EQ(index.last_finite(a, b), lf);
      }
    }
  }
}

TEST(MinMaxIndex, IndexedDecimationEqualsTheScan) {
  std::mt19937 rng(5);
  for (int trial = 0; trial < 300; ++trial) {
    Series s;
    const size_t n = 1 + rng() % 5000;
    double x = 0;
    for (size_t i = 0; i < n; ++i) {
      x += static_cast<double>(rng() % 3);  // repeated x too
      s.x.push_back(x);
      s.y.push_back(rng() % 50 == 0 ? std::nan("") : std::sin(0.01 * i) + 0.001 * (rng() % 100));
    }
    const MinMaxIndex index(s.y);
    DecimateOptions o;
    o.pixel_width = 1 + static_cast<int>(rng() % 200);
    if (rng() % 3 != 0) {
      const double a = x * (rng() % 100) / 100.0, b = a + x * (rng() % 100) / 100.0;
      o.x_range = Range{a, b};
    }
    Series scanned, indexed;
    decimate_min_max(s, o, scanned);
    decimate_min_max(s, index, o, indexed);
    ASSERT_EQ(indexed.x, scanned.x) << "trial " << trial;
    ASSERT_EQ(indexed.y.size(), scanned.y.size());
    for (size_t i = 0; i < indexed.y.size(); ++i)
      ASSERT_TRUE(indexed.y[i] == scanned.y[i] ||
                  (std::isnan(indexed.y[i]) && std::isnan(scanned.y[i])));
  }
}

TEST(MinMaxIndex, RefusesAnIndexOfAnotherSeries) {
  Series s{{0, 1, 2}, {1, 2, 3}};
  const MinMaxIndex index(std::vector<double>{1, 2});
  Series out;
  EXPECT_THROW(decimate_min_max(s, index, {}, out), AnalysisError);
}

}  // namespace
}  // namespace parity::engine
