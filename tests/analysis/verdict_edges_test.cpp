// The verdict's thresholds pinned at their edges, just inside and just outside: the share of
// points a seed group allows outside its band (5 %) and fp32's reordering bound (relative 1e-5)
// that says where the curves part.
#include <gtest/gtest.h>
#include <parity/analysis/verdict.h>

#include <string>

#include "verdict_test_util.h"

namespace parity::analysis {
namespace {

using test::make_run;
using test::regression;
using test::text_of;

// 20 points at a global batch of 64 (1,280 samples); a seed group of the reference 0.04 wide.
// The compared run sits 0.03 above the reference (inside the band) except at its first
// `spikes` points, where it is 0.1 above (outside).
Verdict with_points_outside(int spikes) {
  config::RunConfig s1 = regression(1, 64), s2 = s1, s3 = s1;
  s2.seed = 2;
  s3.seed = 3;
  const auto shifted = [](double d) { return [d](double s) { return test::default_loss(s) + d; }; };
  const CompareRun ref = make_run(1, s1, test::default_loss, 1280);
  const CompareRun seed2 = make_run(2, s2, shifted(0.02), 1280);
  const CompareRun seed3 = make_run(3, s3, shifted(-0.02), 1280);
  const double last_spike = 64.0 * spikes;
  const CompareRun run = make_run(
      4, regression(2, 32),
      [last_spike](double s) { return test::default_loss(s) + (s <= last_spike ? 0.1 : 0.03); },
      1280);
  const Comparison c = compare(ref, {seed2, seed3, run});
  EXPECT_EQ(c.groups.size(), 1u);
  EXPECT_NEAR(c.rows[3].outside_fraction, spikes / 20.0, 1e-12);
  return c.rows[3].verdict;
}

TEST(VerdictEdges, FivePerCentOfThePointsOutsideTheSeedBandIsStillEquivalent) {
  EXPECT_EQ(with_points_outside(0), Verdict::kEquivalent);
  EXPECT_EQ(with_points_outside(1), Verdict::kEquivalent);  // 1 of 20: exactly 5 %
  EXPECT_EQ(with_points_outside(2), Verdict::kDifferent);   // 2 of 20: 10 %
}

// 1x64 vs 2x32 (the same arithmetic, the sums in another order), different from the 15th point
// on; earlier the relative gap is `early` at the 5th point and `mid` at the 10th.
std::string parting_text(double early, double mid) {
  config::RunConfig a = regression(1, 64), b = regression(2, 32);
  a.threads_per_rank = b.threads_per_rank = 1;
  const CompareRun ref = make_run(
      1, a, [](double) { return 0.5; }, 1280);
  const CompareRun run = make_run(
      2, b,
      [=](double s) {
        if (s == 5 * 64) return 0.5 * (1 + early);
        if (s == 10 * 64) return 0.5 * (1 + mid);
        return s >= 15 * 64 ? 0.6 : 0.5;
      },
      1280);
  const Comparison c = compare(ref, {run});
  EXPECT_EQ(c.rows[1].verdict, Verdict::kDifferent);
  return text_of(c.rows[1].reasons, "summation_order");
}

TEST(VerdictEdges, TheCurvesPartWhereTheRelativeGapFirstPassesFp32Precision) {
  const std::string inside = parting_text(0.999e-5, 0.999e-5);
  EXPECT_NE(inside.find("the reference's step 15 "), std::string::npos) << inside;
  const std::string outside = parting_text(0.999e-5, 1.001e-5);
  EXPECT_NE(outside.find("the reference's step 10 "), std::string::npos) << outside;
  const std::string first = parting_text(1.001e-5, 1.001e-5);
  EXPECT_NE(first.find("the reference's step 5 "), std::string::npos) << first;
}

}  // namespace
}  // namespace parity::analysis
