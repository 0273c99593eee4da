// Runs logged as tables: TensorBoard's CSV download of a series, W&B's panel export (one run per
// run name, its __MIN/__MAX band left out), a plain step,loss,lr table and JSONL, with the damage
// a user's file can hold.
#include <gtest/gtest.h>
#include <parity/ingest/find_runs.h>
#include <parity/ingest/ingest_error.h>
#include <parity/ingest/table_log.h>
#include <parity/test_support/temp_dir.h>

#include <cmath>
#include <filesystem>
#include <fstream>

namespace parity::ingest {
namespace {

namespace fs = std::filesystem;

TEST(TableLog, TensorBoardsCsvDownloadIsOneSeriesNamedByItsFile) {
  // What TensorBoard's "download CSV" link writes for one series.
  const std::string text =
      "Wall time,Step,Value\n1733140000.5,1,2.30\n1733140001.0,2,2.10\n1733140001.5,3,1.95\n";
  const auto runs = read_table_log(text, "run-1x32-tag-train_loss.csv");
  ASSERT_EQ(runs.size(), 1u);
  EXPECT_EQ(runs[0].loss_tag, "train_loss");
  ASSERT_EQ(runs[0].points.size(), 3u);
  EXPECT_EQ(runs[0].points[2].step, 3);
  EXPECT_DOUBLE_EQ(runs[0].points[2].loss, 1.95);
  EXPECT_EQ(runs[0].format, "csv");
}

TEST(TableLog, WandbsPanelExportIsOneRunPerRunNameWithoutItsBand) {
  const std::string text =
      "Step,1x32 - loss,1x32 - loss__MIN,1x32 - loss__MAX,2x16 - loss,2x16 - loss__MIN,"
      "2x16 - loss__MAX\n"
      "1,2.3,2.2,2.4,2.31,2.2,2.4\n"
      "2,2.1,2.0,2.2,,,\n"
      "3,1.9,1.8,2.0,1.95,1.9,2.0\n";
  const auto runs = read_table_log(text, "wandb_export.csv");
  ASSERT_EQ(runs.size(), 2u);
  EXPECT_EQ(runs[0].name, "1x32");
  EXPECT_EQ(runs[1].name, "2x16");
  ASSERT_EQ(runs[0].points.size(), 3u);
  ASSERT_EQ(runs[1].points.size(), 2u);  // an empty cell is a step without a value
  EXPECT_DOUBLE_EQ(runs[1].points[1].loss, 1.95);
  EXPECT_EQ(runs[1].points[1].step, 3);
}

TEST(TableLog, APlainTableAndJsonlReadLossLrAndEvaluations) {
  const auto csv = read_table_log(
      "step,loss,lr,eval_loss\n1,2.0,0.1,\n2,1.5,0.05,1.7\n3,nan,0.025,\n4,oops,0.0125,\n",
      "log.csv");
  ASSERT_EQ(csv.size(), 1u);
  ASSERT_EQ(csv[0].points.size(), 3u);  // "oops" is skipped and counted
  EXPECT_DOUBLE_EQ(csv[0].points[1].lr, 0.05);
  EXPECT_TRUE(std::isnan(csv[0].points[2].loss));  // kept
  ASSERT_EQ(csv[0].evals.size(), 1u);
  EXPECT_EQ(csv[0].evals[0].step, 2);
  bool counted = false;
  for (const auto& n : csv[0].notes) counted = counted || n.find("1 cell(s)") != std::string::npos;
  EXPECT_TRUE(counted);
  const auto jsonl = read_table_log(
      "{\"step\": 1, \"loss\": 2.0, \"lr\": 0.1}\n{\"step\": 2, \"loss\": NaN}\nnot json\n",
      "log.jsonl");
  ASSERT_EQ(jsonl.size(), 1u);
  EXPECT_EQ(jsonl[0].format, "jsonl");
  ASSERT_EQ(jsonl[0].points.size(), 2u);
  EXPECT_TRUE(std::isnan(jsonl[0].points[1].loss));
  // A step past int64's range (or a fraction) is no step: skipped and counted (the cast was
  // undefined behaviour; found by tests/fuzz/table_log_fuzz).
  const auto huge = read_table_log("step,loss\n1,2.0\n2e19,1.0\n1.5,1.0\n", "h.csv");
  ASSERT_EQ(huge.size(), 1u);
  EXPECT_EQ(huge[0].points.size(), 1u);
  const auto huge_jsonl = read_table_log("{\"step\": 1e300, \"loss\": 1}\n", "h.jsonl");
  EXPECT_TRUE(huge_jsonl.empty());
  // No step column: no run (a data file, not a log); not text: refused.
  EXPECT_TRUE(read_table_log("x,y\n1,2\n", "data.csv").empty());
  EXPECT_THROW(read_table_log(std::string("step,loss\n1,\0", 13), "bin.csv"), IngestError);
}

TEST(TableLog, FoundUnderAFolderAndFollowedWithoutAHalfLine) {
  test_support::TempDir dir;
  const fs::path root(dir.path());
  std::ofstream(root / "data.csv") << "x,y\n1,2\n";  // not a log: no step column
  fs::create_directories(root / "exports");
  std::ofstream(root / "exports" / "wandb.csv") << "Step,a - loss,b - loss\n1,2.0,2.1\n";
  {
    std::ofstream out(root / "train.jsonl");
    out << "{\"step\": 1, \"loss\": 2.0}\n{\"step\": 2, \"lo";  // a line being written
  }
  std::vector<TableLogRun> runs = find_table_log_runs(dir.path());
  ASSERT_EQ(runs.size(), 3u);
  EXPECT_EQ(runs[0].name(), "exports/wandb/a");
  EXPECT_EQ(runs[1].name(), "exports/wandb/b");
  EXPECT_EQ(runs[2].name(), "train");
  ASSERT_TRUE(runs[2].poll());
  EXPECT_EQ(runs[2].run().points.size(), 1u);  // the half line is left for the next read
  {
    std::ofstream out(root / "train.jsonl", std::ios::app);
    out << "ss\": 1.5}\n";
  }
  ASSERT_TRUE(runs[2].poll());
  EXPECT_EQ(runs[2].run().points.size(), 2u);
  EXPECT_EQ(find_runs(dir.path()).size(), 3u);
}

}  // namespace
}  // namespace parity::ingest
