// Counterfactual configs: the run aligned with the reference on one cause alone, and on all.
#include <gtest/gtest.h>
#include <parity/analysis/counterfactual.h>
#include <parity/config/batch_plan.h>

#include "verdict_test_util.h"

namespace parity::analysis {
namespace {

using test::has_key;
using test::regression;
using test::text_of;

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
  // Accumulation: batch norm sees 8 samples a micro-batch on one process; nothing makes it 16.
  config::RunConfig ref = regression(1, 16), run = regression(1, 8, 2);
  ref.model = run.model = config::ModelKind::kMlp;
  ref.batch_norm = run.batch_norm = true;
  const auto cfs = counterfactuals(run, ref, diagnose(run, ref).causes);
  const Counterfactual* bn = find(cfs, "batch_norm");
  ASSERT_TRUE(bn);
  EXPECT_FALSE(bn->config);
  EXPECT_NE(bn->why_not.find("over 8 samples cannot equal those over 16"), std::string::npos)
      << bn->why_not;
  // On 4 processes of 8, synchronised statistics take 32 samples: not 16 either.
  const config::RunConfig four = regression(4, 8);
  const auto cfs4 = counterfactuals(four, ref, diagnose(four, ref).causes);
  const Counterfactual* bn4 = find(cfs4, "batch_norm");
  ASSERT_TRUE(bn4);
  EXPECT_FALSE(bn4->config);
  EXPECT_NE(bn4->why_not.find("(with or without sync batch norm)"), std::string::npos)
      << bn4->why_not;
}

// 2x8 against 1x16: batch norm over each rank's 8 samples against 16; sync batch norm takes the
// statistics over both ranks' 16, the reference's batch, and leaves no batch-norm cause.
TEST(Counterfactuals, SyncBatchNormAlignsTheBatchNormCause) {
  config::RunConfig ref = regression(1, 16), run = regression(2, 8);
  ref.model = run.model = config::ModelKind::kMlp;
  ref.batch_norm = run.batch_norm = true;
  const Diagnosis d = diagnose(run, ref);
  EXPECT_EQ(text_of(d.causes, "batch_norm"),
            "batch norm normalises over the per-device batch: 8 vs 16 samples (a different "
            "model, not a reordering)");
  const auto cfs = counterfactuals(run, ref, d.causes);
  const Counterfactual* bn = find(cfs, "batch_norm");
  ASSERT_TRUE(bn && bn->config) << (bn ? bn->why_not : "none");
  EXPECT_TRUE(bn->config->sync_batch_norm);
  EXPECT_EQ(bn->change, "sync batch norm on: statistics over 16 samples, as the reference's");
  EXPECT_FALSE(has_key(diagnose(*bn->config, ref).causes, "batch_norm"));
  // The other way round: the reference synchronises 4 ranks of 4, the run is one process of 16.
  config::RunConfig synced = regression(4, 4);
  synced.model = config::ModelKind::kMlp;
  synced.batch_norm = synced.sync_batch_norm = true;
  EXPECT_FALSE(has_key(diagnose(synced, ref).causes, "batch_norm"));
  EXPECT_EQ(text_of(diagnose(run, synced).causes, "batch_norm"),
            "batch norm normalises over 8 vs 16 (every rank's, synchronised) samples (a "
            "different model, not a reordering)");
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
