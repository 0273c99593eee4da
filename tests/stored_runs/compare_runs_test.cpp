// From stored rows to the verdict's runs: what each column becomes, and what is refused.
#include <gtest/gtest.h>
#include <parity/stored_runs/compare_runs.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <limits>
#include <optional>
#include <string>
#include <vector>

namespace parity::stored_runs {
namespace {

namespace fs = std::filesystem;

config::RunConfig tiny(int processes, int64_t per_device) {
  config::RunConfig c;
  c.dataset = config::DatasetKind::kSyntheticRegression;
  c.task = config::Task::kRegression;
  c.model = config::ModelKind::kLinear;
  c.synthetic_samples = 64;
  c.num_processes = processes;
  c.per_device_batch_size = per_device;
  return c;
}

class StoredRuns : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string pattern = (fs::temp_directory_path() / "parity-stored-runs-XXXXXX").string();
    ASSERT_NE(mkdtemp(pattern.data()), nullptr);
    dir_ = pattern;
    db_.emplace((fs::path(dir_) / "runs.db").string());
  }
  void TearDown() override {
    db_.reset();
    fs::remove_all(dir_);
  }

  // A finished run of `steps` global steps (loss 1/step) plus rank 0's rows and one evaluation.
  int64_t add_run(const std::string& label, const config::RunConfig& c, int steps) {
    const int64_t id = db_->create_run(label, config::to_json(c), storage::RunStatus::kRunning);
    std::vector<storage::StepRow> rows;
    for (int s = 1; s <= steps; ++s) {
      rows.push_back({id, s, -1, s / 4.0, s * 16, 1.0 / s, 0.05, s * 0.5});
      rows.push_back({id, s, 0, s / 4.0, s * 16, 2.0, 0.05, s * 0.5});
    }
    db_->append_steps(rows);
    db_->append_evals({{id, 1, steps, steps * 16, 0.25, 0.75}});
    db_->finish_run(id, storage::RunStatus::kFinished, "", 320.0);
    return id;
  }

  std::string dir_;
  std::optional<storage::Database> db_;
};

TEST_F(StoredRuns, TheRowAndTheGlobalCurveBecomeACompareRun) {
  const config::RunConfig config = tiny(2, 8);
  const int64_t id = add_run("2x8", config, 4);
  db_->append_steps({{id, 5, -1, 1.25, 80, std::numeric_limits<double>::quiet_NaN(), 0.05, 2.5}});
  const analysis::CompareRun run = load_compare_run(*db_, id);
  EXPECT_EQ(run.id, id);
  EXPECT_EQ(run.label, "2x8");
  EXPECT_EQ(config::to_json(run.config), config::to_json(config));
  ASSERT_EQ(run.points.size(), 5u);  // rank 0's rows are not the curve
  for (int i = 0; i < 4; ++i) {
    const analysis::CurvePoint& p = run.points[i];
    EXPECT_EQ(p.step, i + 1);
    EXPECT_DOUBLE_EQ(p.samples, 16.0 * (i + 1));
    EXPECT_DOUBLE_EQ(p.epoch, (i + 1) / 4.0);
    EXPECT_DOUBLE_EQ(p.time_s, (i + 1) * 0.5);
    EXPECT_DOUBLE_EQ(p.loss, 1.0 / (i + 1));
  }
  EXPECT_TRUE(std::isnan(run.points[4].loss));  // NaN stays NaN
  ASSERT_TRUE(run.final_eval_loss && run.final_accuracy);
  EXPECT_DOUBLE_EQ(*run.final_eval_loss, 0.25);
  EXPECT_DOUBLE_EQ(*run.final_accuracy, 0.75);
  EXPECT_DOUBLE_EQ(run.samples_per_s, 320.0);
  // Left to the verdict's defaults: the run stored no training-set size.
  EXPECT_FALSE(run.train_size.has_value());
  EXPECT_EQ(run.wall_time_s, 0);
}

