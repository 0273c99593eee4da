// `list`, `show`, `export` and `compare` on a database filled through storage.
#include <gtest/gtest.h>

#include <filesystem>

#include "cli_test_util.h"

namespace parity::cli::testing {
namespace {

namespace fs = std::filesystem;

class CliDb : public ::testing::Test {
 protected:
  void SetUp() override {
    db_path_ = home_.file("runs.db");
    storage::Database db(db_path_);
    // 1x16 and 2x8 share the global batch and the curve; 2x16 unscaled does not.
    ref_ = add_finished_run(db, tiny_config("ref 1x16", 1, 16), 8);
    same_ = add_finished_run(db, tiny_config("same 2x8", 2, 8), 8);
    config::RunConfig big = tiny_config("big 2x16", 2, 16);
    big_ = add_finished_run(db, big, 4, 3.0);
    queued_ = db.create_run("waiting", config::to_json(tiny_config("waiting", 1, 4)));
  }
  CliResult cli(std::vector<std::string> args) {
    args.push_back("--db");
    args.push_back(db_path_);
    return run_cli(args, home_.path());
  }

  TempDir home_;
  std::string db_path_;
  int64_t ref_ = 0, same_ = 0, big_ = 0, queued_ = 0;
};

TEST_F(CliDb, ListShowsEveryRun) {
  CliResult r = cli({"list"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto row = row_starting_with(r.out, std::to_string(same_) + " ");
  ASSERT_GE(row.size(), 6u) << r.out;
  EXPECT_EQ(row[1], "same");
  EXPECT_EQ(row[3], "finished");
  EXPECT_EQ(row[4], "8/8");
  auto waiting = row_starting_with(r.out, std::to_string(queued_) + " ");
  ASSERT_GE(waiting.size(), 3u);
  EXPECT_EQ(waiting[2], "queued");
}

TEST_F(CliDb, ShowPrintsConfigFinalsAndEvals) {
  CliResult r = cli({"show", std::to_string(same_)});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(contains(r.out, "same 2x8  finished")) << r.out;
  EXPECT_TRUE(contains(r.out, "\"num_processes\": 2")) << r.out;
  EXPECT_TRUE(contains(r.out, "steps 8/8")) << r.out;
  EXPECT_TRUE(contains(r.out, "evaluations:")) << r.out;
  EXPECT_EQ(cli({"show", "999"}).exit_code, 2);
  EXPECT_EQ(cli({"show", "abc"}).exit_code, 2);
}

TEST_F(CliDb, ExportCurvesInLongFormat) {
  const std::string out = home_.file("curves.csv");
  CliResult r = cli({"export", "--out", out, "--runs", std::to_string(same_)});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string csv = read_file(out);
  EXPECT_EQ(csv.rfind("run_id,label,step,epoch,samples,rank,loss,lr,time_s\r\n", 0), 0u) << csv;
  // 8 steps x (global + 2 ranks) rows, plus the header.
  size_t lines = 0;
  for (char c : csv) lines += c == '\n';
  EXPECT_EQ(lines, 1u + 8 * 3);

  r = cli({"export", "--out", out, "--runs", std::to_string(same_), "--no-ranks"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  lines = 0;
  for (char c : read_file(out)) lines += c == '\n';
  EXPECT_EQ(lines, 1u + 8);
}

TEST_F(CliDb, ExportRunsTableAndErrors) {
  CliResult r = cli({"export", "--out", "-", "--runs-table"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out.rfind("run_id,label,status,", 0), 0u) << r.out;
  EXPECT_TRUE(contains(r.out, "config.num_processes")) << r.out;

  EXPECT_EQ(cli({"export", "--out", home_.file("x.csv"), "--runs", "99"}).exit_code, 2);
  EXPECT_EQ(cli({"export", "--out", home_.file("x.csv"), "--report"}).exit_code, 2);
  EXPECT_EQ(
      run_cli({"export", "--db", home_.file("nope.db"), "--out", "-"}, home_.path()).exit_code, 2);
  EXPECT_FALSE(fs::exists(home_.file("nope.db")));
}

TEST_F(CliDb, CompareGivesTheVerdictAndReasons) {
  CliResult r = cli({"compare", "--reference", std::to_string(ref_), std::to_string(same_),
                     std::to_string(big_)});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto same = row_starting_with(r.out, std::to_string(same_) + " ");
  auto big = row_starting_with(r.out, std::to_string(big_) + " ");
  ASSERT_GE(same.size(), 4u) << r.out;
  ASSERT_GE(big.size(), 4u) << r.out;
  EXPECT_EQ(same[3], "equivalent") << r.out;
  EXPECT_EQ(big[3], "different") << r.out;
  EXPECT_TRUE(contains(r.out, "global batch 32 vs 16")) << r.out;

  EXPECT_EQ(cli({"compare", "--reference", "999"}).exit_code, 2);
  EXPECT_EQ(cli({"compare", "--reference", std::to_string(ref_), "--axis", "bananas"}).exit_code,
            2);
}

TEST_F(CliDb, ReportCsvHasVerdictColumns) {
  CliResult r = cli({"export", "--out", "-", "--report", "--reference", std::to_string(ref_),
                     "--runs", std::to_string(same_) + "," + std::to_string(big_)});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string header = r.out.substr(0, r.out.find('\n'));
  for (const char* column : {"reference_run", "verdict", "reasons", "differing_keys",
                             "max_abs_delta", "final_eval_loss_delta", "scaling_efficiency"})
    EXPECT_TRUE(contains(header, column)) << column << " missing from " << header;
  EXPECT_TRUE(contains(r.out, ",equivalent,")) << r.out;
  EXPECT_TRUE(contains(r.out, ",different,")) << r.out;
  EXPECT_TRUE(contains(r.out, "num_processes: 2 vs 1")) << r.out;
}

}  // namespace
}  // namespace parity::cli::testing
