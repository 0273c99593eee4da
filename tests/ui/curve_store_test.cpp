// The chart's use of the engine's curve analysis: EMA with debias over the stored loss, and
// per-pixel min/max decimation over the column of the chosen x-axis.
#include <gtest/gtest.h>
#include <parity/ui/curve_store.h>

#include <cmath>

#include "test_util.h"

namespace parity::ui {
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
}  // namespace parity::ui
