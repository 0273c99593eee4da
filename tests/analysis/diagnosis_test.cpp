// Each diagnosis on its own: the config diff read in the seed's terms.

#include <gtest/gtest.h>
#include <parity/analysis/verdict.h>

#include "verdict_test_util.h"

namespace parity::analysis {
namespace {

using test::has_key;
using test::regression;
using test::text_of;

std::vector<std::string> keys(const std::vector<Reason>& reasons) {
  std::vector<std::string> out;
  for (const Reason& r : reasons) out.push_back(r.key);
  return out;
}

TEST(ConfigDiff, ListsOnlyDifferingKeysWithoutLabel) {
  config::RunConfig a = regression(1, 16), b = a;
  b.label = "something else";
  EXPECT_TRUE(config_diff(a, b).empty());
  a.seed = 2;
  b.seed = 1;
  a.data_seed = 9;
  const std::vector<ConfigDiff> d = config_diff(a, b);
  ASSERT_EQ(d.size(), 2u);
  EXPECT_EQ(d[0].key, "seed");
  EXPECT_EQ(d[0].value, "2");
  EXPECT_EQ(d[0].reference, "1");
  EXPECT_EQ(d[1].key, "data_seed");
  EXPECT_EQ(d[1].value, "9");
  EXPECT_EQ(d[1].reference, "(unset)");
  a.mixed_precision = config::MixedPrecision::kBf16;
  EXPECT_EQ(config_diff(a, b).back().value, "bf16");  // enum spellings, unquoted
}

TEST(Diagnose, IdenticalConfigsHaveNothingToSay) {
  const Diagnosis d = diagnose(regression(2, 8), regression(2, 8));
  EXPECT_TRUE(d.causes.empty());
  EXPECT_TRUE(d.info.empty());
}

TEST(Diagnose, GlobalBatchDiffers) {
  const Diagnosis d = diagnose(regression(1, 128), regression(1, 256));
  EXPECT_EQ(keys(d.causes), std::vector<std::string>{"global_batch"});
  EXPECT_EQ(text_of(d.causes, "global_batch"),
            "global batch 128 vs 256 (per-device batch 256 on 1 process would match)");
  EXPECT_TRUE(has_key(d.info, "per_device_batch_size"));
  // The seed's example, on 2 processes; and a shape where nothing matches.
  EXPECT_EQ(text_of(diagnose(regression(2, 64), regression(1, 256)).causes, "global_batch"),
            "global batch 128 vs 256 (per-device batch 128 on 2 processes would match)");
  EXPECT_EQ(text_of(diagnose(regression(3, 64), regression(1, 256)).causes, "global_batch"),
            "global batch 192 vs 256 (no per-device batch on 3 processes gives 256)");
}

TEST(Diagnose, LearningRateNotScaled) {
  const Diagnosis d = diagnose(regression(2, 64), regression(1, 64));
  EXPECT_EQ(text_of(d.causes, "effective_lr"),
            "learning rate not scaled with the number of processes (lr 0.05 on 2 processes vs 0.05 on "
            "1, neither scaled); scaled linearly in the processes, as Accelerate's guide does "
            "(--lr-scaling linear), it would be 0.1; linearly in the global batch (128 vs 64), "
            "0.1; by its square root, 0.0707107");
  EXPECT_TRUE(has_key(d.causes, "global_batch"));
  EXPECT_TRUE(has_key(d.info, "num_processes"));
  EXPECT_FALSE(has_key(d.causes, "num_processes"));
}

TEST(Diagnose, LearningRateScaledLinearlyOrDifferently) {
  config::RunConfig linear = regression(2, 64);
  linear.lr_scaling = config::LrScaling::kLinear;
  const Diagnosis ok = diagnose(linear, regression(1, 64));
  EXPECT_EQ(keys(ok.causes), std::vector<std::string>{"global_batch"});
  EXPECT_NE(text_of(ok.info, "effective_lr").find("scaled linearly"), std::string::npos);
  EXPECT_TRUE(has_key(ok.info, "lr_scaling"));

  config::RunConfig sqrt_scaled = regression(2, 64);
  sqrt_scaled.lr_scaling = config::LrScaling::kSqrt;
  // Square-root scaling with the global batch is a rule too: information, the batch the cause.
  const Diagnosis sq = diagnose(sqrt_scaled, regression(1, 64));
  EXPECT_EQ(keys(sq.causes), std::vector<std::string>{"global_batch"});
  const std::string text = text_of(sq.info, "effective_lr");
  EXPECT_EQ(text.rfind("learning rate scaled by the square root of the global batch (lr 0.0707107 "
                       "on 2 processes, scaled by the square root of the processes",
                       0),
            0u)
      << text;
  // Another rule at another batch is a cause, each rule named with its number.
  config::RunConfig odd = regression(2, 64);
  odd.lr = 0.3;
  const std::string other = text_of(diagnose(odd, regression(1, 64)).causes, "effective_lr");
  EXPECT_NE(other.find("linearly in the global batch (128 vs 64) it would be 0.1"),
            std::string::npos)
      << other;

  // Same global batch, but the lr was scaled anyway.
  config::RunConfig same_batch = regression(2, 32);
  same_batch.lr_scaling = config::LrScaling::kLinear;
  const Diagnosis d = diagnose(same_batch, regression(1, 64));
  EXPECT_EQ(keys(d.causes), std::vector<std::string>{"effective_lr"});
  EXPECT_NE(text_of(d.causes, "effective_lr").find("at the same global batch"), std::string::npos);
}

TEST(Diagnose, NumProcessesAloneIsInformational) {
  const Diagnosis d = diagnose(regression(2, 8), regression(1, 16));
  EXPECT_TRUE(d.causes.empty());
  EXPECT_EQ(text_of(d.info, "num_processes"),
            "num_processes 2 vs 1 with the same global batch 16 and effective lr 0.05: same "
            "arithmetic");
}

TEST(Diagnose, SeedsDiffer) {
  config::RunConfig a = regression(1, 16), b = a;
  a.seed = 1;
  b.seed = 2;
  const Diagnosis d = diagnose(a, b);
  ASSERT_EQ(d.causes.size(), 1u);
  EXPECT_EQ(d.causes[0].key, "seed");
  EXPECT_EQ(d.causes[0].text, "seeds differ (1 vs 2)");
  EXPECT_TRUE(d.info.empty());
  a.data_seed = 7;
  b.data_seed = 7;
  ASSERT_EQ(keys(diagnose(a, b).causes), std::vector<std::string>{"seed"});
  EXPECT_EQ(diagnose(a, b).causes[0].text,
            "seeds differ (1 vs 2); same shuffle order (data_seed 7)");
  a.seed = 2;
  a.data_seed = 8;
  EXPECT_EQ(text_of(diagnose(a, b).causes, "data_seed"),
            "shuffle order differs (data_seed 8 vs 7)");
}

TEST(Diagnose, PrecisionDiffers) {
  config::RunConfig a = regression(1, 16);
  a.mixed_precision = config::MixedPrecision::kBf16;
  const Diagnosis d = diagnose(a, regression(1, 16));
  ASSERT_EQ(d.causes.size(), 1u);
  EXPECT_EQ(d.causes[0].key, "mixed_precision");
  EXPECT_EQ(d.causes[0].text, "precision differs: bf16 vs fp32 — small differences expected");
}

TEST(Diagnose, AccumulationDiffers) {
  const Diagnosis d = diagnose(regression(1, 16, 2), regression(1, 16));
  EXPECT_EQ(text_of(d.causes, "gradient_accumulation_steps"), "gradient accumulation 2 vs 1");
  EXPECT_EQ(text_of(d.causes, "global_batch"),
            "global batch 32 vs 16 (per-device batch 8 on 1 process with accumulation 2 would "
            "match)");
  // Equal global batch: informational when the epoch divides into whole groups ...
  const Diagnosis same = diagnose(regression(1, 8, 2), regression(1, 16), 1024, 1024);
  EXPECT_TRUE(same.causes.empty());
  EXPECT_TRUE(has_key(same.info, "gradient_accumulation_steps"));
  // ... a cause when the epoch's last group is short (1000 / 8 = 125 micro-batches, odd).
  const Diagnosis short_group = diagnose(regression(1, 8, 2), regression(1, 16), 1000, 1000);
  EXPECT_NE(text_of(short_group.causes, "gradient_accumulation_steps").find("under-weighted"),
            std::string::npos);
}

TEST(Diagnose, IndivisibleDatasetWithEvenBatches) {
  // N = 10, global batch 6 both ways. On one device without even_batches the last batch is just
  // short; 2x3 with even_batches completes it with 2 repeated samples.
  config::RunConfig two = regression(2, 3), one = regression(1, 6);
  two.synthetic_samples = one.synthetic_samples = 10;
  one.even_batches = false;
  const Diagnosis d = diagnose(two, one);
  EXPECT_EQ(keys(d.causes), (std::vector<std::string>{"padding", "even_batches"}));
  EXPECT_EQ(text_of(d.causes, "padding"),
            "dataset size 10 does not divide by global batch 6: even_batches repeats samples (2 "
            "vs 0 per epoch)");
  EXPECT_EQ(text_of(d.info, "num_processes"), "num_processes 2 vs 1");  // not "same arithmetic"
  // Train sizes passed explicitly win over the config's.
  EXPECT_TRUE(diagnose(two, one, 12, 12).causes.empty());
  // When the dataset divides, the flag changes nothing.
  two.synthetic_samples = one.synthetic_samples = 12;
  const Diagnosis divides = diagnose(two, one);
  EXPECT_TRUE(divides.causes.empty());
  EXPECT_EQ(text_of(divides.info, "even_batches"),
            "even_batches true vs false: no effect at this dataset size");
}

TEST(Diagnose, EvenAndSplitBatchesDiffer) {
  config::RunConfig even = regression(2, 3), uneven = regression(2, 3);
  even.synthetic_samples = uneven.synthetic_samples = 10;
  uneven.even_batches = false;
  const Diagnosis d = diagnose(uneven, even);
  EXPECT_EQ(text_of(d.causes, "even_batches"), "even_batches differs (false vs true)");
  EXPECT_TRUE(has_key(d.causes, "padding"));
  config::RunConfig split = regression(2, 16);
  split.split_batches = true;
  const Diagnosis s = diagnose(split, regression(2, 8), std::nullopt, std::nullopt);
  // 1024 divides by 16: same batches; with a constant schedule the flag changes nothing.
  EXPECT_TRUE(s.causes.empty());
  EXPECT_TRUE(has_key(s.info, "split_batches"));
}

TEST(Diagnose, TheScheduleIsComparedWhereItActsOnSamplesSeen) {
  config::RunConfig two = regression(2, 8), one = regression(1, 16);
  two.scheduler = one.scheduler = config::SchedulerKind::kCosine;
  // Accelerate's examples' default length (loader batches x epochs): 2x8's schedule has twice
  // the scheduler steps, advanced twice per optimizer step: the same lr at equal samples.
  EXPECT_FALSE(has_key(diagnose(two, one).causes, "lr_schedule"));
  // The same num_training_steps on both: 2x8 runs through it twice as fast. At 32 samples
  // 1x16 is at position 1, 0.05 x (1 + cos(pi/64)) / 2; 2x8 at position 2, cos(2 pi/64).
  two.num_training_steps = one.num_training_steps = 64;
  const Diagnosis d = diagnose(two, one);
  EXPECT_EQ(text_of(d.causes, "lr_schedule"),
            "the lr differs at equal samples seen: 0.0498796 vs 0.0499699 at 32 samples (cosine "
            "over 64 scheduler steps, 2 per optimizer step, vs cosine over 64, 1); the run's "
            "schedule ends at 512 of 1024 samples, then rises again (a cosine is not clamped past "
            "its end); the reference's schedule ends with the run (1024 samples)");
  // Without the train sizes the pace is all there is to compare.
  config::RunConfig csv2 = two, csv1 = one;
  csv2.dataset = csv1.dataset = config::DatasetKind::kCsv;
  EXPECT_EQ(text_of(diagnose(csv2, csv1).causes, "scheduler_pace"),
            "scheduler paced differently: one scheduler step per 8 vs 16 samples (schedules are "
            "written in single-process steps)");
}

TEST(Diagnose, ExperimentKeysAreCauses) {
  config::RunConfig a = regression(1, 16);
  a.model = config::ModelKind::kMlp;
  a.optimizer = config::OptimizerKind::kAdamW;
  const Diagnosis d = diagnose(a, regression(1, 16));
  EXPECT_EQ(text_of(d.causes, "model"), "model mlp vs linear (the experiment differs)");
  EXPECT_TRUE(has_key(d.causes, "optimizer"));
  config::RunConfig longer = regression(1, 16);
  longer.epochs = 3;
  const Diagnosis l = diagnose(longer, regression(1, 16));
  EXPECT_TRUE(l.causes.empty());
  EXPECT_EQ(text_of(l.info, "epochs"), "epochs 3 vs 1");
}

// Every wording the diagnosis has, exactly: one expectation per rule of the key table and per
// derived check, so a rule cannot change its text or move between causes and info unnoticed.
TEST(Diagnose, SeedKeysWording) {
  config::RunConfig a = regression(1, 16), b = a;
  a.device_specific_seed = true;
  Diagnosis d = diagnose(a, b);
  EXPECT_EQ(keys(d.causes), std::vector<std::string>{"device_specific_seed"});
  EXPECT_EQ(d.causes[0].text,
            "device_specific_seed true vs false: per-rank model and dropout seeds differ");
  // data_seed spelled out but equal to the seed it defaults to: information only.
  a = b;
  a.data_seed = a.seed;
  d = diagnose(a, b);
  EXPECT_TRUE(d.causes.empty());
  EXPECT_EQ(text_of(d.info, "data_seed"), "data_seed 42 vs (unset): same effective shuffle seed");
}

TEST(Diagnose, DeviceWording) {
  config::RunConfig a = regression(1, 16);
  a.device = config::Device::kCuda;
  const Diagnosis d = diagnose(a, regression(1, 16));
  EXPECT_EQ(keys(d.causes), std::vector<std::string>{"device"});
  EXPECT_EQ(d.causes[0].text,
            "device cuda vs cpu — small differences expected (different kernels)");
}

TEST(Diagnose, LearningRateWordingExactly) {
  config::RunConfig linear = regression(2, 64);
  linear.lr_scaling = config::LrScaling::kLinear;
  const Diagnosis ok = diagnose(linear, regression(1, 64));
  EXPECT_EQ(text_of(ok.info, "effective_lr"),
            "learning rate scaled linearly with the global batch (lr 0.1 on 2 processes, scaled "
            "linearly in the processes (x2), vs 0.05 on 1, not scaled, global batch 128 vs 64)");
  EXPECT_EQ(text_of(ok.info, "lr_scaling"), "lr_scaling linear vs none");
  config::RunConfig same_batch = regression(2, 32);
  same_batch.lr_scaling = config::LrScaling::kLinear;
  EXPECT_EQ(text_of(diagnose(same_batch, regression(1, 64)).causes, "effective_lr"),
            "learning rate differs at the same global batch 64 (lr 0.1 on 2 processes, scaled "
            "linearly in the processes (x2), vs 0.05 on 1, not scaled); the reference's "
            "arithmetic needs lr 0.05");
  // The 2x16 vs 1x64: scaling with the processes gives 0.1, with the global batch 0.025;
  // each rule is named with its number.
  EXPECT_EQ(text_of(diagnose(regression(2, 16), regression(1, 64)).causes, "effective_lr"),
            "learning rate not scaled with the number of processes (lr 0.05 on 2 processes vs "
            "0.05 on 1, neither scaled); scaled linearly in the processes, as Accelerate's guide "
            "does (--lr-scaling linear), it would be 0.1; linearly in the global batch (32 vs "
            "64), 0.025; by its square root, 0.0353553");
  // A different base lr is covered by effective_lr; the key itself is information.
  config::RunConfig higher = regression(1, 16);
  higher.lr = 0.1;
  const Diagnosis h = diagnose(higher, regression(1, 16));
  EXPECT_EQ(keys(h.causes), std::vector<std::string>{"effective_lr"});
  EXPECT_EQ(text_of(h.info, "lr"), "lr 0.1 vs 0.05");
}

TEST(Diagnose, GlobalBatchHintWithSplitBatches) {
  config::RunConfig split = regression(2, 16);
  split.split_batches = true;
  EXPECT_EQ(text_of(diagnose(split, regression(1, 32)).causes, "global_batch"),
            "global batch 16 vs 32 (per_device_batch_size 32 with split_batches would match)");
  config::RunConfig three = regression(3, 15);
  three.split_batches = true;
  EXPECT_EQ(text_of(diagnose(three, regression(1, 32)).causes, "global_batch"),
            "global batch 15 vs 32 (no per-device batch on 3 processes gives 32)");
}

TEST(Diagnose, AccumulationAtTheSameGlobalBatchWording) {
  const Diagnosis same = diagnose(regression(1, 8, 2), regression(1, 16), 1024, 1024);
  EXPECT_EQ(text_of(same.info, "gradient_accumulation_steps"),
            "gradient accumulation 2 vs 1 at the same global batch 16");
  EXPECT_EQ(text_of(same.info, "per_device_batch_size"), "per_device_batch_size 8 vs 16");
  const Diagnosis short_group = diagnose(regression(1, 8, 2), regression(1, 16), 1000, 1000);
  EXPECT_EQ(text_of(short_group.causes, "gradient_accumulation_steps"),
            "gradient accumulation 2 vs 1: the epoch's last group is shorter and under-weighted");
  EXPECT_FALSE(has_key(short_group.info, "gradient_accumulation_steps"));
}

TEST(Diagnose, PaddingOnTheReferenceSideAndWithAccumulation) {
  config::RunConfig two = regression(2, 3), one = regression(1, 6);
  two.synthetic_samples = one.synthetic_samples = 10;
  one.even_batches = false;
  // Swapped: the reference pads, this run does not.
  EXPECT_EQ(text_of(diagnose(one, two).causes, "padding"),
            "reference: dataset size 10 does not divide by global batch 6: even_batches repeats "
            "samples (0 vs 2 per epoch)");
  config::RunConfig accumulating = regression(2, 3, 2);
  accumulating.synthetic_samples = 10;
  config::RunConfig whole = regression(1, 12);
  whole.synthetic_samples = 10;
  whole.even_batches = false;
  EXPECT_EQ(text_of(diagnose(accumulating, whole).causes, "padding"),
            "dataset size 10 does not divide by batch x processes 6: even_batches repeats samples "
            "(2 vs 0 per epoch)");
}

TEST(Diagnose, DropLastWording) {
  config::RunConfig dropping = regression(2, 3), keeping = regression(2, 3);
  dropping.synthetic_samples = keeping.synthetic_samples = 10;
  dropping.drop_last = true;
  const Diagnosis d = diagnose(dropping, keeping);
  EXPECT_EQ(keys(d.causes), (std::vector<std::string>{"padding", "dropped", "drop_last"}));
  EXPECT_EQ(text_of(d.causes, "dropped"), "drop_last drops 4 vs 0 samples per epoch");
  EXPECT_EQ(text_of(d.causes, "drop_last"), "drop_last differs (true vs false)");
  // At a size that divides, the flag changes nothing.
  dropping.synthetic_samples = keeping.synthetic_samples = 12;
  const Diagnosis divides = diagnose(dropping, keeping);
  EXPECT_TRUE(divides.causes.empty());
  EXPECT_EQ(text_of(divides.info, "drop_last"),
            "drop_last true vs false: no effect at this dataset size");
}

TEST(Diagnose, SplitBatchesMattersWhenScheduled) {
  // Same global batch and a size that divides, but a schedule: split_batches changes how often
  // the scheduler steps. With both sizes known that is read where it acts, as the lr at equal
  // samples seen (lr_schedule); the flag itself is then information, so a counterfactual that
  // aligns the schedule leaves no cause behind.
  config::RunConfig split = regression(2, 16), plain = regression(2, 8);
  split.split_batches = true;
  split.scheduler = plain.scheduler = config::SchedulerKind::kCosine;
  split.num_training_steps = plain.num_training_steps = 100;
  const Diagnosis d = diagnose(split, plain);
  EXPECT_EQ(keys(d.causes), (std::vector<std::string>{"lr_schedule"}));
  EXPECT_EQ(text_of(d.info, "split_batches"),
            "split_batches true vs false: no effect at this dataset size");
  EXPECT_NE(text_of(d.causes, "lr_schedule").find("1 per optimizer step, vs cosine over 100, 2"),
            std::string::npos)
      << text_of(d.causes, "lr_schedule");
}

TEST(Diagnose, RunLengthAndEvaluationKeysAreInformation) {
  config::RunConfig a = regression(1, 16);
  a.max_steps = 20;
  a.eval_every_epoch = false;
  const Diagnosis d = diagnose(a, regression(1, 16));
  EXPECT_TRUE(d.causes.empty());
  EXPECT_EQ(text_of(d.info, "max_steps"), "max_steps 20 vs 0");
  EXPECT_EQ(text_of(d.info, "eval_every_epoch"), "eval_every_epoch false vs true");
  config::RunConfig b = regression(1, 16);
  b.optimizer = config::OptimizerKind::kAdamW;
  EXPECT_EQ(text_of(diagnose(b, regression(1, 16)).causes, "optimizer"),
            "optimizer adamw vs sgd (the experiment differs)");
}

}  // namespace
}  // namespace parity::analysis

