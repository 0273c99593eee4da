// What the verdict allows where the runs are not identical: fp32 reordering's bound when no
// config difference changes the arithmetic, and the seeds' band at each point.
#include <gtest/gtest.h>
#include <parity/analysis/verdict.h>

#include <cmath>

#include "verdict_test_util.h"

namespace parity::analysis {
namespace {

using test::make_run;
using test::regression;

TEST(Compare, ReorderedSameArithmeticPointsAtRoundingOnlyWithinTheFp32Bound) {
  const CompareRun ref = make_run(1, regression(1, 16));
  CompareOptions tight;  // so a gap of reordering's size counts as different
  tight.abs_tolerance = 0;
  tight.rel_tolerance = 1e-6;
  // A gap that grows like compounded rounding: 0.5e-5 relative per step, under 1e-5 x (1 + k).
  const CompareRun reordered = make_run(2, regression(2, 8), [](double s) {
    return test::default_loss(s) * (1 + 0.5e-5 * (s / 16));
  });
  Comparison c = compare(ref, {reordered}, tight);
  ASSERT_EQ(c.rows[1].verdict, Verdict::kDifferent);
  ASSERT_EQ(c.rows[1].reasons.size(), 1u);
  EXPECT_EQ(c.rows[1].reasons[0].key, "rounding");
  EXPECT_NE(c.rows[1].reasons[0].text.find("within fp32 reordering"), std::string::npos);

  // A 1 % jump after 512 samples is no rounding (v0.1 called it one): the curves part at the
  // reference's step 33 (528 samples).
  const CompareRun jump = make_run(
      2, regression(2, 8), [](double s) { return test::default_loss(s) * (s > 512 ? 1.01 : 1.0); });
  c = compare(ref, {jump});
  ASSERT_EQ(c.rows[1].verdict, Verdict::kDifferent);
  ASSERT_EQ(c.rows[1].reasons.size(), 1u);
  EXPECT_EQ(c.rows[1].reasons[0].key, "unexplained");
  EXPECT_EQ(c.rows[1].reasons[0].text,
            "unexplained: possible bug — no config difference changes the arithmetic, and the "
            "curves part at the reference's step 33 (samples 528) (relative gap 0.01, beyond "
            "fp32 reordering's 1e-5 x (1 + point))");
}

// The case: three seeds of 1x16 that differ by ~5 at the first steps (loss ~15) and by
// ~0.01 late; a 2x16 run with an unscaled lr whose max gap (5.04) is under the seeds' max spread
// (5.23) but that ends 0.868 off. v0.1 called it equivalent; the band at each point does not.
TEST(Compare, TheSeedBandIsPerPointSoALateGapIsNotHiddenByAnEarlySpread) {
  const auto seeded = [](double early, double late) {
    return [early, late](double s) {
      const double t = s / 1024.0;
      return test::default_loss(s) + 14 * std::exp(-40 * t) + early * std::exp(-40 * t) + late * t;
    };
  };
  CompareRun ref = make_run(1, regression(1, 16), seeded(0, 0));
  config::RunConfig s2 = regression(1, 16), s3 = regression(1, 16), two = regression(2, 16);
  s2.seed = 2;
  s3.seed = 3;
  CompareRun seed2 = make_run(2, s2, seeded(5.23, 0.004));
  CompareRun seed3 = make_run(3, s3, seeded(2.5, 0.017));
  CompareRun unscaled = make_run(4, two, seeded(5.04, 0.868));
  ref.final_eval_loss = 0.50;
  seed2.final_eval_loss = 0.498;
  seed3.final_eval_loss = 0.499;
  unscaled.final_eval_loss = 0.728;
  const Comparison c = compare(ref, {seed2, seed3, unscaled});
  const RunComparison& row = c.rows[3];
  EXPECT_EQ(row.verdict, Verdict::kDifferent) << row.summary;
  EXPECT_GT(row.outside_fraction, 0.5);
  // The old rule (max gap under the seeds' largest spread anywhere) would have passed it.
  EXPECT_GT(row.noise_floor, row.delta.max_abs);
  // The seeds themselves stay inside their band.
  EXPECT_EQ(c.rows[1].verdict, Verdict::kEquivalent) << c.rows[1].summary;

  // Inside the band everywhere but with an evaluation far outside the seeds': still different.
  CompareRun close_run = make_run(5, two, seeded(1.0, 0.002));
  close_run.final_eval_loss = 0.728;
  const RunComparison eval_row = compare(ref, {seed2, seed3, close_run}).rows[3];
  EXPECT_EQ(eval_row.verdict, Verdict::kDifferent) << eval_row.summary;
  EXPECT_TRUE(eval_row.final_eval_outside);
  ASSERT_FALSE(eval_row.reasons.empty());
  EXPECT_EQ(eval_row.reasons[0].key, "final_eval");
  close_run.final_eval_loss = 0.4995;
  EXPECT_EQ(compare(ref, {seed2, seed3, close_run}).rows[3].verdict, Verdict::kEquivalent);
}

}  // namespace
}  // namespace parity::analysis
