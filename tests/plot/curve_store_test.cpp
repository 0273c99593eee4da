// The chart's use of the engine's curve analysis: EMA with debias over the stored loss, and
// per-pixel min/max decimation over the column of the chosen x-axis.
#include <gtest/gtest.h>
#include <parity/plot/curve_store.h>
#include <parity/test_support/synthetic_runs.h>

#include <cmath>

namespace parity::plot {
namespace {

TEST(CurveStore, AppendsIncrementallyAndIgnoresRowsAlreadyLoaded) {
  CurveStore store;
  auto rows = test::syntheticSteps(1, 10, 32);
  store.append(1, -1, {rows.begin(), rows.begin() + 6});
  store.append(1, -1, rows);  // overlaps the first six
  ASSERT_NE(store.find(1, -1), nullptr);
  EXPECT_EQ(store.find(1, -1)->size(), 10u);
  EXPECT_EQ(store.lastStep(1, -1), 10);
  EXPECT_EQ(store.lastStep(1, 0), 0);
  EXPECT_EQ(store.find(2, -1), nullptr);
}

TEST(CurveStore, RawSeriesFollowsTheAxis) {
  CurveStore store;
  store.append(1, -1, test::syntheticSteps(1, 5, 32));
  EXPECT_EQ(store.raw(1, -1, analysis::Axis::kStep)->x.back(), 5);
  EXPECT_EQ(store.raw(1, -1, analysis::Axis::kSamples)->x.back(), 160);
  store.append(1, -1, test::syntheticSteps(1, 6, 32));  // step 6 lands on the samples column
  EXPECT_EQ(store.raw(1, -1, analysis::Axis::kSamples)->x.back(), 192);
  EXPECT_DOUBLE_EQ(store.raw(1, -1, analysis::Axis::kEpoch)->x.back(), 1.0);
}

TEST(CurveStore, SmoothedIsTheDebiasedEma) {
  CurveStore store;
  std::vector<storage::StepRow> rows = test::syntheticSteps(1, 3, 1);
  rows[0].loss = 1;
  rows[1].loss = 2;
  rows[2].loss = 3;
  store.append(1, -1, rows);
  const analysis::Series* ema = store.smoothed(1, -1, analysis::Axis::kStep, 0.5);
  ASSERT_EQ(ema->y.size(), 3u);
  // Debiased: the first value is the first loss, not half of it.
  EXPECT_DOUBLE_EQ(ema->y[0], 1.0);
  EXPECT_DOUBLE_EQ(ema->y[1], (0.25 * 1 + 0.5 * 2) / 0.75);
  // Grows with the data, and follows a change of weight.
  store.append(1, -1, test::syntheticSteps(1, 4, 1));
  EXPECT_EQ(store.smoothed(1, -1, analysis::Axis::kStep, 0.5)->y.size(), 4u);
  EXPECT_DOUBLE_EQ(store.smoothed(1, -1, analysis::Axis::kStep, 0.0)->y[1], 2.0);
}

TEST(CurveStore, AGrowingSeriesCachesEqualThoseBuiltFromAllItsRows) {
  // Appended in pieces (a live run), with an axis switch and a weight change on the way: the
  // EMA and both indexes are extended, and equal what the whole rows give, to the bit.
  const auto rows = test::syntheticSteps(1, 700, 16, -1, 333);
  CurveStore grown, whole;
  whole.append(1, -1, rows);
  std::size_t at = 0;
  for (std::size_t piece : {1u, 63u, 64u, 130u, 2u, 200u, 240u}) {
    const std::size_t end = std::min(rows.size(), at + piece);
    grown.append(1, -1,
                 {rows.begin() + static_cast<std::ptrdiff_t>(at),
                  rows.begin() + static_cast<std::ptrdiff_t>(end)});
    at = end;
    const auto kind = at % 2 ? analysis::Axis::kSamples : analysis::Axis::kStep;
    ASSERT_NE(grown.smoothed(1, -1, kind, at > 400 ? 0.9 : 0.6), nullptr);
    ASSERT_NE(grown.index(1, -1, true), nullptr);
    ASSERT_NE(grown.index(1, -1, false), nullptr);
  }
  ASSERT_EQ(at, rows.size());
  const analysis::Series* g = grown.smoothed(1, -1, analysis::Axis::kSamples, 0.9);
  const analysis::Series* w = whole.smoothed(1, -1, analysis::Axis::kSamples, 0.9);
  ASSERT_EQ(g->y.size(), w->y.size());
  for (std::size_t i = 0; i < g->y.size(); ++i) {
    ASSERT_EQ(g->x[i], w->x[i]) << i;
    if (std::isnan(w->y[i])) {
      ASSERT_TRUE(std::isnan(g->y[i])) << i;
    } else {
      ASSERT_EQ(g->y[i], w->y[i]) << i;  // bitwise: the same operations in the same order
    }
  }
  for (bool smooth : {false, true}) {
    const MinMaxIndex* gi = grown.index(1, -1, smooth);
    const MinMaxIndex* wi = whole.index(1, -1, smooth);
    ASSERT_EQ(gi->size(), wi->size());
    for (std::size_t a = 0; a < rows.size(); a += 37) {
      EXPECT_EQ(gi->argmin(a, rows.size()), wi->argmin(a, rows.size()));
      EXPECT_EQ(gi->argmax(0, a + 1), wi->argmax(0, a + 1));
    }
  }
}

TEST(CurveStore, RemembersWhereTheLossIsNotFinite) {
  CurveStore store;
  store.append(1, -1, test::syntheticSteps(1, 20, 8, -1, 7));
  ASSERT_EQ(store.find(1, -1)->nonFinite.size(), 1u);
  EXPECT_EQ(store.find(1, -1)->nonFinite[0], 6u);
  const analysis::Series* ema = store.smoothed(1, -1, analysis::Axis::kStep, 0.6);
  EXPECT_TRUE(std::isfinite(ema->y[10]));  // one NaN does not poison the rest
}

TEST(CurveStore, DecimationOfAStoredSeriesKeepsExtremesPerPixel) {
  CurveStore store;
  store.append(1, -1, test::syntheticSteps(1, 100000, 64));
  const analysis::Series* raw = store.raw(1, -1, analysis::Axis::kSamples);
  analysis::Series out;
  decimate_min_max(*raw, {analysis::Range{raw->x.front(), raw->x.back()}, 800}, out);
  EXPECT_LE(out.size(), 4u * 800 + 2);
  EXPECT_GT(out.size(), 800u);
  double lo = 1e9, hi = -1e9;
  for (double y : raw->y) lo = std::min(lo, y), hi = std::max(hi, y);
  double dlo = 1e9, dhi = -1e9;
  for (double y : out.y) dlo = std::min(dlo, y), dhi = std::max(dhi, y);
  EXPECT_EQ(lo, dlo);
  EXPECT_EQ(hi, dhi);
}

}  // namespace
}  // namespace parity::plot
