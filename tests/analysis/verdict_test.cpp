#include <gtest/gtest.h>
#include <parity/analysis/verdict.h>

#include <cmath>
#include <cstdio>
#include <functional>
#include <limits>

#include "verdict_test_util.h"

namespace parity::analysis {
namespace {

using test::has_key;
using test::make_run;
using test::regression;
using test::text_of;

// The verdict's own number format ("%.*g").
std::string fmt(double v, int digits = 6) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.*g", digits, v);
  return buf;
}
std::string fmt4(double v) { return fmt(v, 4); }

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const AnalysisError& e) {
    return e.what();
  }
  return "(no AnalysisError)";
}

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
  EXPECT_EQ(c.rows[1].summary,
            "equivalent within tolerance: max |Δloss| 0, within tolerance 0.0001 + 0.001×|loss|; "
            "configs differ in: num_processes, per_device_batch_size");
  EXPECT_EQ(c.rows[0].summary, "reference: final loss " + fmt4(test::default_loss(1024)));
  // Throughput: 2x8 at 1800 samples/s against the 1-process run of the same per-device batch.
  ASSERT_TRUE(c.baseline_id.has_value());
  EXPECT_EQ(*c.baseline_id, 3);
  EXPECT_DOUBLE_EQ(c.rows[1].per_device_samples_per_s, 900);
  ASSERT_TRUE(c.rows[1].scaling_efficiency.has_value());
  EXPECT_DOUBLE_EQ(*c.rows[1].scaling_efficiency, 0.9);
  EXPECT_DOUBLE_EQ(*c.rows[0].scaling_efficiency, 1.0);
}

TEST(Compare, TheFirstPointAboveTheAllowedGapIsWhereTheCurvesPart) {
  const config::RunConfig config = regression(1, 16);
  const CompareRun ref = make_run(1, config, [](double) { return 1.0; });
  // Equal up to 512 samples, then 1 % above: the tolerance at loss 1 is 0.0011.
  const CompareRun late = make_run(2, config, [](double s) { return s <= 512 ? 1.0 : 1.01; });
  const CompareRun same = make_run(3, config, [](double) { return 1.0; });
  const Comparison c = compare(ref, {late, same});
  ASSERT_EQ(c.rows[1].verdict, Verdict::kDifferent);
  ASSERT_TRUE(c.rows[1].first_outside_x.has_value());
  EXPECT_DOUBLE_EQ(*c.rows[1].first_outside_x, 528);  // the first point past 512, at 16 a step
  EXPECT_FALSE(c.rows[2].first_outside_x.has_value());
  EXPECT_FALSE(c.rows[0].first_outside_x.has_value());
}

TEST(Compare, UnscaledLrIsDifferentAndExplained) {
  config::RunConfig base = regression(1, 64);
  config::RunConfig two = regression(2, 64);  // lr_scaling none: 0.05 on 2 processes
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
            "learning rate not scaled with the number of processes (lr 0.05 on 2 processes vs 0.05 on "
            "1, neither scaled); scaled linearly in the processes, as Accelerate's guide does "
            "(--lr-scaling linear), it would be 0.1; linearly in the global batch (128 vs 64), "
            "0.1; by its square root, 0.0707107");
  EXPECT_EQ(text_of(row.reasons, "global_batch"),
            "global batch 128 vs 64 (per-device batch 32 on 2 processes would match)");
  EXPECT_TRUE(has_key(row.info, "num_processes"));
  EXPECT_EQ(row.summary, "different: max |Δloss| 0.05 at samples " + fmt(row.delta.x_at_max) +
                             " (" + fmt(row.worst_ratio, 3) +
                             "× the allowed gap: tolerance 0.0001 + 0.001×|loss|); " +
                             text_of(row.reasons, "global_batch") + "; " +
                             text_of(row.reasons, "effective_lr") + "; " + row.delta.range_note);
  EXPECT_EQ(row.delta.range_note,
            "runs cover different samples ranges: this run 128–1024, reference 64–1024; compared "
            "on 128–1024 only (93.3% of the reference)");
  EXPECT_EQ(text_of(row.info, "range"), row.delta.range_note);
  EXPECT_EQ(row.info.front().key, "range");  // the range note comes first
  // The worst point is where the reference loss is least: 0.05 / (1e-4 + 1e-3 * 0.488).
  EXPECT_NEAR(row.worst_ratio, 0.05 / (1e-4 + 1e-3 * (1 - 1024.0 / 2000)), 1e-6);
  EXPECT_EQ(row.delta.points, 15u);  // the reference's first point (64) is before the other's
  EXPECT_EQ(row.delta_curve.size(), 15u);
  EXPECT_NEAR(row.delta_curve.y[0], 0.05, 1e-12);
}

