#include <gtest/gtest.h>
#include <parity/config/batch_plan.h>
#include <parity/config/setup_text.h>

#include <cmath>
#include <string>

namespace parity::config {
namespace {

RunConfig setup(int w, int64_t b, int k = 1) {
  RunConfig c;
  c.num_processes = w;
  c.per_device_batch_size = b;
  c.gradient_accumulation_steps = k;
  return c;
}

// Plans a test setup, validated first as every caller must.
SetupPlan plan(const RunConfig& c, int64_t train_size) {
  return plan_setup(ValidConfig::make(c), train_size);
}

bool has_note(const SetupPlan& p, const std::string& note) {
  for (const std::string& n : p.notes) {
    if (n == note) return true;
  }
  return false;
}

TEST(BatchPlan, SeedPresetsShareTheGlobalBatch) {
  for (const RunConfig& c : {setup(1, 256), setup(2, 128), setup(8, 32)}) {
    EXPECT_EQ(global_batch_size(c), 256) << c.num_processes;
    const SetupPlan p = plan(c, 60000);
    EXPECT_EQ(p.global_batch, 256);
    // 60000 / 256 = 234.4: 235 steps, the last one padded by even_batches on several processes
    // and simply short on one (Accelerate does not shard a single process).
    EXPECT_EQ(p.micro_batches_per_epoch, 235) << c.num_processes;
    EXPECT_EQ(p.optimizer_steps_per_epoch, 235);
    const int64_t padded = c.num_processes == 1 ? 0 : 235 * 256 - 60000;
    EXPECT_EQ(p.samples_per_epoch, 60000 + padded);
    EXPECT_EQ(p.padded_samples, padded);
    EXPECT_EQ(p.dropped_samples, 0);
    EXPECT_EQ(p.scheduler_steps_per_optimizer_step, c.num_processes);
  }
}

TEST(BatchPlan, LearningRateScaling) {
  RunConfig c = setup(8, 32);
  c.lr = 0.1;
  EXPECT_EQ(effective_lr(c), 0.1);
  c.lr_scaling = LrScaling::kLinear;
  EXPECT_DOUBLE_EQ(effective_lr(c), 0.8);
  c.lr_scaling = LrScaling::kSqrt;
  EXPECT_DOUBLE_EQ(effective_lr(c), 0.1 * std::sqrt(8.0));
  c.num_processes = 1;
  EXPECT_DOUBLE_EQ(effective_lr(c), 0.1);
  EXPECT_DOUBLE_EQ(plan(setup(2, 64), 1000).effective_lr, RunConfig{}.lr);
}

TEST(BatchPlan, SplitBatchesKeepTheGlobalBatch) {
  RunConfig c = setup(4, 256);
  c.split_batches = true;
  EXPECT_EQ(global_batch_size(c), 256);
  EXPECT_EQ(scheduler_steps_per_optimizer_step(c), 1);
  const SetupPlan p = plan(c, 1024);
  EXPECT_EQ(p.micro_batches_per_epoch, 4);
  EXPECT_EQ(p.samples_per_epoch, 1024);
  EXPECT_TRUE(p.notes.empty());
  c.per_device_batch_size = 6;
  EXPECT_THROW(plan(c, 1024), ConfigError);
}

TEST(BatchPlan, Accumulation) {
  const RunConfig c = setup(2, 8, 4);
  EXPECT_EQ(global_batch_size(c), 64);
  EXPECT_EQ(scheduler_steps_per_optimizer_step(c), 2);
  const SetupPlan p = plan(c, 1024);  // 64 micro-batches per rank, k = 4
  EXPECT_EQ(p.micro_batches_per_epoch, 64);
  EXPECT_EQ(p.optimizer_steps_per_epoch, 16);
  EXPECT_FALSE(p.short_last_accumulation);

  const SetupPlan shortp = plan(setup(1, 8, 2), 40);  // 5 micro-batches, k = 2
  EXPECT_EQ(shortp.micro_batches_per_epoch, 5);
  EXPECT_EQ(shortp.optimizer_steps_per_epoch, 3);
  EXPECT_TRUE(shortp.short_last_accumulation);
  EXPECT_TRUE(has_note(shortp,
                       "last accumulation group has 1 of 2 micro-batches and is "
                       "under-weighted"));
}

TEST(BatchPlan, TotalStepsAndMaxSteps) {
  RunConfig c = setup(1, 100);
  c.epochs = 3;
  EXPECT_EQ(plan(c, 1000).total_optimizer_steps, 30);
  c.max_steps = 25;
  const SetupPlan p = plan(c, 1000);
  EXPECT_EQ(p.total_optimizer_steps, 25);
  EXPECT_TRUE(has_note(p, "max_steps stops the run after 25 of 30 optimizer steps"));
  c.max_steps = 100;
  EXPECT_EQ(plan(c, 1000).total_optimizer_steps, 30);
}

TEST(BatchPlan, PaddingDroppingAndUnevenRanks) {
  RunConfig c = setup(2, 3);  // the DESIGN.md example, N = 10
  SetupPlan p = plan(c, 10);
  EXPECT_EQ(p.micro_batches_per_epoch, 2);
  EXPECT_EQ(p.samples_per_epoch, 12);
  EXPECT_EQ(p.padded_samples, 2);
  EXPECT_TRUE(has_note(p,
                       "dataset size 10 does not divide by global batch 6: even_batches "
                       "repeats 2 samples per epoch"));

  c.drop_last = true;
  p = plan(c, 10);
  EXPECT_EQ(p.micro_batches_per_epoch, 1);
  EXPECT_EQ(p.samples_per_epoch, 6);
  EXPECT_EQ(p.dropped_samples, 4);
  EXPECT_EQ(p.padded_samples, 0);
  EXPECT_TRUE(has_note(p,
                       "dataset size 10 does not divide by global batch 6: drop_last drops "
                       "4 samples per epoch"));

  c.drop_last = false;
  c.even_batches = false;
  p = plan(c, 10);
  EXPECT_EQ(p.micro_batches_per_epoch, 2);  // the busiest rank
  EXPECT_EQ(p.samples_per_epoch, 10);
  EXPECT_EQ(p.padded_samples + p.dropped_samples, 0);
  ASSERT_EQ(p.notes.size(), 1u);
  EXPECT_NE(p.notes[0].find("with even_batches=false the last batch is short"), std::string::npos);

  c = setup(4, 3);
  c.even_batches = false;
  p = plan(c, 10);  // batches of 3,3,3,1: one each
  EXPECT_EQ(p.micro_batches_per_epoch, 1);
  p = plan(setup(1, 64), 0);
  EXPECT_EQ(p.micro_batches_per_epoch, 0);
  EXPECT_TRUE(has_note(p, "dataset size 0 gives no batch to train on"));
}

// The config's own checks are ValidConfig's (valid_config_test); the plan checks its data size.
TEST(BatchPlan, RefusesANegativeTrainSize) { EXPECT_THROW(plan(setup(1, 8), -1), ConfigError); }

TEST(BatchPlan, KnownTrainSize) {
  RunConfig c;
  EXPECT_EQ(known_train_size(c), 60000);
  c.train_samples = 5000;
  EXPECT_EQ(known_train_size(c), 5000);
  c.train_samples = 70000;
  EXPECT_EQ(known_train_size(c), 60000);
  c.dataset = DatasetKind::kSyntheticRegression;
  c.train_samples = 0;
  c.synthetic_samples = 512;
  EXPECT_EQ(known_train_size(c), 512);
  c.train_samples = 100;
  EXPECT_EQ(known_train_size(c), 100);
  c.dataset = DatasetKind::kCsv;
  EXPECT_EQ(known_train_size(c), std::nullopt);
}

TEST(BatchPlan, EquivalentPerDeviceBatch) {
  EXPECT_EQ(equivalent_per_device_batch(256, 1), 256);
  EXPECT_EQ(equivalent_per_device_batch(256, 2), 128);
  EXPECT_EQ(equivalent_per_device_batch(256, 8), 32);
  EXPECT_EQ(equivalent_per_device_batch(128, 2), 64);
  EXPECT_EQ(equivalent_per_device_batch(128, 8), 16);
  EXPECT_EQ(equivalent_per_device_batch(64, 2), 32);
  EXPECT_EQ(equivalent_per_device_batch(64, 8), 8);
  EXPECT_EQ(equivalent_per_device_batch(100, 8), std::nullopt);
  EXPECT_EQ(equivalent_per_device_batch(256, 2, 4), 32);
  EXPECT_EQ(equivalent_per_device_batch(4, 8), std::nullopt);
  EXPECT_EQ(equivalent_per_device_batch(0, 1), std::nullopt);
  EXPECT_EQ(equivalent_per_device_batch(64, 0), std::nullopt);
}

TEST(BatchPlan, EquivalentTableWithTheSeedShapes) {
  const std::vector<EquivalentShape> shapes = default_shapes();
  ASSERT_EQ(shapes.size(), 3u);
  EXPECT_EQ(shapes[0].name, "1 GPU");
  EXPECT_EQ(shapes[1].name, "2 GPUs");
  EXPECT_EQ(shapes[2].name, "8-worker TPU pod");
  EXPECT_EQ(shapes[2].num_processes, 8);
  const std::vector<EquivalentRow> rows = equivalent_table({256, 128, 100}, shapes);
  ASSERT_EQ(rows.size(), 3u);
  using V = std::vector<std::optional<int64_t>>;
  EXPECT_EQ(rows[0].reference_batch, 256);
  EXPECT_EQ(rows[0].per_device, (V{256, 128, 32}));
  EXPECT_EQ(rows[1].per_device, (V{128, 64, 16}));
  EXPECT_EQ(rows[2].per_device, (V{100, 50, std::nullopt}));
}

TEST(BatchPlan, AccumulationNotesNameTheMicroStepNotTheGlobalBatch) {
  RunConfig c;
  c.num_processes = 2;
  c.per_device_batch_size = 4;
  c.gradient_accumulation_steps = 2;
  const SetupPlan p = plan(c, 10);
  EXPECT_EQ(p.global_batch, 16);
  ASSERT_FALSE(p.notes.empty());
  EXPECT_EQ(p.notes.front().rfind("dataset size 10 does not divide by the 8 samples of one "
                                  "micro-step (global batch 16 over 2 micro-steps): ",
                                  0),
            0u)
      << p.notes.front();
}

// An imported run's setup line says what its facts know and "?" for the rest; derived facts
// read as known ones, and the global batch only when all three of its factors are there.
TEST(SetupText, FactsWithUnknownsReadAsQuestionMarks) {
  RunFacts f;
  EXPECT_EQ(describe_setup(f), "?×? acc ? = ? seed ?");
  f.per_device_batch_size = Fact<int64_t>::known(16, "trainer_state.json: train_batch_size");
  f.seed = Fact<int64_t>::known(3, "hparams");
  EXPECT_EQ(describe_setup(f), "?×16 acc ? = ? seed 3");
  f.num_processes = Fact<int64_t>::derived(2, "train_samples_per_second / ...");
  f.gradient_accumulation_steps = Fact<int64_t>::known(1, "hparams");
  f.mixed_precision = Fact<std::string>::known("bf16", "hparams");
  f.lr_scaling = Fact<std::string>::known("linear", "hparams");
  EXPECT_EQ(describe_setup(f), "2×16 = 32 lr linear bf16 seed 3");
  f.gradient_accumulation_steps = Fact<int64_t>::known(4, "hparams");
  f.lr_scaling = Fact<std::string>::known("none", "hparams");
  f.mixed_precision = Fact<std::string>::known("no", "hparams");
  EXPECT_EQ(describe_setup(f), "2×16 acc 4 = 128 seed 3");
  // A known learning rate is said: two runs of one shape and seed differ by it (#38 §11).
  f.learning_rate = Fact<double>::known(0.1, "hparams");
  EXPECT_EQ(describe_setup(f), "2×16 acc 4 = 128 lr 0.1 seed 3");
  f.lr_scaling = Fact<std::string>::known("sqrt", "hparams");
  EXPECT_EQ(describe_setup(f), "2×16 acc 4 = 128 lr 0.1 sqrt seed 3");
}

// The Runs table's Data column: a file's name without its folder, a dataset's own name.
TEST(SetupText, DataInAFewWords) {
  RunConfig c;
  EXPECT_EQ(describe_data(c), "fashion-mnist");
  c.dataset = DatasetKind::kCsv;
  c.data_path = "/home/u/data/train.csv";
  EXPECT_EQ(describe_data(c), "train.csv");
  c.dataset = DatasetKind::kIdx;
  c.data_path = "/data/mnist/";
  EXPECT_EQ(describe_data(c), "idx (mnist)");
  c.dataset = DatasetKind::kJsonl;
  c.data_path = "tokens.jsonl";
  EXPECT_EQ(describe_data(c), "tokens.jsonl");
}

// What the CLI and the window both say about a setup, from one place.
TEST(SetupText, LabelShapeAndDescription) {
  RunConfig c;
  c.num_processes = 2;
  c.per_device_batch_size = 64;
  EXPECT_EQ(default_label(c), "2x64");
  EXPECT_EQ(shape_text(c), "2 × 64");
  EXPECT_EQ(describe_setup(c), "2×64 = 128 seed 42");
  c.gradient_accumulation_steps = 4;
  c.mixed_precision = MixedPrecision::kBf16;
  c.lr_scaling = LrScaling::kLinear;
  c.seed = 7;
  EXPECT_EQ(default_label(c), "2x64 acc4 bf16 lr linear");
  EXPECT_EQ(shape_text(c), "2 × 64 × 4");
  EXPECT_EQ(describe_setup(c), "2×64 acc 4 = 512 lr linear bf16 seed 7");
  c.split_batches = true;
  c.gradient_accumulation_steps = 1;
  EXPECT_EQ(default_label(c), "2x64 split bf16 lr linear");
  EXPECT_EQ(shape_text(c), "64 split in 2");
  EXPECT_EQ(samples_per_micro_step(c), 64);
  EXPECT_EQ(per_rank_micro_batch(c), 32);
  c.split_batches = false;
  EXPECT_EQ(samples_per_micro_step(c), 128);
  EXPECT_EQ(per_rank_micro_batch(c), 64);
}

TEST(ShardOptionsOf, ASetupsRankCutsAsBatchSamplerShardIsTold) {
  RunConfig c;
  c.num_processes = 3;
  c.per_device_batch_size = 5;
  c.even_batches = false;
  c.drop_last = true;
  const ShardOptions o = shard_options(c, 2);
  EXPECT_EQ(o.batch_size, 5);
  EXPECT_EQ(o.num_replicas, 3);
  EXPECT_EQ(o.rank, 2);
  EXPECT_FALSE(o.split_batches);
  EXPECT_FALSE(o.even_batches);
  EXPECT_TRUE(o.drop_last);
}

TEST(EquivalentShapes, NamedForTheSetupsDeviceWithTheirOwnShapesAdded) {
  RunConfig a, b;
  a.num_processes = 1;
  b.num_processes = 3;
  b.gradient_accumulation_steps = 2;
  auto names = [](const std::vector<EquivalentShape>& shapes) {
    std::vector<std::string> out;
    for (const auto& s : shapes) out.push_back(s.name);
    return out;
  };
  EXPECT_EQ(names(equivalent_shapes({a, b})),
            (std::vector<std::string>{"1 CPU process", "2 CPU processes", "8-worker TPU pod",
                                      "3 CPU processes, acc 2"}));
  a.device = b.device = Device::kCuda;
  EXPECT_EQ(names(equivalent_shapes({a, b})),
            (std::vector<std::string>{"1 GPU", "2 GPUs", "8-worker TPU pod", "3 GPUs, acc 2"}));
  b.split_batches = true;  // its batch is already global: no column of its own
  EXPECT_EQ(equivalent_shapes({a, b}).size(), 3u);
}

}  // namespace
}  // namespace parity::config
