#include <gtest/gtest.h>
#include <parity/analysis/verdict.h>

#include <cmath>
#include <limits>

#include "verdict_test_util.h"

namespace parity::engine {
namespace {

using test::has_key;
using test::make_run;
using test::regression;
using test::text_of;

TEST(Compare, EquivalentSetupsOnTheRegression) {
  // 1x16, 2x8 and 1x8 with accumulation 2: same losses at the same samples seen.
  const CompareRun ref = make_run(1, regression(1, 16));
  const CompareRun two = make_run(2, regression(2, 8), test::default_loss, 1024, 1800);
  const CompareRun acc = make_run(3, regression(1, 8, 2));
  const Comparison c = compare(ref, {two, acc});
  ASSERT_EQ(c.rows.size(), 3u);
  EXPECT_EQ(c.rows[0].verdict, Verdict::kReference);
  EXPECT_EQ(c.rows[0].id, 1);
  for (size_t i = 1; i < 3; ++i) {
    const RunComparison& row = c.rows[i];
    EXPECT_EQ(row.verdict, Verdict::kEquivalent) << row.summary;
    EXPECT_EQ(row.delta.points, 64u);
    EXPECT_EQ(row.delta.max_abs, 0);
    EXPECT_EQ(row.epoch_delta.points, 64u);
    EXPECT_FALSE(row.delta.different_ranges);
    EXPECT_TRUE(row.reasons.empty());
    EXPECT_EQ(row.summary.rfind("equivalent within tolerance", 0), 0u) << row.summary;
    EXPECT_EQ(row.delta_curve.size(), 64u);
  }
  // Differences are listed as information only, and num_processes alone is "same arithmetic".
  EXPECT_TRUE(has_key(c.rows[1].info, "num_processes"));
  EXPECT_NE(text_of(c.rows[1].info, "num_processes").find("same arithmetic"), std::string::npos);
  EXPECT_TRUE(has_key(c.rows[1].info, "per_device_batch_size"));
  EXPECT_TRUE(has_key(c.rows[2].info, "gradient_accumulation_steps"));
  EXPECT_FALSE(has_key(c.rows[2].info, "global_batch"));
  // Throughput: 2x8 at 1800 samples/s against the 1-process run of the same per-device batch.
  ASSERT_TRUE(c.baseline_id.has_value());
  EXPECT_EQ(*c.baseline_id, 3);
  EXPECT_DOUBLE_EQ(c.rows[1].per_device_samples_per_s, 900);
  ASSERT_TRUE(c.rows[1].scaling_efficiency.has_value());
  EXPECT_DOUBLE_EQ(*c.rows[1].scaling_efficiency, 0.9);
  EXPECT_DOUBLE_EQ(*c.rows[0].scaling_efficiency, 1.0);
}

TEST(Compare, UnscaledLrIsDifferentAndExplained) {
  RunConfig base = regression(1, 64);
  RunConfig two = regression(2, 64);  // lr_scaling none: 0.05 on 2 processes
  // Linear losses so that interpolating between the other run's points is exact.
  const CompareRun ref = make_run(1, base, [](double s) { return 1 - s / 2000; });
  const CompareRun other = make_run(2, two, [](double s) { return 1.05 - s / 2000; });
  const Comparison c = compare(ref, {other});
  const RunComparison& row = c.rows[1];
  EXPECT_EQ(row.verdict, Verdict::kDifferent);
  EXPECT_GT(row.worst_ratio, 1);
  EXPECT_NEAR(row.delta.max_abs, 0.05, 1e-12);
  EXPECT_NEAR(row.delta.final_abs, 0.05, 1e-12);
  EXPECT_NEAR(row.delta.mean_abs, 0.05, 1e-12);
  EXPECT_GT(row.delta.max_rel, 0.05);
  EXPECT_EQ(text_of(row.reasons, "effective_lr"),
            "learning rate not scaled with the number of processes (lr 0.05 on 2 processes vs "
            "0.05 on 1; linear scaling would give 0.1)");
  EXPECT_EQ(text_of(row.reasons, "global_batch"),
            "global batch 128 vs 64 (per-device batch 32 on 2 processes would match)");
  EXPECT_TRUE(has_key(row.info, "num_processes"));
  EXPECT_EQ(row.summary.rfind("different: ", 0), 0u) << row.summary;
  EXPECT_NE(row.summary.find("not scaled"), std::string::npos);
  EXPECT_EQ(row.delta.points, 15u);  // the reference's first point (64) is before the other's
  EXPECT_EQ(row.delta_curve.size(), 15u);
  EXPECT_NEAR(row.delta_curve.y[0], 0.05, 1e-12);
}

TEST(Compare, ReorderedSameArithmeticPointsAtRoundingNotABug) {
  const CompareRun ref = make_run(1, regression(1, 16));
  const CompareRun two = make_run(2, regression(2, 8), [](double s) {
    return test::default_loss(s) * (s > 512 ? 1.01 : 1.0);
  });
  const Comparison c = compare(ref, {two});
  ASSERT_EQ(c.rows[1].verdict, Verdict::kDifferent);
  ASSERT_EQ(c.rows[1].reasons.size(), 1u);
  EXPECT_EQ(c.rows[1].reasons[0].key, "rounding");
  EXPECT_NE(c.rows[1].reasons[0].text.find("summation order"), std::string::npos);
}

TEST(Compare, SameConfigDifferentCurveIsUnexplained) {
  const CompareRun ref = make_run(1, regression(1, 16));
  const CompareRun rerun = make_run(2, regression(1, 16), [](double s) {
    return test::default_loss(s) * (s > 512 ? 1.01 : 1.0);
  });
  const Comparison c = compare(ref, {rerun});
  EXPECT_TRUE(c.groups.empty());  // same seed: a rerun is no seed group
  ASSERT_EQ(c.rows[1].verdict, Verdict::kDifferent);
  ASSERT_EQ(c.rows[1].reasons.size(), 1u);
  EXPECT_EQ(c.rows[1].reasons[0].key, "unexplained");
  EXPECT_TRUE(c.rows[1].config_diff.empty());
  EXPECT_GT(c.rows[1].delta.x_at_max, 512);
}

TEST(Compare, SeedGroupGivesTheNoiseFloor) {
  RunConfig s1 = regression(1, 64), s2 = s1, s3 = s1;
  s2.seed = 2;
  s3.seed = 3;
  const auto shifted = [](double d) { return [d](double s) { return test::default_loss(s) + d; }; };
  const CompareRun ref = make_run(1, s1);
  const CompareRun seed2 = make_run(2, s2, shifted(0.02));
  const CompareRun seed3 = make_run(3, s3, shifted(-0.02));
  RunConfig two = regression(2, 32);
  const CompareRun close_run = make_run(4, two, shifted(0.03));
  const CompareRun far_run = make_run(5, two, shifted(0.1));
  const Comparison c = compare(ref, {seed2, seed3, close_run, far_run});
  ASSERT_EQ(c.groups.size(), 1u);
  EXPECT_EQ(c.groups[0].run_ids, (std::vector<int64_t>{1, 2, 3}));
  EXPECT_NEAR(c.groups[0].spread, 0.04, 1e-12);
  ASSERT_EQ(c.groups[0].band.x.size(), 16u);
  EXPECT_NEAR(c.groups[0].band.hi[0] - c.groups[0].band.lo[0], 0.04, 1e-12);
  EXPECT_NEAR(c.groups[0].band.mean[3], test::default_loss(256), 1e-12);

  EXPECT_EQ(c.rows[3].verdict, Verdict::kEquivalent) << c.rows[3].summary;
  EXPECT_NEAR(c.rows[3].noise_floor, 0.04, 1e-12);
  EXPECT_NE(c.rows[3].noise_source.find("3 seeds of the reference"), std::string::npos);
  EXPECT_EQ(c.rows[3].summary.rfind("equivalent within seed noise", 0), 0u);
  EXPECT_EQ(c.rows[4].verdict, Verdict::kDifferent);
  // Same tolerance without groups: both differ.
  CompareOptions no_groups;
  no_groups.use_seed_groups = false;
  const Comparison t = compare(ref, {close_run}, no_groups);
  EXPECT_EQ(t.rows[1].verdict, Verdict::kDifferent);
  EXPECT_TRUE(t.rows[1].noise_source.empty());
  // A looser tolerance makes the same gap acceptable.
  no_groups.abs_tolerance = 0.05;
  EXPECT_EQ(compare(ref, {close_run}, no_groups).rows[1].verdict, Verdict::kEquivalent);
}

TEST(Compare, DifferentRangesAreNotedAndOverlapCompared) {
  const CompareRun ref = make_run(1, regression(1, 16));
  const CompareRun half = make_run(2, regression(2, 8), test::default_loss, 512);
  const Comparison c = compare(ref, {half});
  const RunComparison& row = c.rows[1];
  EXPECT_EQ(row.verdict, Verdict::kEquivalent);
  EXPECT_TRUE(row.delta.different_ranges);
  EXPECT_EQ(row.delta.points, 32u);
  EXPECT_DOUBLE_EQ(row.delta.overlap.hi, 512);
  EXPECT_NE(row.delta.range_note.find("compared on 16–512"), std::string::npos)
      << row.delta.range_note;
  EXPECT_TRUE(has_key(row.info, "range"));
  EXPECT_NE(row.summary.find("different samples ranges"), std::string::npos);

  CompareRun late = make_run(3, regression(1, 16));
  for (CurvePoint& p : late.points) p.samples += 5000;
  const RunComparison apart = compare(ref, {late}).rows[1];
  EXPECT_EQ(apart.verdict, Verdict::kNotComparable);
  EXPECT_NE(apart.summary.find("no overlap on samples"), std::string::npos);
}

TEST(Compare, AlignsByEpochToo) {
  // Different dataset sizes: on samples the curves differ, on epochs they match.
  const CompareRun ref = make_run(1, regression(1, 16));
  CompareRun other = make_run(
      2, regression(1, 16), [](double s) { return test::default_loss(s / 2); }, 2048);
  other.config.synthetic_samples = 2048;
  other.train_size = 2048;
  for (CurvePoint& p : other.points) p.epoch = p.samples / 2048.0;
  const RunComparison row = compare(ref, {other}).rows[1];
  EXPECT_EQ(row.verdict, Verdict::kDifferent);
  EXPECT_EQ(row.epoch_delta.axis, Axis::kEpoch);
  EXPECT_NEAR(row.epoch_delta.max_abs, 0, 1e-12);
  EXPECT_GT(row.delta.max_abs, 0.1);
  CompareOptions by_epoch;
  by_epoch.axis = Axis::kEpoch;
  const RunComparison e = compare(ref, {other}, by_epoch).rows[1];
  EXPECT_EQ(e.verdict, Verdict::kEquivalent);
  EXPECT_TRUE(has_key(e.info, "synthetic_samples"));
}

TEST(Compare, TargetLossThroughputAndEvalDeltas) {
  const auto linear_loss = [](double rate) { return [rate](double s) { return 1 - s / rate; }; };
  CompareRun ref = make_run(1, regression(1, 16), linear_loss(2000));
  CompareRun slow = make_run(2, regression(1, 16), linear_loss(4000), 1024, 500);
  ref.final_eval_loss = 0.5;
  ref.final_accuracy = 0.8;
  slow.final_eval_loss = 0.75;
  slow.final_accuracy = 0.7;
  CompareOptions options;
  options.target_loss = 0.75;
  const Comparison c = compare(ref, {slow}, options);
  EXPECT_DOUBLE_EQ(*c.target_loss, 0.75);
  EXPECT_NEAR(*c.rows[0].samples_to_target, 500, 1e-9);
  EXPECT_NEAR(*c.rows[0].time_to_target_s, 0.5, 1e-9);
  EXPECT_NEAR(*c.rows[0].step_to_target, 500.0 / 16, 1e-9);
  EXPECT_NEAR(*c.rows[1].samples_to_target, 1000, 1e-9);
  EXPECT_NEAR(*c.rows[1].time_to_target_s, 2.0, 1e-9);
  EXPECT_NEAR(*c.rows[1].final_eval_loss_delta, 0.25, 1e-12);
  EXPECT_NEAR(*c.rows[1].final_accuracy_delta, -0.1, 1e-12);
  EXPECT_DOUBLE_EQ(c.rows[1].samples_per_s, 500);
  EXPECT_NEAR(c.rows[1].wall_time_s, 1024.0 / 500, 1e-12);
  EXPECT_DOUBLE_EQ(*c.rows[1].scaling_efficiency, 0.5);  // baseline: the reference
  // Default target: 1.1 x the mean of the reference's last 5% (3 of 64 points).
  const Comparison d = compare(ref, {slow});
  const double tail =
      (linear_loss(2000)(1024) + linear_loss(2000)(1008) + linear_loss(2000)(992)) / 3;
  EXPECT_NEAR(*d.target_loss, 1.1 * tail, 1e-12);
  EXPECT_FALSE(d.rows[1].samples_to_target.has_value());  // slow never gets there
}

TEST(Compare, NonFiniteLossIsDifferent) {
  const CompareRun ref = make_run(1, regression(1, 16));
  CompareRun diverged = make_run(2, regression(1, 16));
  diverged.points[40].loss = std::numeric_limits<double>::quiet_NaN();
  const RunComparison row = compare(ref, {diverged}).rows[1];
  EXPECT_EQ(row.verdict, Verdict::kDifferent);
  EXPECT_EQ(row.delta.nonfinite_points, 1u);
  ASSERT_FALSE(row.reasons.empty());
  EXPECT_EQ(row.reasons[0].key, "loss");
}

TEST(Compare, BadOptionsThrow) {
  const CompareRun ref = make_run(1, regression(1, 16));
  CompareOptions bad;
  bad.abs_tolerance = -1;
  EXPECT_THROW(compare(ref, {}, bad), AnalysisError);
  CompareOptions bad_ema;
  bad_ema.ema_weight = 1.5;
  EXPECT_THROW(compare(ref, {}, bad_ema), AnalysisError);
}

std::vector<CurvePoint> points(const std::vector<double>& losses) {
  std::vector<CurvePoint> out;
  for (size_t i = 0; i < losses.size(); ++i) {
    CurvePoint p;
    p.step = static_cast<int64_t>(i) + 1;
    p.loss = losses[i];
    out.push_back(p);
  }
  return out;
}

TEST(Determinism, BitwiseIdenticalOrFirstDifference) {
  std::vector<double> losses;
  for (int i = 0; i < 50; ++i) losses.push_back(1.0 / (1 + i));
  const DeterminismResult same = first_difference(points(losses), points(losses));
  EXPECT_TRUE(same.identical);
  EXPECT_FALSE(same.first_step.has_value());
  EXPECT_EQ(same.summary, "bitwise identical (50 steps)");

  std::vector<double> nudged = losses;
  nudged[16] = std::nextafter(nudged[16], 1.0);  // one ulp at step 17
  nudged[30] += 1;
  const DeterminismResult diff = first_difference(points(losses), points(nudged));
  EXPECT_FALSE(diff.identical);
  ASSERT_TRUE(diff.first_step.has_value());
  EXPECT_EQ(*diff.first_step, 17);
  EXPECT_GT(diff.abs_diff, 0);
  EXPECT_LT(diff.abs_diff, 1e-15);
  EXPECT_EQ(diff.summary.rfind("first difference at step 17", 0), 0u) << diff.summary;

  std::vector<double> shorter(losses.begin(), losses.begin() + 40);
  const DeterminismResult cut = first_difference(points(losses), points(shorter));
  EXPECT_FALSE(cut.identical);
  EXPECT_EQ(*cut.first_step, 41);
  EXPECT_TRUE(std::isnan(cut.other_loss));
  EXPECT_NE(cut.summary.find("50 vs 40 steps"), std::string::npos) << cut.summary;
}

}  // namespace
}  // namespace parity::engine