TEST(Compare, SameConfigDifferentCurveIsUnexplained) {
  config::RunConfig recorded = regression(1, 16);
  recorded.threads_per_rank = 2;  // the same summation order, recorded on both
  const CompareRun ref = make_run(1, recorded);
  const CompareRun rerun = make_run(
      2, recorded, [](double s) { return test::default_loss(s) * (s > 512 ? 1.01 : 1.0); });
  const Comparison c = compare(ref, {rerun});
  EXPECT_TRUE(c.groups.empty());  // same seed: a rerun is no seed group
  ASSERT_EQ(c.rows[1].verdict, Verdict::kDifferent);
  ASSERT_EQ(c.rows[1].reasons.size(), 1u);
  EXPECT_EQ(c.rows[1].reasons[0].key, "unexplained");
  EXPECT_TRUE(c.rows[1].config_diff.empty());
  EXPECT_GT(c.rows[1].delta.x_at_max, 512);
}

TEST(Compare, SeedGroupGivesTheNoiseFloor) {
  config::RunConfig s1 = regression(1, 64), s2 = s1, s3 = s1;
  s2.seed = 2;
  s3.seed = 3;
  const auto shifted = [](double d) { return [d](double s) { return test::default_loss(s) + d; }; };
  const CompareRun ref = make_run(1, s1);
  const CompareRun seed2 = make_run(2, s2, shifted(0.02));
  const CompareRun seed3 = make_run(3, s3, shifted(-0.02));
  config::RunConfig two = regression(2, 32);
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
  EXPECT_FALSE(has_key(c.rows[3].info, "seed_band"));  // three seeds are a band
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
  // The allowed gap is noise_factor x the floor: 0.03 against 0.04 is 0.75 of it, against half
  // the floor 1.5.
  EXPECT_NEAR(c.rows[3].worst_ratio, 0.75, 1e-9);
  CompareOptions strict;
  strict.noise_factor = 0.5;
  const RunComparison halved = compare(ref, {seed2, seed3, close_run}, strict).rows[3];
  EXPECT_EQ(halved.verdict, Verdict::kDifferent);
  EXPECT_NEAR(halved.worst_ratio, 1.5, 1e-9);
}

TEST(Compare, SeedGroupOfTheComparedSetupGivesItsOwnFloor) {
  // The reference has no seeds beside it; the compared setup has two, 0.06 apart.
  const auto shifted = [](double d) { return [d](double s) { return test::default_loss(s) + d; }; };
  const CompareRun ref = make_run(1, regression(1, 64));
  config::RunConfig a = regression(2, 32), b = a;
  b.seed = 2;
  const CompareRun near = make_run(2, a, shifted(0.03));
  const CompareRun far = make_run(3, b, shifted(0.09));
  const Comparison c = compare(ref, {near, far});
  ASSERT_EQ(c.groups.size(), 1u);
  EXPECT_EQ(c.groups[0].indices, (std::vector<size_t>{1, 2}));
  EXPECT_EQ(c.rows[0].noise_floor, 0);
  for (size_t i : {1, 2}) {
    EXPECT_NEAR(c.rows[i].noise_floor, 0.06, 1e-12);
    EXPECT_EQ(c.rows[i].noise_source, "spread of 2 seeds of this setup");
  }
  EXPECT_EQ(c.rows[1].verdict, Verdict::kEquivalent) << c.rows[1].summary;
  EXPECT_EQ(c.rows[1].summary.rfind("equivalent within seed noise: max |Δloss| 0.03", 0), 0u)
      << c.rows[1].summary;
  EXPECT_NE(c.rows[1].summary.find(", within spread of 2 seeds of this setup (0.06)"),
            std::string::npos)
      << c.rows[1].summary;
  EXPECT_EQ(c.rows[2].verdict, Verdict::kDifferent);
  // Two seeds make a band that is their own gap: said, with what would make it a band.
  EXPECT_EQ(text_of(c.rows[1].info, "seed_band"),
            "the band is the gap between 2 seeds (0.06): a third seed of this setup gives a band "
            "to judge by");
}

