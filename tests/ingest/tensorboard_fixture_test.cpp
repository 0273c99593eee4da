// The eight runs Accelerate 1.2.1's TensorBoard tracker wrote (tests/fixtures/
// accelerate-tensorboard, its README the table of setups): found as eight runs, hparams child
// folders folded in, facts from the hparams, step counts, losses the file's float32.
#include <gtest/gtest.h>
#include <parity/ingest/tensorboard_logdir.h>

#include <algorithm>
#include <map>

#include "fixture_dir.h"

namespace parity::ingest {
namespace {

struct Setup {
  int64_t processes, batch, accumulation;
  double lr;
  int64_t seed;
  const char* precision;
  size_t steps;
};

// The fixtures README's table; steps = 6,400 samples x 2 epochs / global batch.
const std::map<std::string, Setup> kSetups = {
    {"1x32", {1, 32, 1, 0.05, 42, "no", 400}},
    {"1x32-seed1", {1, 32, 1, 0.05, 1, "no", 400}},
    {"1x32-seed2", {1, 32, 1, 0.05, 2, "no", 400}},
    {"2x16", {2, 16, 1, 0.05, 42, "no", 400}},
    {"2x32", {2, 32, 1, 0.05, 42, "no", 200}},
    {"2x32-lr0.1", {2, 32, 1, 0.1, 42, "no", 200}},
    {"1x16-ga2", {1, 16, 2, 0.05, 42, "no", 400}},
    {"2x16-bf16", {2, 16, 1, 0.05, 42, "bf16", 400}},
};

std::map<std::string, ImportedRun> import_all() {
  std::map<std::string, ImportedRun> out;
  for (TensorBoardRun& r : find_tensorboard_runs(test::accelerate_fixtures())) {
    r.poll();
    out.emplace(r.name(), r.run());
  }
  return out;
}

TEST(TensorBoardFixtures, EightRunsWithTheirHparamsChildFoldersFoldedIn) {
  PARITY_REQUIRE_FIXTURES();
  const auto runs = import_all();
  ASSERT_EQ(runs.size(), 8u);
  for (const auto& [name, setup] : kSetups) {
    ASSERT_EQ(runs.count(name), 1u) << name;
    const ImportedRun& r = runs.at(name);
    const auto& f = r.facts;
    EXPECT_EQ(*f.num_processes, setup.processes) << name;
    EXPECT_EQ(*f.per_device_batch_size, setup.batch) << name;
    EXPECT_EQ(*f.gradient_accumulation_steps, setup.accumulation) << name;
    EXPECT_EQ(*f.learning_rate, setup.lr) << name;
    EXPECT_EQ(*f.seed, setup.seed) << name;
    EXPECT_EQ(*f.mixed_precision, setup.precision) << name;
    EXPECT_EQ(*f.train_samples, 6400) << name;
    EXPECT_EQ(f.num_processes.provenance, config::Provenance::kKnown);
    EXPECT_EQ(f.num_processes.source, "TensorBoard hparams: num_processes");
    // Not in the files: Accelerate's default, derived from its layout.
    EXPECT_EQ(f.use_seedable_sampler.provenance, config::Provenance::kDerived) << name;
    EXPECT_FALSE(*f.use_seedable_sampler);
    EXPECT_EQ(*f.lr_scaling, "none") << name;
    EXPECT_EQ(r.points.size(), setup.steps) << name;
    EXPECT_EQ(r.loss_tag, "train/loss");
    EXPECT_EQ(r.evals.size(), 2u) << name;  // after each epoch
    EXPECT_EQ(r.damaged_files, 0);
    // Steps 1..N in order, every loss a float32 of the file.
    for (size_t i = 0; i < r.points.size(); ++i) {
      ASSERT_EQ(r.points[i].step, static_cast<int64_t>(i + 1)) << name;
      ASSERT_EQ(static_cast<double>(static_cast<float>(r.points[i].loss)), r.points[i].loss);
    }
    EXPECT_EQ(r.points[0].lr, static_cast<double>(static_cast<float>(setup.lr))) << name;
  }
}

TEST(TensorBoardFixtures, FirstLossesAreTheOnesTheReadmeRecomputedByHand) {
  PARITY_REQUIRE_FIXTURES();
  const auto runs = import_all();
  EXPECT_EQ(runs.at("1x32").points[0].loss, 2.2961153984069824);
  EXPECT_EQ(runs.at("2x16").points[0].loss, 2.3010993003845215);
  // The README's test losses: 1x32 and 1x16-ga2 agree to 7 digits after each epoch.
  EXPECT_NEAR(runs.at("1x32").evals.back().loss, 0.5680568, 5e-8);
  EXPECT_NEAR(runs.at("1x16-ga2").evals.back().loss, 0.5680568, 5e-8);
  EXPECT_NEAR(runs.at("1x32").evals.front().loss, 0.6465039, 5e-8);
}

TEST(TensorBoardFixtures, OneRunFolderImportsAsThatRun) {
  PARITY_REQUIRE_FIXTURES();
  auto runs = find_tensorboard_runs(test::accelerate_fixtures() + "/2x32");
  ASSERT_EQ(runs.size(), 1u);
  EXPECT_EQ(runs[0].name(), "2x32");
  EXPECT_TRUE(runs[0].poll());
  EXPECT_FALSE(runs[0].poll());  // nothing new: nothing read
  EXPECT_EQ(runs[0].run().points.size(), 200u);
}

}  // namespace
}  // namespace parity::ingest
