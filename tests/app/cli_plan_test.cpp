// `plan`: the equivalent-batch table and what each setup does, as numbers, and the shard plan
// against the exact torch permutation.
#include <gtest/gtest.h>
#include <parity/config/sampler.h>

#include <fstream>

#include "cli_test_util.h"

namespace parity::cli::testing {
namespace {

TEST(CliPlan, SeedPresetsWithoutASetup) {
  TempDir home;
  CliResult r = run_cli({"plan"}, home.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  // Equivalent batch: 1 GPU, 2 GPUs, 8-worker TPU pod.
  EXPECT_EQ(row_starting_with(r.out, "256 "),
            (std::vector<std::string>{"256", "256", "128", "32"}));
  EXPECT_EQ(row_starting_with(r.out, "64 "), (std::vector<std::string>{"64", "64", "32", "8"}));
  // setup, processes, per-device batch, accumulation, global batch, effective lr,
  // optimizer steps/epoch, scheduler steps/optimizer step, total steps.
  auto one = row_starting_with(r.out, "Single GPU 1x256");
  auto two = row_starting_with(r.out, "Multi-GPU 2x128");
  auto eight = row_starting_with(r.out, "TPU-pod-shaped 8x32");
  ASSERT_GE(one.size(), 11u) << r.out;
  ASSERT_GE(two.size(), 10u) << r.out;
  ASSERT_GE(eight.size(), 10u) << r.out;
  // Cells after the two-word label.
  EXPECT_EQ(std::vector<std::string>(one.begin() + 3, one.begin() + 11),
            (std::vector<std::string>{"1", "256", "1", "256", "0.05", "235", "1", "235"}));
  EXPECT_EQ(std::vector<std::string>(two.begin() + 2, two.begin() + 10),
            (std::vector<std::string>{"2", "128", "1", "256", "0.05", "235", "2", "235"}));
  EXPECT_EQ(std::vector<std::string>(eight.begin() + 2, eight.begin() + 10),
            (std::vector<std::string>{"8", "32", "1", "256", "0.05", "235", "8", "235"}));
  EXPECT_FALSE(contains(r.out, "global batch differs"));
}

TEST(CliPlan, FlagsGiveOneSetupWithScaledLr) {
  TempDir home;
  CliResult r = run_cli({"plan", "--num-processes", "8", "--per_device_batch_size", "32",
                         "--lr-scaling", "linear", "--lr", "0.01", "--label", "pod"},
                        home.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto row = row_starting_with(r.out, "pod ");
  ASSERT_GE(row.size(), 9u) << r.out;
  EXPECT_EQ(std::vector<std::string>(row.begin() + 1, row.begin() + 9),
            (std::vector<std::string>{"8", "32", "1", "256", "0.08", "235", "8", "235"}));
}

TEST(CliPlan, SetFileMarksUnequalGlobalBatches) {
  TempDir home;
  const std::string set = home.file("set.json");
  std::ofstream(set) << R"({"experiment": {"dataset": "synthetic-regression", "task": "regression",
    "model": "linear", "synthetic_samples": 1024},
    "setups": [{"label": "one", "num_processes": 1, "per_device_batch_size": 64},
               {"label": "two", "num_processes": 2, "per_device_batch_size": 32},
               {"label": "big", "num_processes": 2, "per_device_batch_size": 64,
                "gradient_accumulation_steps": 2}]})";
  CliResult r = run_cli({"plan", "--set", set}, home.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(row_starting_with(r.out, "one ")[4], "64");
  EXPECT_EQ(row_starting_with(r.out, "two ")[4], "64");
  auto big = row_starting_with(r.out, "big ");
  ASSERT_GE(big.size(), 8u);
  EXPECT_EQ(big[4], "256");
  EXPECT_EQ(big[5], "*");
  EXPECT_EQ(big[7], "4");  // 1024 / 256 optimizer steps per epoch
  EXPECT_TRUE(contains(r.out, "global batch differs from one (64)")) << r.out;
}

TEST(CliPlan, ShardsFollowTheTorchPermutation) {
  TempDir home;
  CliResult r =
      run_cli({"plan", "--shards", "--dataset", "synthetic-regression", "--synthetic-samples", "10",
               "--num-processes", "2", "--per-device-batch-size", "3", "--seed", "7", "--steps",
               "2", "--epoch", "1"},
              home.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::vector<int64_t> p = engine::epoch_permutation(10, 7 + 1);
  auto batch = [&](std::vector<size_t> at) {
    std::string s = "[";
    for (size_t i = 0; i < at.size(); ++i) s += (i ? ", " : "") + std::to_string(p[at[i]]);
    return s + "] (" + std::to_string(at.size()) + ")";
  };
  // DESIGN.md's B=3, W=2, even_batches case: rank 1's second batch cycles to the start.
  EXPECT_TRUE(contains(r.out, "rank 0: " + batch({0, 1, 2}))) << r.out;
  EXPECT_TRUE(contains(r.out, "rank 1: " + batch({3, 4, 5}))) << r.out;
  EXPECT_TRUE(contains(r.out, "rank 0: " + batch({6, 7, 8}))) << r.out;
  EXPECT_TRUE(contains(r.out, "rank 1: " + batch({9, 0, 1}))) << r.out;
  EXPECT_TRUE(contains(r.out, "seeded 8 (data_seed 7 + epoch 1)")) << r.out;
}

TEST(CliPlan, CsvNeedsATrainSize) {
  TempDir home;
  CliResult r = run_cli({"plan", "--dataset", "csv", "--data", home.file("x.csv"), "--target", "y",
                         "--task", "regression", "--model", "linear"},
                        home.path());
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_TRUE(contains(r.err, "--train-size")) << r.err;
}

}  // namespace
}  // namespace parity::cli::testing