TEST(Compare, SameSetupDifferentSeedsOnlyFormAGroup) {
  // A label and both seeds may differ within a group; any setup key splits it.
  config::RunConfig a = regression(1, 16), b = a, other = a;
  b.seed = 7;
  b.data_seed = 8;
  b.label = "other";
  other.seed = 9;
  other.num_processes = 2;
  other.per_device_batch_size = 8;
  const Comparison c = compare(make_run(1, a), {make_run(2, b), make_run(3, other)});
  ASSERT_EQ(c.groups.size(), 1u);
  EXPECT_EQ(c.groups[0].run_ids, (std::vector<int64_t>{1, 2}));
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

  // A share of the range the ends may differ by before it is noted.
  CompareOptions loose;
  loose.range_note_fraction = 0.6;
  const RunComparison tolerated = compare(ref, {half}, loose).rows[1];
  EXPECT_FALSE(tolerated.delta.different_ranges);
  EXPECT_TRUE(tolerated.delta.range_note.empty());
  EXPECT_FALSE(has_key(tolerated.info, "range"));

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
  ASSERT_TRUE(c.target_loss && c.rows[0].samples_to_target && c.rows[1].samples_to_target &&
              c.rows[1].final_eval_loss_delta && c.rows[1].final_accuracy_delta &&
              c.rows[1].scaling_efficiency);
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
  ASSERT_TRUE(d.target_loss.has_value());
  EXPECT_NEAR(*d.target_loss, 1.1 * tail, 1e-12);
  EXPECT_FALSE(d.rows[1].samples_to_target.has_value());  // slow never gets there
  CompareOptions doubled;
  doubled.target_factor = 2;
  EXPECT_NEAR(*compare(ref, {slow}, doubled).target_loss, 2 * tail, 1e-12);
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
  EXPECT_EQ(row.reasons[0].text, "loss is NaN or infinite at 1 compared points (diverged)");
  EXPECT_EQ(row.delta.points, 63u);  // the NaN point is not compared
  EXPECT_EQ(row.delta_curve.size(), 64u);
  EXPECT_TRUE(std::isnan(row.delta_curve.y[40]));
}

TEST(Compare, EmptyCurveIsNotComparable) {
  const CompareRun ref = make_run(1, regression(1, 16));
  CompareRun empty = make_run(2, regression(1, 16));
  empty.points.clear();
  const RunComparison row = compare(ref, {empty}).rows[1];
  EXPECT_EQ(row.verdict, Verdict::kNotComparable);
  EXPECT_EQ(row.summary, "not comparable: an empty curve");
  EXPECT_EQ(row.delta.points, 0u);
  EXPECT_FALSE(row.final_loss.has_value());
  EXPECT_FALSE(row.samples_to_target.has_value());
}

TEST(Compare, EmaIsAppliedToEveryCurveBeforeComparing) {
  // Comparing with ema_weight must give what comparing the pre-smoothed curves gives.
  const auto wiggle = [](double phase) {
    return [phase](double s) { return test::default_loss(s) + 0.02 * std::sin(s / 16 + phase); };
  };
  const CompareRun ref = make_run(1, regression(1, 16), wiggle(0));
  const CompareRun other = make_run(2, regression(2, 8), wiggle(1));
  const auto smoothed = [](CompareRun run) {
    std::vector<double> loss;
    for (const CurvePoint& p : run.points) loss.push_back(p.loss);
    loss = ema(loss, EmaOptions{0.8, true});
    for (size_t i = 0; i < loss.size(); ++i) run.points[i].loss = loss[i];
    return run;
  };
  CompareOptions with_ema;
  with_ema.ema_weight = 0.8;
  const RunComparison row = compare(ref, {other}, with_ema).rows[1];
  const RunComparison by_hand = compare(smoothed(ref), {smoothed(other)}).rows[1];
  const RunComparison raw = compare(ref, {other}).rows[1];
  EXPECT_DOUBLE_EQ(row.delta.max_abs, by_hand.delta.max_abs);
  EXPECT_DOUBLE_EQ(row.epoch_delta.max_abs, by_hand.epoch_delta.max_abs);
  EXPECT_DOUBLE_EQ(row.worst_ratio, by_hand.worst_ratio);
  EXPECT_EQ(row.delta_curve.y, by_hand.delta_curve.y);
  EXPECT_LT(row.delta.max_abs, raw.delta.max_abs);  // smoothing did something
}

