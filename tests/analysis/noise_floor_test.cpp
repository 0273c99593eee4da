// What the verdict allows where the runs are not identical: fp32 reordering's bound when no
// config difference changes the arithmetic, and the seeds' band at each point.
#include <gtest/gtest.h>
#include <parity/analysis/verdict.h>

#include <cmath>
#include <vector>

#include "verdict_test_util.h"

namespace parity::analysis {
namespace {

using test::make_run;
using test::regression;

// Reordered sums are never called a bug by compare alone: reordering error grows like any
// perturbation of a chaotic trajectory (1e-8 at step 50, 3e-4 at step 64 on 1x32 vs 2x16), so no
// bound on the gap tells it from a bug. Compare says "summation order or a bug" and where the
// curves part; explain tells them apart.
TEST(Compare, ReorderedSumsAreSummationOrderOrABugNeverAPossibleBug) {
  const CompareRun ref = make_run(1, regression(1, 16));
  CompareOptions tight;  // so a gap of reordering's size counts as different
  tight.abs_tolerance = 0;
  tight.rel_tolerance = 1e-6;
  const CompareRun reordered = make_run(
      2, regression(2, 8), [](double s) { return test::default_loss(s) * (1 + 1e-7 * (s / 16)); });
  Comparison c = compare(ref, {reordered}, tight);
  ASSERT_EQ(c.rows[1].verdict, Verdict::kDifferent);
  ASSERT_EQ(c.rows[1].reasons.size(), 1u);
  EXPECT_EQ(c.rows[1].reasons[0].key, "summation_order");
  EXPECT_NE(c.rows[1].reasons[0].text.find("agree to fp32 precision"), std::string::npos)
      << c.rows[1].reasons[0].text;

  // A 1 % jump after 512 samples, as a chaotic trajectory's reordering can grow to: still no
  // "possible bug" while the sums run in another order.
  const auto jump = [](double s) { return test::default_loss(s) * (s > 512 ? 1.01 : 1.0); };
  c = compare(ref, {make_run(2, regression(2, 8), jump)});
  ASSERT_EQ(c.rows[1].verdict, Verdict::kDifferent);
  ASSERT_EQ(c.rows[1].reasons.size(), 1u);
  EXPECT_EQ(c.rows[1].reasons[0].key, "summation_order");
  EXPECT_EQ(c.rows[1].reasons[0].text,
            "summation order or a bug: no config difference changes the arithmetic, but the "
            "sums run in another order (processes, per-device batch, accumulation or threads), "
            "whose fp32 rounding grows along the trajectory like any perturbation; the curves "
            "part at the reference's step 33 (samples 528) (relative gap 0.01) — `explain` "
            "tells them apart");

  // The same setup with unrecorded threads: the summation order cannot be excluded either.
  c = compare(ref, {make_run(2, regression(1, 16), jump)});
  EXPECT_EQ(c.rows[1].reasons.at(0).key, "summation_order");

  // Every key equal, the threads recorded and equal: then it is a possible bug.
  config::RunConfig same = regression(1, 16);
  same.threads_per_rank = 1;
  c = compare(make_run(1, same), {make_run(2, same, jump)});
  EXPECT_EQ(c.rows[1].reasons.at(0).key, "unexplained");
  EXPECT_EQ(c.rows[1].reasons[0].text.rfind("unexplained: possible bug", 0), 0u);
}

// Threads per rank recorded on both sides and different: the summation order is a cause with a
// counterfactual (the reference's thread count).
TEST(Compare, ThreadsPerRankDifferIsTheSummationOrderCause) {
  config::RunConfig one = regression(1, 16), two = regression(2, 8);
  one.threads_per_rank = 2;
  two.threads_per_rank = 1;
  const auto jump = [](double s) { return test::default_loss(s) * (s > 512 ? 1.01 : 1.0); };
  const Comparison c = compare(make_run(1, one), {make_run(2, two, jump)});
  ASSERT_EQ(c.rows[1].verdict, Verdict::kDifferent);
  ASSERT_EQ(c.rows[1].reasons.size(), 1u);
  EXPECT_EQ(c.rows[1].reasons[0].key, "threads_per_rank");
  EXPECT_EQ(c.rows[1].reasons[0].text.rfind("summation order: 1 thread vs 2 per rank", 0), 0u)
      << c.rows[1].reasons[0].text;
  // One side not recorded: information, and compare falls back to "summation order or a bug".
  two.threads_per_rank = 0;
  const Comparison unknown = compare(make_run(1, one), {make_run(2, two, jump)});
  EXPECT_EQ(unknown.rows[1].reasons.at(0).key, "summation_order");
  EXPECT_TRUE(test::has_key(unknown.rows[1].info, "threads_per_rank"));
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

// The seed's equivalent pairs never read as a possible bug from compare alone, whatever the gap:
// 1xB, 2xB/2, 4xB/4 and 1xB/2 with accumulation 2, with the threads recorded equal, recorded
// different (the default split gives a process of W ranks C/W threads) or not recorded.
TEST(Compare, TheSeedsEquivalentPairsAreNeverAPossibleBug) {
  struct Shape {
    int w;
    int64_t b;
    int k;
  };
  const std::vector<Shape> shapes = {{1, 32, 1}, {2, 16, 1}, {4, 8, 1}, {1, 16, 2}, {2, 8, 2}};
  const auto jump = [](double s) { return test::default_loss(s) * (s > 512 ? 1.05 : 1.0); };
  int pairs = 0;
  for (const Shape& a : shapes) {
    for (const Shape& b : shapes) {
      if (a.w == b.w && a.b == b.b && a.k == b.k) continue;
      for (int threads : {0, 1, 2}) {  // 0: not recorded; 2: the default split (C/W) differs
        config::RunConfig ra = regression(a.w, a.b, a.k), rb = regression(b.w, b.b, b.k);
        ra.threads_per_rank = threads == 0 ? 0 : (threads == 2 ? 2 / a.w + 1 : 1);
        rb.threads_per_rank = threads == 0 ? 0 : (threads == 2 ? 2 / b.w + 1 : 1);
        const Comparison c = compare(make_run(1, ra), {make_run(2, rb, jump)});
        ++pairs;
        ASSERT_EQ(c.rows[1].verdict, Verdict::kDifferent);
        for (const Reason& r : c.rows[1].reasons) {
          EXPECT_NE(r.key, "unexplained") << a.w << "x" << a.b << " ga" << a.k << " vs " << b.w
                                          << "x" << b.b << " ga" << b.k << ": " << r.text;
          EXPECT_EQ(r.text.find("possible bug"), std::string::npos) << r.text;
        }
      }
    }
  }
  EXPECT_EQ(pairs, 60);
}

}  // namespace
}  // namespace parity::analysis
