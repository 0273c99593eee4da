// SyncBatchNorm on the user's path (#36 §3): `parity-cli run --sync-batch-norm` with real
// parity-worker processes. Two ranks of 8 with it train as one process of 16 (batch norm over
// every rank's batch together); without it, each rank normalises over its own 8 and the verdict
// names batch norm.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "cli_test_util.h"

namespace parity::cli::testing {
namespace {

TEST(CliSyncBatchNorm, TwoRanksSyncedTrainAsOneProcessOfTheirBatchTogether) {
  TempDir dir;
  const std::string db = dir.file("bn.db");
  auto run = [&](const std::string& label, std::vector<std::string> setup) {
    std::vector<std::string> args = {"run",     "--db",      db,     "-q", "--label", label,
                                     "--dataset", "synthetic-regression", "--task", "regression",
                                     "--synthetic-samples", "256", "--model", "mlp", "--hidden",
                                     "16", "--batch-norm", "--lr", "0.05", "--epochs", "2"};
    args.insert(args.end(), setup.begin(), setup.end());
    return run_cli(args, dir.path());
  };
  ASSERT_EQ(run("1x16", {"--num-processes", "1", "--per-device-batch-size", "16"}).exit_code, 0);
  const CliResult synced = run("2x8 sync", {"--num-processes", "2", "--per-device-batch-size", "8",
                                            "--sync-batch-norm"});
  ASSERT_EQ(synced.exit_code, 0) << synced.err;
  const CliResult plain =
      run("2x8", {"--num-processes", "2", "--per-device-batch-size", "8"});
  ASSERT_EQ(plain.exit_code, 0) << plain.err;
  const CliResult cmp = run_cli({"compare", "--db", db, "-r", "1", "2", "3"}, dir.path());
  ASSERT_EQ(cmp.exit_code, 0) << cmp.err;
  EXPECT_TRUE(contains(cmp.out, "run 2 (2x8 sync): equivalent")) << cmp.out;
  EXPECT_TRUE(contains(cmp.out, "run 3 (2x8): different")) << cmp.out;
  EXPECT_TRUE(contains(cmp.out, "batch norm normalises over the per-device batch: 8 vs 16"))
      << cmp.out;
  // And the remedy of the unsynced run is the synced one.
  const CliResult fix = run_cli({"fix", "--db", db, "--reference", "1", "3"}, dir.path());
  EXPECT_EQ(fix.exit_code, 0) << fix.out << fix.err;
  EXPECT_TRUE(contains(fix.out, "sync batch norm on: statistics over 16 samples")) << fix.out;
  EXPECT_TRUE(contains(fix.out, "equivalent now")) << fix.out;
}

}  // namespace
}  // namespace parity::cli::testing