TEST(Compare, BadOptionsThrow) {
  const CompareRun ref = make_run(1, regression(1, 16));
  CompareOptions bad;
  bad.abs_tolerance = -1;
  EXPECT_THROW(compare(ref, {}, bad), AnalysisError);
  EXPECT_EQ(error_of([&] { compare(ref, {}, bad); }),
            "compare: tolerances, noise_factor and range_note_fraction must be >= 0 and "
            "target_factor > 0 (abs_tolerance -1, rel_tolerance 0.001, noise_factor 1, "
            "target_factor 1.1)");
  CompareOptions bad_ema;
  bad_ema.ema_weight = 1.5;
  EXPECT_THROW(compare(ref, {}, bad_ema), AnalysisError);
  const auto throws_with = [&](const std::function<void(CompareOptions&)>& set) {
    CompareOptions o;
    set(o);
    return error_of([&] { compare(ref, {}, o); }).rfind("compare: ", 0) == 0;
  };
  EXPECT_TRUE(throws_with([](CompareOptions& o) { o.rel_tolerance = -1e-3; }));
  EXPECT_TRUE(throws_with([](CompareOptions& o) { o.noise_factor = -1; }));
  EXPECT_TRUE(throws_with([](CompareOptions& o) { o.target_factor = 0; }));
  EXPECT_TRUE(throws_with([](CompareOptions& o) { o.range_note_fraction = -0.1; }));
  EXPECT_TRUE(throws_with(
      [](CompareOptions& o) { o.abs_tolerance = std::numeric_limits<double>::quiet_NaN(); }));
  EXPECT_FALSE(throws_with([](CompareOptions& o) { o.abs_tolerance = 0; }));
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
  ASSERT_TRUE(cut.first_step.has_value());
  EXPECT_EQ(*cut.first_step, 41);
  EXPECT_DOUBLE_EQ(cut.loss, losses[40]);
  EXPECT_TRUE(std::isnan(cut.other_loss));
  EXPECT_TRUE(std::isnan(cut.abs_diff));
  EXPECT_EQ(cut.summary,
            "identical for the first 40 steps, then only the first run has step 41 (50 vs 40 "
            "steps)");
  // The other way round: the second run is the longer one.
  const DeterminismResult longer = first_difference(points(shorter), points(losses));
  EXPECT_TRUE(std::isnan(longer.loss));
  EXPECT_DOUBLE_EQ(longer.other_loss, losses[40]);
  EXPECT_NE(longer.summary.find("only the second run has step 41"), std::string::npos)
      << longer.summary;
}

TEST(Determinism, StepNumbersThatDiverge) {
  std::vector<CurvePoint> a = points({1, 2, 3}), b = points({1, 2, 3});
  b[2].step = 4;
  const DeterminismResult r = first_difference(a, b);
  EXPECT_FALSE(r.identical);
  ASSERT_TRUE(r.first_step.has_value());
  EXPECT_EQ(*r.first_step, 3);
  EXPECT_EQ(r.summary, "step numbers diverge after 2 points: step 3 vs 4");
  // Losses compare by their bits: the same NaN on both sides is identical (NaN != NaN in
  // floating point).
  const std::vector<CurvePoint> nan = points({1, std::numeric_limits<double>::quiet_NaN()});
  EXPECT_TRUE(first_difference(nan, nan).identical);
}

}  // namespace
}  // namespace parity::analysis
