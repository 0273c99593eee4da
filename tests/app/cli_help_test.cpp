// Every verb answers --help; bad command lines and bad config values exit 2, name the field, and
// leave the database alone.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "cli_test_util.h"

namespace parity::cli::testing {
namespace {

namespace fs = std::filesystem;

const std::vector<std::string> kVerbs = {"run",  "run-set", "list", "show",  "export", "compare",
                                         "report", "plan", "demo", "rerun"};

TEST(CliHelp, TopLevelListsEveryVerb) {
  TempDir home;
  CliResult r = run_cli({"--help"}, home.path());
  EXPECT_EQ(r.exit_code, 0);
  for (const auto& verb : kVerbs) EXPECT_TRUE(contains(r.out, "  " + verb + " ")) << verb;
}

TEST(CliHelp, EveryVerbHasHelp) {
  TempDir home;
  for (const auto& verb : kVerbs) {
    CliResult r = run_cli({verb, "--help"}, home.path());
    EXPECT_EQ(r.exit_code, 0) << verb << ": " << r.err;
    EXPECT_TRUE(contains(r.out, "Usage: parity-cli " + verb)) << r.out;
  }
  EXPECT_TRUE(fs::is_empty(home.path())) << "--help wrote something";
}

TEST(CliHelp, RunHelpShowsBothSpellings) {
  TempDir home;
  CliResult r = run_cli({"run", "--help"}, home.path());
  for (const char* flag : {"--num-processes,--num_processes",
                           "--per-device-batch-size",
                           "--gradient-accumulation-steps",
                           "--mixed-precision",
                           "--lr-scaling",
                           "--split-batches",
                           "--even-batches",
                           "--drop-last",
                           "--max-steps",
                           "--dataset",
                           "--data",
                           "--features",
                           "--target",
                           "--task",
                           "--model",
                           "--init",
                           "--hidden",
                           "--optimizer",
                           "--lr",
                           "--momentum",
                           "--weight-decay",
                           "--scheduler",
                           "--warmup-steps",
                           "--loss",
                           "--eval-every-epoch",
                           "--seed",
                           "--data-seed",
                           "--device-specific-seed",
                           "--device",
                           "--config",
                           "--db",
                           "--run-id",
                           "--worker",
                           "--nnodes",
                           "--node-rank",
                           "--master-addr",
                           "--master-port",
                           "--hang-timeout",
                           "--quiet"})
    EXPECT_TRUE(contains(r.out, flag)) << flag;
}

TEST(CliHelp, NoVerbIsAUsageError) {
  TempDir home;
  EXPECT_EQ(run_cli({}, home.path()).exit_code, 2);
  EXPECT_EQ(run_cli({"train"}, home.path()).exit_code, 2);
  EXPECT_EQ(run_cli({"run", "--no-such-flag"}, home.path()).exit_code, 2);
}

struct BadValue {
  std::vector<std::string> args;
  std::string field;
};

TEST(CliConfig, BadValuesExitTwoNameTheFieldAndWriteNothing) {
  TempDir home;
  const std::string db = home.file("runs.db");
  const std::vector<BadValue> cases = {
      {{"--num-processes", "abc"}, "num_processes"},
      {{"--num_processes", "0"}, "num_processes"},
      {{"--per-device-batch-size", "-4"}, "per_device_batch_size"},
      {{"--mixed-precision", "fp8"}, "mixed_precision"},
      {{"--mixed-precision", "fp16"}, "mixed_precision"},  // refused on cpu
      {{"--lr-scaling", "cubic"}, "lr_scaling"},
      {{"--even-batches", "maybe"}, "even_batches"},
      {{"--drop-last=perhaps"}, "drop_last"},
      {{"--lr", "0"}, "lr"},
      {{"--hidden", "256,x"}, "hidden"},
      {{"--dataset", "imagenet"}, "dataset"},
      {{"--split-batches", "--num-processes", "2", "--per-device-batch-size", "3"},
       "per_device_batch_size"},
  };
  for (const auto& c : cases) {
    std::vector<std::string> args{"run", "--db", db};
    args.insert(args.end(), c.args.begin(), c.args.end());
    CliResult r = run_cli(args, home.path());
    EXPECT_EQ(r.exit_code, 2) << c.field << ": " << r.err;
    EXPECT_TRUE(contains(r.err, c.field)) << r.err;
    EXPECT_FALSE(fs::exists(db)) << "a bad " << c.field << " created the database";
  }
  EXPECT_TRUE(fs::is_empty(home.path())) << "the default database was created";
}

TEST(CliConfig, BadValueLeavesAnExistingDatabaseUnchanged) {
  TempDir home;
  const std::string db_path = home.file("runs.db");
  {
    storage::Database db(db_path);
    add_finished_run(db, tiny_config("kept", 1, 8), 3);
  }
  CliResult r =
      run_cli({"run", "--db", db_path, "--gradient_accumulation_steps", "0"}, home.path());
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_TRUE(contains(r.err, "gradient_accumulation_steps")) << r.err;
  storage::Database db(db_path);
  EXPECT_EQ(db.list_runs().size(), 1u);
}

TEST(CliConfig, BadConfigFileNamesTheKey) {
  TempDir home;
  const std::string cfg = home.file("bad.json");
  std::ofstream(cfg) << R"({"num_processes": 2, "per_device_batch_size": "big"})";
  CliResult r = run_cli({"run", "--db", home.file("x.db"), "--config", cfg}, home.path());
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_TRUE(contains(r.err, "per_device_batch_size")) << r.err;
  EXPECT_FALSE(fs::exists(home.file("x.db")));

  r = run_cli({"run", "--db", home.file("x.db"), "--config", home.file("missing.json")},
              home.path());
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_TRUE(contains(r.err, "missing.json")) << r.err;
}

TEST(CliConfig, MissingWorkerIsReportedBeforeAnythingIsWritten) {
  TempDir home;
  CliResult r = run_cli({"run", "--db", home.file("x.db"), "--worker", "/nonexistent/worker",
                         "--dataset", "synthetic-regression", "--model", "linear"},
                        home.path());
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_TRUE(contains(r.err, "parity-worker not found at /nonexistent/worker")) << r.err;
  EXPECT_FALSE(fs::exists(home.file("x.db")));
}

}  // namespace
}  // namespace parity::cli::testing
