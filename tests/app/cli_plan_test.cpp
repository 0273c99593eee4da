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
  const std::vector<int64_t> p = config::epoch_permutation(10, 7 + 1);
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

TEST(CliPlan, AMissingCsvIsNamedWithTheWayAround) {
  TempDir home;
  CliResult r = run_cli({"plan", "--dataset", "csv", "--data", home.file("x.csv"), "--target", "y",
                         "--task", "regression", "--model", "linear"},
                        home.path());
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_TRUE(contains(r.err, "cannot open " + home.file("x.csv"))) << r.err;
  EXPECT_TRUE(contains(r.err, "--train-size")) << r.err;
}

void write_rows(const std::string& path, int rows) {
  std::ofstream out(path);
  out << "x,y\n";
  for (int i = 0; i < rows; ++i) out << i << "," << 2 * i << "\n";
}

TEST(CliPlan, ReadsTheCsvsSizeAndSaysWhatTrainsAndWhatEvaluates) {
  TempDir home;
  write_rows(home.file("d.csv"), 64);
  const std::vector<std::string> base{"plan",
                                      "--dataset",
                                      "csv",
                                      "--data",
                                      home.file("d.csv"),
                                      "--target",
                                      "y",
                                      "--task",
                                      "regression",
                                      "--model",
                                      "linear",
                                      "--num-processes",
                                      "2",
                                      "--per-device-batch-size",
                                      "16"};
  CliResult r = run_cli(base, home.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(contains(r.out, "64 train, none evaluate (no test data: no evaluation)")) << r.out;
  auto row = row_starting_with(r.out, "2x16");
  ASSERT_GE(row.size(), 9u) << r.out;
  EXPECT_EQ(row[6], "2");  // 64 / 32: no padding the user never had
  auto split = base;
  split.insert(split.end(), {"--validation-split", "0.25"});
  r = run_cli(split, home.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(contains(r.out, "48 train, 16 evaluate (the last 25 % of d.csv)")) << r.out;
}

TEST(CliPlan, SaysWhenTheDefaultScheduleEndsBeforeTraining) {
  TempDir home;
  write_rows(home.file("d.csv"), 77);  // 5 unsharded batches of 16; 3 steps on each of 2 ranks
  CliResult r = run_cli({"plan", "--dataset", "csv", "--data", home.file("d.csv"), "--target", "y",
                         "--task", "regression", "--model", "linear", "--num-processes", "2",
                         "--per-device-batch-size", "16", "--scheduler", "linear"},
                        home.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(contains(r.out,
                       "the lr schedule (5 scheduler steps, the default) ends before "
                       "training (6): linear holds lr 0 after optimizer step 2"))
      << r.out;
  r = run_cli({"plan", "--dataset", "csv", "--data", home.file("d.csv"), "--target", "y", "--task",
               "regression", "--model", "linear", "--num-processes", "2", "--per-device-batch-size",
               "16", "--scheduler", "linear", "--num-training-steps", "6"},
              home.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_FALSE(contains(r.out, "ends before training")) << r.out;
}

TEST(CliPlan, AccelerateConfigSetsTheSetupAndFlagsOverrideIt) {
  TempDir home;
  std::ofstream(home.file("acc.yaml"))
      << "compute_environment: LOCAL_MACHINE\ndistributed_type: MULTI_CPU\nnum_processes: 4\n"
         "mixed_precision: bf16\ngradient_accumulation_steps: 2\nmachine_rank: 0\n"
         "num_machines: 1\nuse_cpu: true\nmain_training_function: main\nfsdp_config: {}\n";
  CliResult r = run_cli(
      {"plan", "--accelerate-config", home.file("acc.yaml"), "--per-device-batch-size", "8"},
      home.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto row = row_starting_with(r.out, "4x8");
  ASSERT_GE(row.size(), 7u) << r.out;
  // The label names the shape: "4x8 acc2 bf16", then the cells.
  EXPECT_EQ(row[1], "acc2");
  EXPECT_EQ(row[2], "bf16");
  EXPECT_EQ(row[3], "4");
  EXPECT_EQ(row[5], "2");   // accumulation
  EXPECT_EQ(row[6], "64");  // 4 x 8 x 2
  EXPECT_TRUE(contains(r.err, "not used by Parity: fsdp_config")) << r.err;
  r = run_cli({"plan", "--accelerate-config", home.file("acc.yaml"), "--num-processes", "2",
               "--per-device-batch-size", "8"},
              home.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_FALSE(row_starting_with(r.out, "2x8").empty()) << r.out;
  std::ofstream(home.file("bad.yaml")) << "mixed_precision: fp8\n";
  r = run_cli({"plan", "--accelerate-config", home.file("bad.yaml")}, home.path());
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_TRUE(contains(r.err, "fp8 is not one Parity trains")) << r.err;
}

}  // namespace
}  // namespace parity::cli::testing