namespace parity::analysis {
namespace {

TEST(Diagnose, SeedsCase1x16Vs2x8On77SamplesNamesThePaddingNotRounding) {
  // The seed's most basic case, as the issue found it: 16 does not divide 77.
  config::RunConfig one = regression(1, 16), two = regression(2, 8);
  const Diagnosis d = diagnose(two, one, 77, 77);
  ASSERT_TRUE(has_key(d.causes, "padding")) << keys(d.causes).size();
  EXPECT_NE(text_of(d.causes, "padding").find("even_batches repeats samples (3 vs 0 per epoch)"),
            std::string::npos)
      << text_of(d.causes, "padding");
}

TEST(Diagnose, BatchNormDropoutAndPerBatchTokenLossAreCausesWhenTheBatchIsCutDifferently) {
  config::RunConfig one = regression(1, 16), two = regression(2, 8);
  one.model = two.model = config::ModelKind::kMlp;
  one.batch_norm = two.batch_norm = true;
  EXPECT_EQ(text_of(diagnose(two, one).causes, "batch_norm"),
            "batch norm normalises over the per-device batch: 8 vs 16 samples (a different "
            "model, not a reordering)");
  one.batch_norm = two.batch_norm = false;
  one.dropout = two.dropout = 0.5;
  EXPECT_NE(text_of(diagnose(two, one).causes, "dropout")
                .find("with the same seed on every rank, the 2 processes draw identical masks"),
            std::string::npos);
  two.device_specific_seed = true;
  EXPECT_NE(text_of(diagnose(two, one).causes, "dropout").find("the ranks draw their own masks"),
            std::string::npos);
  // Equal shapes: neither is a cause.
  EXPECT_FALSE(has_key(diagnose(one, one).causes, "dropout"));

  config::RunConfig t1, t2;
  t1.dataset = t2.dataset = config::DatasetKind::kJsonl;
  t1.model = t2.model = config::ModelKind::kBigram;
  t1.per_device_batch_size = 8;
  t2.num_processes = 2;
  t2.per_device_batch_size = 4;
  EXPECT_TRUE(has_key(diagnose(t2, t1).causes, "loss_normalization"));
  t1.loss_normalization = t2.loss_normalization = config::LossNormalization::kGlobal;
  EXPECT_FALSE(has_key(diagnose(t2, t1).causes, "loss_normalization"));
}

TEST(Diagnose, ATorchScriptModulesDropoutAndBatchNormAreReadFromItsRecordedLayers) {
  config::RunConfig one = regression(1, 16), two = regression(2, 8);
  one.model = two.model = config::ModelKind::kTorchScript;
  one.model_file = two.model_file = "net.pt";
  // Not recorded (a run from before schema 4): the module's layers are unknown, so neither cause.
  EXPECT_FALSE(has_key(diagnose(two, one).causes, "batch_norm"));
  EXPECT_FALSE(has_key(diagnose(two, one).causes, "dropout"));

  config::ModelSummary bn_dropout;
  bn_dropout.layer_kinds = {"BatchNorm1d", "Dropout", "Linear"};
  bn_dropout.batch_norm = bn_dropout.dropout = true;
  bn_dropout.dropout_p = 0.25;
  const Diagnosis d = diagnose(two, one, 77, 77, bn_dropout, bn_dropout);
  EXPECT_EQ(text_of(d.causes, "batch_norm"),
            "batch norm normalises over the per-device batch: 8 vs 16 samples (a different "
            "model, not a reordering)");
  EXPECT_NE(text_of(d.causes, "dropout").find("dropout 0.25: with the same seed on every rank"),
            std::string::npos)
      << text_of(d.causes, "dropout");

  config::ModelSummary plain;
  plain.layer_kinds = {"Linear", "Tanh"};
  const Diagnosis p = diagnose(two, one, 77, 77, plain, plain);
  EXPECT_FALSE(has_key(p.causes, "batch_norm"));
  EXPECT_FALSE(has_key(p.causes, "dropout"));
  EXPECT_TRUE(has_key(p.causes, "padding"));  // the other causes are read as before

  // A built-in model's record agrees with its options; the record is what the run built.
  config::RunConfig m1 = regression(1, 16), m2 = regression(2, 8);
  m1.model = m2.model = config::ModelKind::kMlp;
  EXPECT_TRUE(has_key(diagnose(m2, m1, 77, 77, bn_dropout, bn_dropout).causes, "batch_norm"));
}

}  // namespace
}  // namespace parity::analysis
