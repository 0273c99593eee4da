// The verdict on the user's own command, judged on what the command did (#40 §7). The command is
// tests/data/accelerate_default_job.py: plain PyTorch doing what an Accelerate script with its
// defaults does (a DataLoader(shuffle=True) on one process, an unseeded generator's order on
// several), on 512 rows of its own. No fact of Parity's datasets may be assumed for it, its
// counterfactuals run its own template, and its data order is proved by the reference's seeds:
// never "possible bug".
#include <gtest/gtest.h>
#include <parity/test_support/ci_skip.h>

#include <string>
#include <vector>

#include "cli_test_util.h"

namespace parity::cli::testing {
namespace {

struct CommandVerdictTest : public ::testing::Test {
  void SetUp() override {
    if (::system("/usr/bin/python3 -c 'import torch' 2>/dev/null") != 0)
      PARITY_SKIP_OR_FAIL() << "python3-torch is not installed (scripts/install-deps.sh installs it)";
    db = dir.file("c.db");
  }
  // One setup of the user's command: 2 epochs of 512 rows.
  CliResult run(const char* label, const char* processes, const char* batch) {
    return run_cli({"run", "--db", db, "-q", "--label", label, "--num-processes", processes,
                    "--per-device-batch-size", batch, "--lr", "0.05", "--command", kTemplate},
                   dir.path());
  }
  static inline const std::string kJob = std::string(PARITY_TEST_DATA) + "/accelerate_default_job.py";
  static inline const std::string kTemplate =
      "/usr/bin/python3 " + kJob +
      " --nproc {num_processes} --port {main_process_port} --bs {per_device_batch_size} --lr "
      "{learning_rate} --seed {seed}";
  TempDir dir;
  std::string db;
};

// Every command this verb ran (its "[label] runs ..." lines on stderr).
std::vector<std::string> commands_run(const std::string& err) {
  std::vector<std::string> out;
  for (size_t at = err.find("] runs "); at != std::string::npos; at = err.find("] runs ", at + 1))
    out.push_back(err.substr(at + 7, err.find('\n', at) - at - 7));
  return out;
}

// 2x32 against 1x64: the same arithmetic in every setting the template carries, another data
// order. compare names the data order (the script's own sampler), assumes no dataset size, and
// explain proves it against the reference under two more seeds through the reference's own
// template; fix says no setting moves it.
TEST_F(CommandVerdictTest, TheDataOrderOfAnotherProcessCountIsProvedNotABug) {
  ASSERT_EQ(run("1x64", "1", "64").exit_code, 0);
  const CliResult two = run("2x32", "2", "32");
  ASSERT_EQ(two.exit_code, 0) << two.err;
  const CliResult cmp = run_cli({"compare", "--db", db, "-r", "1", "2"}, dir.path());
  ASSERT_EQ(cmp.exit_code, 0) << cmp.err;
  EXPECT_NE(cmp.out.find("run 2 (2x32): different"), std::string::npos) << cmp.out;
  EXPECT_NE(cmp.out.find("draw another order than 1 process"), std::string::npos) << cmp.out;
  EXPECT_EQ(cmp.out.find("dataset size"), std::string::npos) << cmp.out;
  EXPECT_EQ(cmp.out.find("possible bug"), std::string::npos) << cmp.out;

  const CliResult ex = run_cli({"explain", "--db", db, "--reference", "1", "2"}, dir.path());
  ASSERT_EQ(ex.exit_code, 0) << ex.err;
  EXPECT_EQ(ex.out.find("possible bug"), std::string::npos) << ex.out;
  EXPECT_NE(ex.out.find("confirmed: no further from the reference than its own seeds"),
            std::string::npos)
      << ex.out;
  const std::vector<std::string> ran = commands_run(ex.err);
  ASSERT_EQ(ran.size(), 2u) << ex.err;
  for (const std::string& c : ran) {
    EXPECT_EQ(c.rfind("/usr/bin/python3 " + kJob + " --nproc 1 --port ", 0), 0u) << c;
    EXPECT_NE(c.find(" --bs 64 --lr 0.05 --seed 4"), std::string::npos) << c;  // seeds 43, 44
  }
  const CliResult fix = run_cli({"fix", "--db", db, "--reference", "1", "2"}, dir.path());
  EXPECT_EQ(fix.exit_code, 1) << fix.out;
  EXPECT_NE(fix.out.find("noise no setting removes"), std::string::npos) << fix.out;
}

// 2x64 against 1x64: the global batch and the lr, then the data order. explain's counterfactuals
// and fix run the run's own template (two processes, the remedy's --bs 32); fix comes back
// equivalent against the reference's seeds.
TEST_F(CommandVerdictTest, TheGlobalBatchIsFixedThroughTheRunsOwnTemplate) {
  ASSERT_EQ(run("1x64", "1", "64").exit_code, 0);
  ASSERT_EQ(run("2x64", "2", "64").exit_code, 0);
  const CliResult cmp = run_cli({"compare", "--db", db, "-r", "1", "2"}, dir.path());
  ASSERT_EQ(cmp.exit_code, 0) << cmp.err;
  EXPECT_NE(cmp.out.find("global batch 128 vs 64"), std::string::npos) << cmp.out;
  EXPECT_NE(cmp.out.find("learning rate not scaled with the number of processes"),
            std::string::npos)
      << cmp.out;
  EXPECT_EQ(cmp.out.find("dataset size"), std::string::npos) << cmp.out;

  const CliResult dry =
      run_cli({"explain", "--db", db, "--reference", "1", "2", "--dry-run"}, dir.path());
  ASSERT_EQ(dry.exit_code, 0) << dry.err;
  EXPECT_NE(dry.out.find("] all: per-device batch 64 -> 32"), std::string::npos) << dry.out;

  const CliResult fix = run_cli({"fix", "--db", db, "--reference", "1", "2"}, dir.path());
  EXPECT_EQ(fix.exit_code, 0) << fix.out << fix.err;
  EXPECT_NE(fix.out.find("remedy: 2 processes x 32 per device, accumulation 1 (global batch 64), "
                         "lr 0.05 after scaling"),
            std::string::npos)
      << fix.out;
  EXPECT_NE(fix.out.find("): equivalent now — confirmed"), std::string::npos) << fix.out;
  const std::vector<std::string> ran = commands_run(fix.err);
  ASSERT_EQ(ran.size(), 3u) << fix.err;  // the remedy, then the reference under two more seeds
  EXPECT_EQ(ran[0].rfind("/usr/bin/python3 " + kJob + " --nproc 2 --port ", 0), 0u) << ran[0];
  EXPECT_NE(ran[0].find(" --bs 32 --lr 0.05 --seed 42"), std::string::npos) << ran[0];
  EXPECT_NE(ran[1].find(" --nproc 1 "), std::string::npos) << ran[1];
  EXPECT_EQ(fix.out.find("possible bug"), std::string::npos) << fix.out;
}

}  // namespace
}  // namespace parity::cli::testing
