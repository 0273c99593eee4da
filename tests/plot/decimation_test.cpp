// Per-pixel min/max decimation and its index: drawing code of the window
// (parity/plot/decimation.h).
#include <gtest/gtest.h>
#include <parity/plot/decimation.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>

namespace parity::plot {
namespace {

using analysis::Range;
using analysis::Series;

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

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
  EXPECT_THROW(decimate_min_max(s, DecimateOptions{{}, 0}), PlotError);
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

// Ranges over many blocks (MinMaxIndex::kBlock points each): partial blocks at both ends, whole
// blocks in between, blocks with no finite value.
TEST(MinMaxIndex, MatchesBruteForceAcrossBlocks) {
  std::mt19937 rng(17);
  for (int trial = 0; trial < 40; ++trial) {
    const size_t n = 1 + rng() % (6 * MinMaxIndex::kBlock);
    std::vector<double> y(n);
    const bool nanRun = trial % 3 == 0;  // a whole block and more of NaN
    for (size_t i = 0; i < n; ++i) {
      const int r = static_cast<int>(rng() % 12);
      y[i] = (nanRun && i >= 40 && i < 200) || r == 0 ? std::nan("")
             : r == 1                                 ? -std::numeric_limits<double>::infinity()
                                                      : static_cast<double>(rng() % 7);
    }
    const MinMaxIndex index(y);
    for (int q = 0; q < 3000; ++q) {
      size_t a = rng() % (n + 1), b = rng() % (n + 1);
      if (a > b) std::swap(a, b);
      size_t mn = n, mx = n;
      for (size_t i = a; i < b; ++i) {
        if (!std::isfinite(y[i])) continue;
        if (mn == n || y[i] < y[mn]) mn = i;
        if (mx == n || y[i] > y[mx]) mx = i;
      }
      size_t both_min = 0, both_max = 0;
      index.argminmax(a, b, both_min, both_max);
      ASSERT_EQ(index.argmin(a, b), mn) << "n=" << n << " [" << a << "," << b << ")";
      ASSERT_EQ(index.argmax(a, b), mx) << "n=" << n << " [" << a << "," << b << ")";
      ASSERT_EQ(both_min, mn);
      ASSERT_EQ(both_max, mx);
    }
  }
}

TEST(MinMaxIndex, ExtendedIsTheIndexBuiltWhole) {
  std::mt19937 rng(23);
  for (int trial = 0; trial < 60; ++trial) {
    const size_t n = 1 + rng() % (5 * MinMaxIndex::kBlock);
    std::vector<double> y(n);
    for (size_t i = 0; i < n; ++i) {
      const int r = static_cast<int>(rng() % 10);
      // Whole blocks of NaN too (none found there, spelled by the size that grows).
      y[i] = (trial % 4 == 0 && i < 150) || r == 0 ? std::nan("") : static_cast<double>(rng() % 9);
    }
    // Grown in pieces, across and inside block boundaries.
    MinMaxIndex grown;
    for (size_t end = 0; end < n;) {
      end = std::min(n, end + 1 + rng() % 90);
      grown.extend(std::vector<double>(y.begin(), y.begin() + static_cast<std::ptrdiff_t>(end)));
    }
    const MinMaxIndex whole(y);
    ASSERT_EQ(grown.size(), n);
    for (int q = 0; q < 500; ++q) {
      size_t a = rng() % (n + 1), b = rng() % (n + 1);
      if (a > b) std::swap(a, b);
      size_t gmin = 0, gmax = 0, wmin = 0, wmax = 0;
      grown.argminmax(a, b, gmin, gmax);
      whole.argminmax(a, b, wmin, wmax);
      ASSERT_EQ(gmin, wmin) << "n=" << n << " [" << a << "," << b << ")";
      ASSERT_EQ(gmax, wmax) << "n=" << n << " [" << a << "," << b << ")";
      ASSERT_EQ(grown.first_finite(a, b), whole.first_finite(a, b));
      ASSERT_EQ(grown.last_finite(a, b), whole.last_finite(a, b));
    }
  }
  MinMaxIndex shrink(std::vector<double>{1, 2, 3});
  EXPECT_THROW(shrink.extend(std::vector<double>{1, 2}), PlotError);
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
  EXPECT_THROW(decimate_min_max(s, index, {}, out), PlotError);
}

}  // namespace
}  // namespace parity::plot
