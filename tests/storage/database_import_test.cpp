// Schema 5: a run's origin, source and facts; imported runs written in one transaction and
// re-imported without doubling.
#include <gtest/gtest.h>
#include <parity/storage/database.h>

#include <cmath>
#include <stdexcept>

#include "test_util.h"

namespace parity::storage {
namespace {

using testing::exec_sql;
using testing::TempDir;

ImportedRunRecord record(int64_t steps, const std::string& identity = "tensorboard:/logs/a") {
  ImportedRunRecord r;
  r.label = "a";
  r.source_path = "/logs/a";
  r.source_identity = identity;
  r.facts_json = R"({"num_processes":{"value":2,"provenance":"known","source":"hparams"}})";
  r.train_size = 6400;
  for (int64_t s = 1; s <= steps; ++s) {
    StepRow row;
    row.step = s;
    row.loss = 1.0 / static_cast<double>(s);
    row.samples = s * 64;
    r.steps.push_back(row);
  }
  r.evals.push_back(EvalRow{0, 1, steps, steps * 64, 0.5, 0.8});
  return r;
}

TEST(DatabaseImport, MigratesAVersion4DatabaseWhoseRunsAreTheEngines) {
  TempDir dir;
  const std::string path = dir.file("v4.db");
  int64_t old = 0;
  {
    Database db(path);
    old = db.create_run("engine run", "{}");
    exec_sql(db.handle(), std::string(testing::kDropSchemaV5) + "PRAGMA user_version = 4");
  }
  {
    Database viewer(path, OpenMode::kReadOnly);  // read as it is
    EXPECT_EQ(viewer.schema_version(), 4);
    EXPECT_EQ(viewer.get_run(old)->origin, RunOrigin::kEngine);
    EXPECT_FALSE(viewer.find_run_by_source("x"));
  }
  Database db(path);
  EXPECT_EQ(db.schema_version(), Database::kSchemaVersion);
  const RunRow run = *db.get_run(old);
  EXPECT_EQ(run.label, "engine run");
  EXPECT_EQ(run.origin, storage::RunOrigin::kEngine);
  EXPECT_EQ(run.facts_json, "");
}

// An imported run's samples/s is what Compare reads from its curve: the last logged point's
// samples over its time (#38 §11: the Runs table showed none); a log without times gives none.
TEST(DatabaseImport, SamplesPerSecondIsTheLastPointsSamplesOverItsTime) {
  TempDir dir;
  Database db(dir.file("p.db"));
  EXPECT_EQ(db.get_run(db.import_run(record(10)).run_id)->samples_per_s, 0);
  ImportedRunRecord timed = record(10, "tensorboard:/logs/b");
  for (StepRow& row : timed.steps) row.time_s = 0.5 * static_cast<double>(row.step);
  const int64_t id = db.import_run(timed).run_id;
  EXPECT_DOUBLE_EQ(db.get_run(id)->samples_per_s, 640.0 / 5.0);
}

TEST(DatabaseImport, CreatesTheRunWithItsRowsFinalsAndSource) {
  TempDir dir;
  Database db(dir.file("p.db"));
  const ImportOutcome out = db.import_run(record(100));
  EXPECT_TRUE(out.created);
  EXPECT_EQ(out.steps_added, 100);
  EXPECT_EQ(out.evals_added, 1);
  const RunRow run = *db.get_run(out.run_id);
  EXPECT_EQ(run.origin, storage::RunOrigin::kImported);
  EXPECT_EQ(run.source_path, "/logs/a");
  EXPECT_EQ(run.status, RunStatus::kFinished);
  EXPECT_EQ(run.steps_done, 100);
  EXPECT_EQ(run.total_steps, 100);
  EXPECT_EQ(run.train_size, 6400);
  EXPECT_DOUBLE_EQ(*run.final_loss, 0.01);
  EXPECT_DOUBLE_EQ(*run.final_eval_loss, 0.5);
  EXPECT_NE(run.facts_json.find("hparams"), std::string::npos);
  EXPECT_EQ(db.find_run_by_source("tensorboard:/logs/a"), out.run_id);
}

TEST(DatabaseImport, ReimportAppendsOnlyNewStepsAndDoublesNothing) {
  TempDir dir;
  Database db(dir.file("p.db"));
  const int64_t id = db.import_run(record(100)).run_id;
  const ImportOutcome again = db.import_run(record(100));
  EXPECT_FALSE(again.created);
  EXPECT_EQ(again.run_id, id);
  EXPECT_EQ(again.steps_added, 0);
  EXPECT_EQ(again.evals_added, 0);
  const ImportOutcome grown = db.import_run(record(150));
  EXPECT_EQ(grown.steps_added, 50);
  EXPECT_EQ(db.steps(id).size(), 150u);
  EXPECT_EQ(db.list_runs().size(), 1u);
  EXPECT_EQ(db.get_run(id)->steps_done, 150);
  EXPECT_EQ(db.evals(id).size(), 2u);  // step 100's and step 150's
}

TEST(DatabaseImport, AnImportThatFailsMidwayLeavesNoHalfRun) {
  TempDir dir;
  Database db(dir.file("p.db"));
  // A real failure inside the transaction, at the 50th step row.
  exec_sql(db.handle(),
           "CREATE TRIGGER fail_at_50 BEFORE INSERT ON steps WHEN NEW.step = 50 BEGIN "
           "SELECT RAISE(ABORT, 'disk on fire'); END;");
  EXPECT_THROW(db.import_run(record(100)), StorageError);
  EXPECT_TRUE(db.list_runs().empty());
  EXPECT_EQ(testing::query_int(db.handle(), "SELECT count(*) FROM steps"), 0);
  exec_sql(db.handle(), "DROP TRIGGER fail_at_50");
  EXPECT_EQ(db.import_run(record(100)).steps_added, 100);
}

TEST(DatabaseImport, SetFactsReplacesFactsAndConfig) {
  TempDir dir;
  Database db(dir.file("p.db"));
  const int64_t id = db.import_run(record(3)).run_id;
  db.set_facts(id, R"({"seed":{"value":1,"provenance":"known","source":"parity-cli set"}})",
               R"({"seed":1})");
  EXPECT_NE(db.get_run(id)->facts_json.find("parity-cli set"), std::string::npos);
  EXPECT_EQ(db.get_run(id)->config_json, R"({"seed":1})");
  EXPECT_THROW(db.set_facts(id + 10, "{}", ""), StorageError);
  EXPECT_THROW(db.import_run(record(3, "")), StorageError);
}

TEST(DatabaseImport, NanLossesAreKept) {
  TempDir dir;
  Database db(dir.file("p.db"));
  ImportedRunRecord r = record(3);
  r.steps[1].loss = std::nan("");
  const int64_t id = db.import_run(r).run_id;
  EXPECT_TRUE(std::isnan(db.steps(id)[1].loss));
}

TEST(DatabaseImport, StreamedRowsFollowTheRunsOwnAndASourceThatThrowsWritesNothing) {
  TempDir dir;
  Database db(dir.file("p.db"));
  ImportedRunRecord r = record(2);
  int64_t s = 2;
  auto three_more = [&s](StepRow& row) {
    if (s >= 5) return false;
    row = StepRow{};
    row.step = ++s;
    row.loss = 0.25;
    row.lr = std::nan("");
    return true;
  };
  const ImportOutcome out = db.import_run(r, three_more);
  EXPECT_EQ(out.steps_added, 5);
  const auto rows = db.steps(out.run_id);
  ASSERT_EQ(rows.size(), 5u);
  EXPECT_EQ(rows[1].step, 2);
  EXPECT_EQ(rows[4].step, 5);
  EXPECT_DOUBLE_EQ(rows[4].loss, 0.25);
  EXPECT_EQ(testing::query_int(db.handle(), "SELECT count(*) FROM steps WHERE lr IS NULL"), 3);

  // The source's own exception comes out, not SQLite's, and the run is not half written.
  struct SourceBroke : std::runtime_error {
    using std::runtime_error::runtime_error;
  };
  int64_t n = 0;
  auto breaks = [&n](StepRow& row) -> bool {
    if (++n == 40) throw SourceBroke("the event file vanished");
    row = StepRow{};
    row.step = n;
    return true;
  };
  EXPECT_THROW(db.import_run(record(0, "tensorboard:/logs/b"), breaks), SourceBroke);
  EXPECT_EQ(db.list_runs().size(), 1u);
  EXPECT_EQ(testing::query_int(db.handle(), "SELECT count(*) FROM steps"), 5);
}

TEST(DatabaseImport, ADuplicateStepKeepsTheLastWrittenRow) {
  TempDir dir;
  Database db(dir.file("p.db"));
  ImportedRunRecord r = record(3);
  StepRow again = r.steps[1];  // step 2 written again, as a resumed run's log does
  again.loss = 7.0;
  r.steps.push_back(again);
  const ImportOutcome out = db.import_run(r);
  const auto rows = db.steps(out.run_id);
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_DOUBLE_EQ(rows[1].loss, 7.0);
}

}  // namespace
}  // namespace parity::storage
