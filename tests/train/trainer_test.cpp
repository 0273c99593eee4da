#include <gtest/gtest.h>
#include <parity/config/batch_plan.h>
#include <parity/config/sampler.h>

#include <cmath>
#include <cstring>

#include "dist_test_util.h"

namespace parity::train {
namespace {

using testing::regression_config;
using testing::train_threaded;

std::vector<double> losses(const testing::ThreadedRun& run) {
  std::vector<double> v;
  for (const auto& s : run.sink.steps) v.push_back(s.loss);
  return v;
}

void expect_close(const std::vector<double>& a, const std::vector<double>& b, double rel,
                  const std::string& what) {
  ASSERT_EQ(a.size(), b.size()) << what;
  for (size_t i = 0; i < a.size(); ++i) {
    const double scale = std::max({std::abs(a[i]), std::abs(b[i]), 1e-12});
    EXPECT_LE(std::abs(a[i] - b[i]) / scale, rel)
        << what << " at " << i << ": " << a[i] << " vs " << b[i];
  }
}

TEST(Trainer, RerunWithTheSameSeedIsBitwiseIdentical) {
  for (int w : {1, 2}) {
    config::RunConfig c = regression_config(w, 8);
    c.model = config::ModelKind::kMlp;
    c.init = config::Init::kDefault;
    c.hidden = {16};
    auto a = train_threaded(c);
    auto b = train_threaded(c);
    const auto la = losses(a), lb = losses(b);
    ASSERT_FALSE(la.empty());
    ASSERT_EQ(la.size(), lb.size());
    EXPECT_EQ(std::memcmp(la.data(), lb.data(), la.size() * sizeof(double)), 0) << "W=" << w;
    EXPECT_EQ(a.parameters[0], b.parameters[0]);
  }
}

TEST(Trainer, EquivalentSetupsAgreeOnEveryStepAndTheFinalModel) {
  auto ref = train_threaded(regression_config(1, 16));
  const auto ref_losses = losses(ref);
  ASSERT_EQ(ref_losses.size(), 2u * 256 / 16);
  struct Case {
    int w;
    int64_t b;
    int k;
  };
  for (Case c : {Case{2, 8, 1}, Case{4, 4, 1}, Case{1, 8, 2}}) {
    const std::string name =
        std::to_string(c.w) + "x" + std::to_string(c.b) + " acc" + std::to_string(c.k);
    auto run = train_threaded(regression_config(c.w, c.b, c.k));
    expect_close(losses(run), ref_losses, 1e-5, name + " losses");
    expect_close(run.parameters[0], ref.parameters[0], 1e-6, name + " parameters");
    for (int r = 1; r < c.w; ++r)
      EXPECT_EQ(run.parameters[static_cast<size_t>(r)], run.parameters[0]);
    for (size_t i = 0; i < run.sink.steps.size(); ++i) {
      EXPECT_EQ(run.sink.steps[i].samples, ref.sink.steps[i].samples) << name;
    }
  }
  // Twice the global batch with the lr left alone is a different run.
  auto bigger = train_threaded(regression_config(2, 16));
  EXPECT_EQ(bigger.sink.steps.size(), ref_losses.size() / 2);
  const double diff = std::abs(bigger.parameters[0][0] - ref.parameters[0][0]);
  EXPECT_GT(diff, 1e-3);
}

// --split-batches: the batch given is the global one, split over the ranks (Accelerate's
// split_batches), and the scheduler steps once per optimizer step. 2 ranks splitting 16 train as
// one process on 16 does, at every step, with a warm-up schedule that would show a W-fold pace.
TEST(Trainer, SplitBatchesTrainsAsOneProcessOnTheGlobalBatch) {
  config::RunConfig one = regression_config(1, 16);
  one.scheduler = config::SchedulerKind::kLinear;
  one.warmup_steps = 4;
  config::RunConfig split = one;
  split.num_processes = 2;
  split.split_batches = true;
  const auto ref = train_threaded(one);
  const auto run = train_threaded(split);
  expect_close(losses(run), losses(ref), 1e-5, "2 ranks splitting 16 vs 1x16");
  ASSERT_EQ(run.sink.steps.size(), ref.sink.steps.size());
  for (size_t i = 0; i < run.sink.steps.size(); ++i) {
    EXPECT_EQ(run.sink.steps[i].samples, ref.sink.steps[i].samples) << i;
    EXPECT_DOUBLE_EQ(run.sink.steps[i].lr, ref.sink.steps[i].lr) << i;
    ASSERT_EQ(run.sink.steps[i].rank_losses.size(), 2u);  // both ranks took a share
  }
  EXPECT_EQ(run.parameters[0], run.parameters[1]);
  // Without the split the same flags mean a global batch of 32: half the steps.
  split.split_batches = false;
  EXPECT_EQ(train_threaded(split).sink.steps.size(), ref.sink.steps.size() / 2);
}

TEST(Trainer, RecordsPerRankLossesAndGlobalMean) {
  auto run = train_threaded(regression_config(2, 8));
  ASSERT_FALSE(run.sink.steps.empty());
  for (const auto& s : run.sink.steps) {
    ASSERT_EQ(s.rank_losses.size(), 2u);
    EXPECT_NEAR(s.loss, (s.rank_losses[0] + s.rank_losses[1]) / 2, 1e-6);
  }
  EXPECT_EQ(run.sink.steps.back().samples, 2 * 256);
  EXPECT_DOUBLE_EQ(run.sink.steps.back().epoch, 2.0);
  EXPECT_EQ(run.sink.evals.size(), 2u);
  EXPECT_EQ(run.sink.start.total_steps, 32);
  EXPECT_EQ(run.sink.end.outcome, launch::RunOutcome::kFinished);
}

TEST(Trainer, LinearLrScalingAndSchedulerAdvancesWTimesPerStep) {
  config::RunConfig c = regression_config(2, 8);
  c.lr_scaling = config::LrScaling::kLinear;
  c.scheduler = config::SchedulerKind::kLinear;
  c.epochs = 1;
  auto run = train_threaded(c);
  const auto& steps = run.sink.steps;
  ASSERT_EQ(steps.size(), 16u);
  // Schedule length = 16 optimizer steps x 2 scheduler steps; step s uses position 2(s-1).
  for (size_t i = 0; i < steps.size(); ++i) {
    const double expected = 0.2 * (1.0 - 2.0 * static_cast<double>(i) / 32.0);
    EXPECT_NEAR(steps[i].lr, expected, 1e-12) << "step " << i + 1;
  }
  EXPECT_DOUBLE_EQ(run.sink.start.effective_lr, 0.2);
}

TEST(Trainer, UnevenBatchesWithoutEvenBatchesKeepRanksInStep) {
  config::RunConfig c = regression_config(2, 3);
  c.synthetic_samples = 7;  // batches [3][3][1]: rank 0 gets two, rank 1 one
  c.even_batches = false;
  c.epochs = 1;
  auto run = train_threaded(c);
  ASSERT_EQ(run.sink.steps.size(), 2u);
  EXPECT_EQ(run.sink.steps.back().samples, 7);
  EXPECT_TRUE(std::isnan(run.sink.steps[1].rank_losses[1]));
  EXPECT_DOUBLE_EQ(run.sink.steps[1].loss, run.sink.steps[1].rank_losses[0]);
  EXPECT_EQ(run.parameters[0], run.parameters[1]);
  // The values, not only the agreement: step 2's loss is rank 0's one-sample loss after step 1.
  const auto hand = testing::train_by_hand(c);
  ASSERT_EQ(hand.losses.size(), 2u);
  for (size_t i = 0; i < 2; ++i) {
    EXPECT_NEAR(run.sink.steps[i].loss, hand.losses[i], 1e-5 * hand.losses[i]) << "step " << i + 1;
  }
  EXPECT_NEAR(run.parameters[0][0], hand.w, 1e-5 * std::abs(hand.w));
  EXPECT_NEAR(run.parameters[0][1], hand.b, 1e-5 * std::abs(hand.b));
}

TEST(Trainer, EvaluationCountsEveryTestSampleOnce) {
  // 64 test samples on 3 ranks in batches of 8: shares of 24, 24 and 16 samples. Padding would
  // repeat some and change the mean; a lost share would too.
  config::RunConfig one = regression_config(1, 8);
  one.lr = 1e-12;  // the model stays at zero: eval loss = mean(y^2) over the test set
  one.epochs = 1;
  config::RunConfig three = one;
  three.num_processes = 3;
  TrainerTestHooks hooks;
  hooks.eval_batch_size = 8;
  for (int r = 0; r < 3; ++r) {
    config::ShardOptions o;
    o.batch_size = hooks.eval_batch_size;
    o.num_replicas = 3;
    o.rank = r;
    o.even_batches = false;
    config::DistributedBatchSampler share(64, 0, o, config::SampleOrder::kSequential);
    EXPECT_FALSE(share.batches().empty()) << "rank " << r << " has no share of the test split";
  }
  // The same evaluation batches on one rank, so the float32 per-batch sums are the same numbers.
  auto a = train_threaded(one, hooks);
  auto b = train_threaded(three, hooks);
  ASSERT_EQ(a.sink.evals.size(), 1u);
  ASSERT_EQ(b.sink.evals.size(), 1u);
  EXPECT_NEAR(a.sink.evals[0].loss, b.sink.evals[0].loss, 1e-9 * a.sink.evals[0].loss);
  const double expected = testing::zero_model_test_loss(one);
  EXPECT_NEAR(b.sink.evals[0].loss, expected, 1e-6 * expected);
}

TEST(Trainer, DeviceSpecificSeedDoesNotChangeTheOrderOrTheReplicas) {
  config::RunConfig c = regression_config(2, 8);
  c.model = config::ModelKind::kMlp;
  c.init = config::Init::kDefault;
  c.hidden = {8};
  c.epochs = 1;
  config::RunConfig d = c;
  d.device_specific_seed = true;
  auto a = train_threaded(c);
  auto b = train_threaded(d);
  EXPECT_EQ(losses(a), losses(b));  // rank 0's parameters are broadcast: the init is rank 0's
  EXPECT_EQ(b.parameters[0], b.parameters[1]);
}

// With dropout and device_specific_seed each rank draws its own masks, and the replicas still end
// equal (the gradients are averaged). Which masks each rank draws is checked with real processes
// (CliWorker.DeviceSpecificSeedChangesRankOnesMasksOnly): ranks as threads share torch's global
// generator, so their draws interleave here.
TEST(Trainer, DeviceSpecificSeedWithDropoutKeepsTheReplicasEqual) {
  config::RunConfig c = regression_config(2, 8);
  c.model = config::ModelKind::kMlp;
  c.init = config::Init::kDefault;
  c.hidden = {8};
  c.dropout = 0.5;
  c.epochs = 1;
  c.device_specific_seed = true;
  const auto run = train_threaded(c);
  ASSERT_FALSE(run.parameters[0].empty());
  EXPECT_EQ(run.parameters[0], run.parameters[1]);
}

TEST(Trainer, DivergenceStopsTheRunOnEveryRank) {
  config::RunConfig c = regression_config(2, 8);
  c.lr = 1e6;
  auto run = train_threaded(c);
  ASSERT_FALSE(run.sink.steps.empty());
  EXPECT_FALSE(std::isfinite(run.sink.steps.back().loss));
  EXPECT_LT(run.sink.steps.size(), 32u);
  for (const auto& e : run.ends) EXPECT_EQ(e.outcome, launch::RunOutcome::kDiverged);
  EXPECT_NE(run.sink.end.message.find("loss became"), std::string::npos);
}

TEST(Trainer, Bf16EndsCloseToFp32) {
  config::RunConfig c = regression_config(1, 16);
  c.epochs = 3;
  config::RunConfig b = c;
  b.mixed_precision = config::MixedPrecision::kBf16;
  auto full = train_threaded(c);
  auto half = train_threaded(b);
  const double lf = full.sink.steps.back().loss, lh = half.sink.steps.back().loss;
  EXPECT_NEAR(lh, lf, 0.05 * lf + 1e-3);
  EXPECT_NE(losses(full), losses(half));  // autocast really ran in bf16
}

TEST(Trainer, MaxStepsCutsTheRunAndStillEvaluates) {
  config::RunConfig c = regression_config(2, 8);
  c.max_steps = 5;
  auto run = train_threaded(c);
  EXPECT_EQ(run.sink.steps.size(), 5u);
  EXPECT_EQ(run.sink.start.total_steps, 5);
  EXPECT_EQ(run.sink.evals.size(), 1u);
}

}  // namespace
}  // namespace parity::train