// A run that stored its training set's size hands it to the verdict, which then sees padding on
// a dataset whose size it cannot know from the config (a CSV).
TEST_F(StoredRuns, TheStoredTrainingSetSizeReachesTheDiagnosis) {
  config::RunConfig one = tiny(1, 16), two = tiny(2, 8);
  one.dataset = two.dataset = config::DatasetKind::kCsv;
  one.data_path = two.data_path = "/data/mine.csv";
  one.target = two.target = "y";  // as every CSV run the engine trains names it
  const int64_t a = add_run("1x16", one, 5), b = add_run("2x8", two, 5);
  for (int64_t id : {a, b}) db_->set_started(id, 5, 77);
  const analysis::CompareRun ref = load_compare_run(*db_, a);
  const analysis::CompareRun run = load_compare_run(*db_, b);
  ASSERT_TRUE(run.train_size.has_value());
  EXPECT_EQ(*run.train_size, 77);
  const analysis::Diagnosis d =
      analysis::diagnose(run.config, ref.config, run.train_size, ref.train_size);
  bool padding = false;
  for (const auto& cause : d.causes) padding |= cause.key == "padding";
  EXPECT_TRUE(padding) << "77 samples on 2 ranks of 8 pad the last batch";
}

TEST_F(StoredRuns, AMissingRunOrABadConfigIsRefusedByName) {
  try {
    load_compare_run(*db_, 99);
    FAIL() << "no StoredRunError";
  } catch (const StoredRunError& e) {
    EXPECT_EQ(std::string(e.what()), "no run 99 in " + db_->path());
  }
  const int64_t bad = db_->create_run("bad", R"({"num_processes": "two"})");
  try {
    load_compare_run(*db_, bad);
    FAIL() << "no StoredRunError";
  } catch (const StoredRunError& e) {
    const std::string prefix = "run " + std::to_string(bad) + " has a config that does not load: ";
    EXPECT_EQ(std::string(e.what()).rfind(prefix, 0), 0u) << e.what();
    EXPECT_GT(std::string(e.what()).size(), prefix.size());  // with the config's own reason
  }
}

TEST_F(StoredRuns, CompareStoredKeepsTheOrderAndSkipsTheReference) {
  const int64_t a = add_run("1x16", tiny(1, 16), 4);
  const int64_t b = add_run("2x8", tiny(2, 8), 4);
  const int64_t c = add_run("2x16", tiny(2, 16), 2);
  const analysis::Comparison cmp = compare_stored(*db_, a, {c, a, b});
  EXPECT_EQ(cmp.reference_id, a);
  ASSERT_EQ(cmp.rows.size(), 3u);
  EXPECT_EQ(cmp.rows[0].id, a);
  EXPECT_EQ(cmp.rows[1].id, c);
  EXPECT_EQ(cmp.rows[2].id, b);
  // Same curve on samples seen: 2x8 is the reference's equal.
  EXPECT_EQ(cmp.rows[2].verdict, analysis::Verdict::kEquivalent) << cmp.rows[2].summary;
  // What compare_stored() hands analysis::compare() is load_compare_run()'s.
  analysis::CompareOptions options;
  options.axis = analysis::Axis::kStep;
  const analysis::Comparison direct = analysis::compare(
      load_compare_run(*db_, a), {load_compare_run(*db_, c), load_compare_run(*db_, b)}, options);
  const analysis::Comparison stored = compare_stored(*db_, a, {c, b}, options);
  ASSERT_EQ(stored.rows.size(), direct.rows.size());
  for (size_t i = 0; i < stored.rows.size(); ++i) {
    EXPECT_EQ(stored.rows[i].summary, direct.rows[i].summary);
  }
  EXPECT_THROW(compare_stored(*db_, a, {b, 42}), StoredRunError);
}

}  // namespace
}  // namespace parity::stored_runs
