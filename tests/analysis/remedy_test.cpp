// The remedy: the whole setup of the run's shape with the reference's arithmetic, and the combined
// proof that trains exactly it.
#include <gtest/gtest.h>
#include <parity/analysis/counterfactual.h>
#include <parity/analysis/remedy.h>
#include <parity/config/batch_plan.h>
#include <parity/config/sampler.h>
#include <parity/config/valid_config.h>

#include "verdict_test_util.h"

namespace parity::analysis {
namespace {

using test::regression;

const Counterfactual* find(const std::vector<Counterfactual>& cfs, const std::string& cause) {
  for (const auto& c : cfs)
    if (c.cause == cause) return &c;
  return nullptr;
}

bool has(const std::vector<Reason>& reasons, const std::string& key) {
  for (const Reason& r : reasons)
    if (r.key == key) return true;
  return false;
}

// The first pair: 2x64 with linear lr scaling against 1x64. The global batch alone
// (2x32) would still train at lr 0.1; the remedy is 2x32 at the reference's 0.05, and the
// combined proof trains it although only one cause is named.
TEST(Remedy, TwoBySixtyFourLinearGetsTheBatchAndTheLr) {
  config::RunConfig ref = regression(1, 64), run = regression(2, 64);
  run.lr_scaling = config::LrScaling::kLinear;
  const Remedy r = remedy(run, ref, 1024, 1024);
  ASSERT_TRUE(r.needed());
  EXPECT_TRUE(r.exact());
  EXPECT_TRUE(r.noise.empty());
  EXPECT_EQ(r.config.num_processes, 2);
  EXPECT_EQ(r.config.per_device_batch_size, 32);
  EXPECT_DOUBLE_EQ(config::effective_lr(r.config), 0.05);
  EXPECT_EQ(r.config.lr_scaling, config::LrScaling::kLinear);  // the rule kept: --lr 0.025
  EXPECT_DOUBLE_EQ(r.config.lr, 0.025);
  EXPECT_TRUE(diagnose(r.config, ref, 1024, 1024).causes.empty());
  EXPECT_NE(r.setup_text().find("2 processes x 32 per device, accumulation 1 (global batch 64), "
                                "lr 0.05 after scaling"),
            std::string::npos)
      << r.setup_text();
  EXPECT_EQ(r.flags(), "--per-device-batch-size 32 --lr 0.025");

  const Diagnosis d = diagnose(run, ref, 1024, 1024);
  ASSERT_EQ(d.causes.size(), 1u);
  EXPECT_EQ(d.causes[0].text,
            "global batch 128 vs 64 (per-device batch 32 on 2 processes at lr 0.05 after scaling "
            "would match)");
  const auto cfs = counterfactuals(run, ref, d.causes, 1024, 1024);
  const Counterfactual* all = find(cfs, "all");
  ASSERT_TRUE(all && all->config) << "one cause named, and still the whole setup is trained";
  EXPECT_EQ(config::to_json(*all->config), config::to_json(r.config));
}

TEST(Remedy, AnEquivalentSetupNeedsNone) {
  const Remedy r = remedy(regression(2, 32), regression(1, 64), 1024, 1024);
  EXPECT_FALSE(r.needed()) << r.changes_text();
  EXPECT_TRUE(r.exact());
  EXPECT_TRUE(r.noise.empty());
  EXPECT_FALSE(remedy(regression(4, 8, 2), regression(1, 64), 1024, 1024).needed());
}

// even_batches' repeated samples are removed, not imitated: even_batches off with every item
// weighted alike is the single device's short last batch.
TEST(Remedy, RepeatedSamplesAreRemoved) {
  const config::RunConfig ref = regression(1, 64), run = regression(2, 32);
  ASSERT_TRUE(has(diagnose(run, ref, 1000, 1000).causes, "padding"));
  const Remedy r = remedy(run, ref, 1000, 1000);
  ASSERT_TRUE(r.needed());
  EXPECT_TRUE(r.exact()) << r.left.at(0).text;
  EXPECT_FALSE(r.config.even_batches);
  EXPECT_EQ(r.config.loss_normalization, config::LossNormalization::kGlobal);
  EXPECT_EQ(config::plan_setup(config::ValidConfig::make(r.config), 1000).padded_samples, 0);
  // The reference's own repetition is not this run's to remove: said, not hidden.
  const Remedy back = remedy(ref, run, 1000, 1000);
  EXPECT_FALSE(back.exact());
  EXPECT_TRUE(has(back.left, "padding"));
}

// Batch norm over a smaller per-device batch: sync batch norm where every rank's batch together is
// the reference's (2x32 and 4x16 against 1x64).
TEST(Remedy, BatchNormIsSyncedWhereEveryRanksBatchIsTheReferences) {
  config::RunConfig ref = regression(1, 64);
  ref.model = config::ModelKind::kMlp;
  ref.batch_norm = true;
  for (const auto& [w, b] : {std::pair{2, 32}, std::pair{4, 32}}) {
    config::RunConfig run = ref;
    run.num_processes = w;
    run.per_device_batch_size = b;
    const Remedy r = remedy(run, ref, 1024, 1024);
    EXPECT_TRUE(r.exact()) << w << "x" << b;
    EXPECT_TRUE(r.config.sync_batch_norm) << w << "x" << b;
    EXPECT_EQ(config::batch_norm_batch(r.config), 64) << w << "x" << b;
    EXPECT_EQ(config::global_batch_size(r.config), 64);
    EXPECT_NE(r.setup_text().find("sync batch norm on"), std::string::npos);
  }
}

// Dropout masks and a data order the run's processes never draw are noise: the remedy is judged
// against the reference's band, and the combined proof carries its seeds.
TEST(Remedy, DropoutAndAnUndrawableOrderAreNoise) {
  config::RunConfig ref = regression(1, 64), run = regression(2, 64);
  ref.model = run.model = config::ModelKind::kMlp;
  ref.dropout = run.dropout = 0.25;
  const Remedy r = remedy(run, ref, 1024, 1024);
  EXPECT_TRUE(has(r.noise, "dropout"));
  const auto cfs = counterfactuals(run, ref, diagnose(run, ref, 1024, 1024).causes, 1024, 1024);
  const Counterfactual* all = find(cfs, "all");
  ASSERT_TRUE(all && all->config);
  EXPECT_EQ(all->seeds.size(), static_cast<size_t>(kBandSeeds));
  EXPECT_EQ(all->seeds[0].seed, ref.seed + 1);
  const Counterfactual* dropout = find(cfs, "dropout");
  ASSERT_TRUE(dropout);
  EXPECT_TRUE(dropout->seeds.empty()) << "proved with the remedy, not trained twice";

  config::RunConfig one = regression(1, 64), two = regression(2, 32);
  one.use_seedable_sampler = two.use_seedable_sampler = false;  // Accelerate's default
  const Remedy order = remedy(two, one, 1024, 1024);
  EXPECT_FALSE(order.needed());
  EXPECT_TRUE(has(order.noise, "data_order"));
  // Nothing else differs: the run itself is judged against the band.
  const auto seeds = counterfactuals(two, one, diagnose(two, one, 1024, 1024).causes, 1024, 1024);
  const Counterfactual* band = find(seeds, "data_order");
  ASSERT_TRUE(band);
  EXPECT_FALSE(band->config);
  EXPECT_EQ(band->seeds.size(), static_cast<size_t>(kBandSeeds));

  // A seeded reference's order is drawn on any process count: the sampler is aligned.
  config::RunConfig seeded = regression(1, 64);
  const Remedy aligned = remedy(two, seeded, 1024, 1024);
  EXPECT_TRUE(aligned.noise.empty());
  EXPECT_TRUE(aligned.config.use_seedable_sampler);
  EXPECT_EQ(config::data_order(aligned.config), config::DataOrder::kSeedable);
}

// The schedule's length in this run's scheduler steps: W per optimizer step, so twice as long.
TEST(Remedy, TheScheduleIsTheReferencesInSamples) {
  config::RunConfig ref = regression(1, 64);
  ref.scheduler = config::SchedulerKind::kCosine;
  ref.warmup_steps = 2;
  ref.num_training_steps = 16;
  config::RunConfig run = ref;
  run.num_processes = 2;
  run.per_device_batch_size = 64;
  run.seed = 7;
  const Remedy r = remedy(run, ref, 1024, 1024);
  EXPECT_TRUE(r.exact());
  EXPECT_EQ(r.config.num_training_steps, 32);
  EXPECT_EQ(r.config.warmup_steps, 4);
  EXPECT_EQ(r.config.seed, 42);
  EXPECT_TRUE(diagnose(r.config, ref, 1024, 1024).causes.empty()) << r.changes_text();
  EXPECT_NE(r.setup_text().find("schedule cosine over 32 scheduler steps (warm-up 4)"),
            std::string::npos)
      << r.setup_text();
}

// A command run keeps its own template: only its placeholders move, and its own sampler on
// another process count is noise.
TEST(Remedy, ACommandRunKeepsItsTemplate) {
  config::RunConfig ref = regression(1, 64), run = regression(2, 64);
  ref.command = "python3 train.py --bs {per_device_batch_size} --lr {learning_rate}";
  run.command =
      "torchrun --nproc_per_node {num_processes} train.py --bs {per_device_batch_size} "
      "--lr {learning_rate} --seed {seed}";
  run.seed = 5;
  run.even_batches = false;  // not the script's: no placeholder carries it
  const Remedy r = remedy(run, ref, 0, 0);
  EXPECT_EQ(r.config.command, run.command);
  EXPECT_EQ(r.config.per_device_batch_size, 32);
  EXPECT_EQ(r.config.seed, 42);
  EXPECT_FALSE(r.config.even_batches);
  EXPECT_TRUE(has(r.noise, "data_order"));
  EXPECT_TRUE(r.exact());
  EXPECT_NE(r.setup_text().find("your command's own sampler"), std::string::npos);
  // A template without {seed} cannot move the seed: it stays, and nothing claims it changed.
  config::RunConfig fixed = run;
  fixed.command = "torchrun train.py --bs {per_device_batch_size}";
  const Remedy f = remedy(fixed, ref, 0, 0);
  EXPECT_EQ(f.config.seed, 5);
  for (const RemedyChange& ch : f.changes) EXPECT_NE(ch.key, "seed");
  EXPECT_TRUE(template_moves(run, "lr"));
  EXPECT_FALSE(template_moves(fixed, "lr"));
  EXPECT_TRUE(template_moves(regression(1, 8), "even_batches"));  // the engine moves every field
}

// No global batch of the run's processes gives the reference's: said, with the proof's name.
TEST(Remedy, NoShapeOfTheRunsProcessesIsSaid) {
  const Remedy r = remedy(regression(3, 64), regression(1, 64), 1024, 1024);
  EXPECT_FALSE(r.exact());
  ASSERT_TRUE(has(r.left, "global_batch"));
  EXPECT_EQ(r.left[0].text, "no per-device batch on 3 processes gives 64 (the reference's global "
                            "batch)");
  EXPECT_FALSE(has(r.left, "effective_lr")) << "the lr's rule follows from the batch";
}

}  // namespace
}  // namespace parity::analysis
