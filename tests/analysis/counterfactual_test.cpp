// Counterfactual configs: the run aligned with the reference on one cause alone, and on all.
#include <gtest/gtest.h>
#include <parity/analysis/counterfactual.h>
#include <parity/config/batch_plan.h>

#include "verdict_test_util.h"

namespace parity::analysis {
namespace {

using test::regression;

const Counterfactual* find(const std::vector<Counterfactual>& cfs, const std::string& cause) {
  for (const auto& c : cfs)
    if (c.cause == cause) return &c;
  return nullptr;
}

TEST(Counterfactuals, EachCauseAlignedAloneThenAllTogether) {
  // The case: 2x16 with the lr unscaled and another seed vs 1x16, on 77 samples.
  config::RunConfig ref = regression(1, 16), run = regression(2, 16);
  run.seed = 3;
  const Diagnosis d = diagnose(run, ref, 77, 77);
  const auto cfs = counterfactuals(run, ref, d.causes, 77, 77);
  const Counterfactual* batch = find(cfs, "global_batch");
  ASSERT_TRUE(batch && batch->config);
  EXPECT_EQ(batch->config->per_device_batch_size, 8);
  EXPECT_EQ(batch->config->seed, 3);  // that cause alone
  const Counterfactual* lr = find(cfs, "effective_lr");
  ASSERT_TRUE(lr && lr->config);
  EXPECT_DOUBLE_EQ(lr->config->lr, 2 * ref.lr);  // scaled linearly with the global batch
  const Counterfactual* pad = find(cfs, "padding");
  ASSERT_TRUE(pad && pad->config);
  EXPECT_FALSE(pad->config->even_batches);
  EXPECT_EQ(pad->config->loss_normalization, config::LossNormalization::kGlobal);
  const Counterfactual* seed = find(cfs, "seed");
  ASSERT_TRUE(seed && seed->config);
  EXPECT_EQ(seed->config->seed, 42);
  const Counterfactual* all = find(cfs, "all");
  ASSERT_TRUE(all && all->config);
  EXPECT_EQ(all->config->per_device_batch_size, 8);
  EXPECT_EQ(all->config->seed, 42);
  EXPECT_FALSE(all->config->even_batches);
  EXPECT_EQ(config::global_batch_size(*all->config), config::global_batch_size(ref));
  // Nothing left that a change of the run could align, but the deliberate tail handling.
  for (const Reason& r : diagnose(*all->config, ref, 77, 77).causes) {
    EXPECT_TRUE(r.key == "even_batches" || r.key == "loss_normalization")
        << r.key << ": " << r.text;
  }
}

TEST(Counterfactuals, CausesNoChangeOfTheRunIsolatesSayWhy) {
  config::RunConfig ref = regression(1, 16), run = regression(2, 8);
  ref.model = run.model = config::ModelKind::kMlp;
  ref.batch_norm = run.batch_norm = true;
  const auto cfs = counterfactuals(run, ref, diagnose(run, ref).causes);
  const Counterfactual* bn = find(cfs, "batch_norm");
  ASSERT_TRUE(bn);
  EXPECT_FALSE(bn->config);
  EXPECT_NE(bn->why_not.find("cannot equal those over 16"), std::string::npos) << bn->why_not;
}

TEST(Counterfactuals, JudgedConfirmedPartlyOrNot) {
  RunComparison original, cf;
  original.verdict = cf.verdict = Verdict::kDifferent;
  original.worst_ratio = 100;
  cf.worst_ratio = 60;
  EXPECT_EQ(judge_counterfactual(original, cf).proof, Proof::kNotConfirmed);
  cf.worst_ratio = 10;
  const ProofResult partly = judge_counterfactual(original, cf);
  EXPECT_EQ(partly.proof, Proof::kPartly);
  EXPECT_EQ(partly.text, "partly: the gap shrinks 10x (worst gap 10x the allowed, was 100x)");
  cf.verdict = Verdict::kEquivalent;
  cf.worst_ratio = 0.5;
  EXPECT_EQ(judge_counterfactual(original, cf).proof, Proof::kConfirmed);
}

}  // namespace
}  // namespace parity::analysis
