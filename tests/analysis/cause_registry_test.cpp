// The cause registry: every cause once, each counterfactual built through the config's own field
// table, and the combined proof (every differing fact set to the reference's) for each pair.
#include <gtest/gtest.h>
#include <parity/analysis/cause.h>
#include <parity/analysis/counterfactual.h>
#include <parity/analysis/remedy.h>
#include <parity/config/batch_plan.h>

#include <functional>
#include <set>
#include <string>

#include "verdict_test_util.h"

namespace parity::analysis {
namespace {

using test::regression;

const Counterfactual* find(const std::vector<Counterfactual>& cfs, const std::string& cause) {
  for (const auto& c : cfs)
    if (c.cause == cause) return &c;
  return nullptr;
}

TEST(CauseRegistry, EveryKeyOnceWithALabelAndHowItIsAligned) {
  std::set<std::string> keys;
  for (const CauseInfo& c : cause_registry()) {
    EXPECT_TRUE(keys.insert(std::string(c.key)).second) << c.key;
    EXPECT_FALSE(c.label.empty()) << c.key;
    EXPECT_FALSE(c.diagnosed.empty()) << c.key;
    EXPECT_FALSE(c.aligned.empty()) << c.key;
  }
  EXPECT_EQ(cause_label("global_batch"), "global batch");
  EXPECT_EQ(cause_label("threads_per_rank"), "summation order (threads)");
  EXPECT_FALSE(cause_info("dropout").alignable);
  // An experiment key has no entry of its own: the generic one, labelled by the key.
  EXPECT_EQ(cause_info("hidden").key, "experiment");
  EXPECT_EQ(cause_label("hidden"), "hidden");
  EXPECT_EQ(cause_info("all but batch_norm").key, "all");
}

// One difference from the reference per cause, and the key the verdict names it by.
struct OneCause {
  const char* key;
  std::function<void(config::RunConfig&)> make;
};
config::RunConfig base() {
  config::RunConfig c = regression(1, 16);
  c.model = config::ModelKind::kMlp;
  c.hidden = {8, 4};
  c.threads_per_rank = 2;
  return c;
}
const std::vector<OneCause>& one_causes() {
  static const std::vector<OneCause> kCauses = {
      {"global_batch", [](config::RunConfig& c) { c.per_device_batch_size = 32; }},
      {"effective_lr", [](config::RunConfig& c) { c.lr = 0.1; }},
      {"seed", [](config::RunConfig& c) { c.seed = 7; }},
      {"mixed_precision",
       [](config::RunConfig& c) { c.mixed_precision = config::MixedPrecision::kBf16; }},
      {"hidden", [](config::RunConfig& c) { c.hidden = {16}; }},
      {"threads_per_rank", [](config::RunConfig& c) { c.threads_per_rank = 1; }},
      {"device_specific_seed", [](config::RunConfig& c) { c.device_specific_seed = true; }},
      {"data_order", [](config::RunConfig& c) { c.use_seedable_sampler = false; }},
      {"lr_schedule", [](config::RunConfig& c) { c.warmup_steps = 8; }},
  };
  return kCauses;
}

// #24 item 3: each cause's counterfactual is set through set_field_from_text, so lists, enums and
// booleans reach the run as the command line reads them ("hidden: '[256,128]' is not allowed").
TEST(CauseRegistry, EachCauseAloneIsAlignedThroughTheFieldTable) {
  const config::RunConfig ref = base();
  for (const OneCause& one : one_causes()) {
    config::RunConfig run = ref;
    one.make(run);
    const Diagnosis d = diagnose(run, ref, 1024, 1024);
    ASSERT_TRUE(test::has_key(d.causes, one.key)) << one.key;
    const auto cfs = counterfactuals(run, ref, d.causes, 1024, 1024);
    const Counterfactual* cf = find(cfs, one.key);
    ASSERT_TRUE(cf && cf->config) << one.key << ": " << (cf ? cf->why_not : "none");
    EXPECT_FALSE(test::has_key(diagnose(*cf->config, ref, 1024, 1024).causes, one.key))
        << one.key << ": " << cf->change;
    EXPECT_NO_THROW(config::validate(*cf->config)) << one.key;
  }
}

// The combined proof for every pair of causes: every differing fact is the reference's, so no
// cause is left (the run keeps its own setup: processes, accumulation).
TEST(CauseRegistry, TheCombinedProofAlignsEveryPairOfCauses) {
  const config::RunConfig ref = base();
  const auto& all = one_causes();
  for (size_t i = 0; i < all.size(); ++i) {
    for (size_t j = i + 1; j < all.size(); ++j) {
      config::RunConfig run = ref;
      all[i].make(run);
      all[j].make(run);
      const Diagnosis d = diagnose(run, ref, 1024, 1024);
      const auto cfs = counterfactuals(run, ref, d.causes, 1024, 1024);
      const Counterfactual* combined = find(cfs, "all");
      if (!combined) {
        // One cause only (lr 0.1 at twice the batch is linear scaling, not a cause).
        EXPECT_LT(d.causes.size(), 2u) << all[i].key << " + " << all[j].key;
        continue;
      }
      ASSERT_TRUE(combined->config) << all[i].key << " + " << all[j].key;
      const Diagnosis after = diagnose(*combined->config, ref, 1024, 1024);
      EXPECT_TRUE(after.causes.empty())
          << all[i].key << " + " << all[j].key << ": " << after.causes.at(0).text << " ("
          << combined->change << ")";
    }
  }
}

// The case: 1x32 lr 0.1 with a linear warm-up of 20 vs 4 processes --split-batches
// --per-device-batch-size 128. Aligning the global batch alone is right; the combined proof must
// keep the reference's lr (0.1), not scale it again to 0.4.
TEST(CauseRegistry, TheCombinedProofKeepsTheReferencesLrWhenTheBatchIsAligned) {
  config::RunConfig ref = regression(1, 32);
  ref.lr = 0.1;
  ref.scheduler = config::SchedulerKind::kLinear;
  ref.warmup_steps = 20;
  config::RunConfig run = ref;
  run.num_processes = 4;
  run.split_batches = true;
  run.per_device_batch_size = 128;
  const Diagnosis d = diagnose(run, ref, 1024, 1024);
  ASSERT_TRUE(test::has_key(d.causes, "global_batch"));
  // The remedy is the global batch's counterfactual itself here: it is trained once, not twice.
  const auto cfs = counterfactuals(run, ref, d.causes, 1024, 1024);
  EXPECT_FALSE(find(cfs, "all"));
  const Counterfactual* batch = find(cfs, "global_batch");
  ASSERT_TRUE(batch && batch->config);
  const Remedy fix = remedy(run, ref, 1024, 1024);
  EXPECT_EQ(config::to_json(*batch->config), config::to_json(fix.config));
  const config::RunConfig& c = fix.config;
  EXPECT_EQ(config::global_batch_size(c), 32);
  EXPECT_DOUBLE_EQ(config::effective_lr(c), 0.1) << fix.changes_text();
  EXPECT_EQ(c.num_processes, 4);
  EXPECT_TRUE(diagnose(c, ref, 1024, 1024).causes.empty()) << fix.changes_text();
}

// A cause no setup of the run's shape can align is left out of the combined proof, and its name
// says so.
TEST(CauseRegistry, ACombinedProofThatLeavesACauseOutSaysSoInItsName) {
  // Batch norm over 8-sample micro-batches on 4 processes: no per-device batch of 4 processes
  // gives the reference's global batch 6.
  config::RunConfig ref = regression(1, 6), run = regression(4, 8);
  ref.model = run.model = config::ModelKind::kMlp;
  ref.batch_norm = run.batch_norm = true;
  run.seed = 3;
  const auto cfs = counterfactuals(run, ref, diagnose(run, ref, 1024, 1024).causes, 1024, 1024);
  const Counterfactual* combined = find(cfs, "all but global_batch, batch_norm");
  ASSERT_TRUE(combined && combined->config);
  EXPECT_NE(combined->change.find("left out: no per-device batch on 4 processes gives 6"),
            std::string::npos)
      << combined->change;
  EXPECT_EQ(combined->config->seed, 42);
}

// Accumulation's micro-batch is the batch norm's: the remedy trains the reference's batch in one
// micro-batch (accumulation 1), which aligns both.
TEST(CauseRegistry, TheRemedyChangesTheAccumulationWhereBatchNormNeedsIt) {
  config::RunConfig ref = regression(1, 16), run = regression(1, 8, 2);
  ref.model = run.model = config::ModelKind::kMlp;
  ref.batch_norm = run.batch_norm = true;
  run.seed = 3;
  run.lr = 0.2;
  const auto cfs = counterfactuals(run, ref, diagnose(run, ref, 1024, 1024).causes, 1024, 1024);
  const Counterfactual* combined = find(cfs, "all");
  ASSERT_TRUE(combined && combined->config);
  EXPECT_EQ(combined->config->per_device_batch_size, 16);
  EXPECT_EQ(combined->config->gradient_accumulation_steps, 1);
  EXPECT_TRUE(diagnose(*combined->config, ref, 1024, 1024).causes.empty()) << combined->change;
}

}  // namespace
}  // namespace parity::analysis
