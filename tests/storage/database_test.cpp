#include <gtest/gtest.h>
#include <parity/storage/database.h>
#include <parity/version.h>

#include <chrono>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <limits>
#include <optional>

#include "test_util.h"

namespace parity::storage {
namespace {

using testing::exec_sql;
using testing::query_int;
using testing::query_text;
using testing::step_row;
using testing::TempDir;

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

double now_s() {
  return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
}

int user_version_of(const std::string& path) {
  sqlite3* raw = nullptr;
  EXPECT_EQ(sqlite3_open_v2(path.c_str(), &raw, SQLITE_OPEN_READONLY, nullptr), SQLITE_OK);
  const int version = static_cast<int>(query_int(raw, "PRAGMA user_version"));
  sqlite3_close(raw);
  return version;
}

TEST(Database, MigratesAnEmptyFileToTheCurrentVersion) {
  TempDir dir;
  const std::string path = dir.file("empty.db");
  std::ofstream(path).close();  // a zero-length file is a valid, empty SQLite database
  EXPECT_EQ(user_version_of(path), 0);

  Database db(path);
  EXPECT_EQ(Database::kSchemaVersion, 9);
  EXPECT_EQ(db.schema_version(), 9);
  EXPECT_EQ(user_version_of(path), 9);
  for (const char* table : {"runs", "steps", "evals"}) {
    EXPECT_EQ(query_int(db.handle(), std::string("SELECT count(*) FROM sqlite_master WHERE "
                                                 "type = 'table' AND name = '") +
                                         table + "'"),
              1)
        << table;
  }
  // steps is keyed (run_id, step, rank) without a rowid.
  EXPECT_NE(query_text(db.handle(), "SELECT sql FROM sqlite_master WHERE name = 'steps'")
                .find("WITHOUT ROWID"),
            std::string::npos);
}

TEST(Database, ConnectionSettings) {
  TempDir dir;
  Database db(dir.file("settings.db"));
  EXPECT_EQ(query_text(db.handle(), "PRAGMA journal_mode"), "wal");
  EXPECT_EQ(query_int(db.handle(), "PRAGMA busy_timeout"), 5000);
  EXPECT_EQ(query_int(db.handle(), "PRAGMA foreign_keys"), 1);
}

TEST(Database, CreatesMissingFoldersAndReopensExistingData) {
  TempDir dir;
  const std::string path = dir.file("a/b/c/parity.db");
  int64_t id = 0;
  {
    Database db(path);
    id = db.create_run("first", R"({"seed":1})");
    db.append_steps({step_row(id, 1, -1, 0.5)});
  }
  // Reopening must not run a migration again (CREATE TABLE would fail) and must keep the data.
  Database db(path);
  EXPECT_EQ(db.schema_version(), Database::kSchemaVersion);
  ASSERT_EQ(db.list_runs().size(), 1u);
  EXPECT_EQ(db.list_runs()[0].label, "first");
  EXPECT_EQ(db.steps(id).size(), 1u);
}

// A database written by Parity 0.1 (schema 1, no train_size) opens, keeps its runs and steps, and
// reads their training-set size as 0 (unknown); new runs store theirs.
TEST(Database, MigratesAVersion1DatabaseAndKeepsItsRuns) {
  TempDir dir;
  const std::string path = dir.file("v1.db");
  int64_t old = 0;
  {
    Database db(path);
    old = db.create_run("from 0.1", "{}");
    db.set_started(old, 10, 512);
    db.append_steps({step_row(old, 1, -1, 0.5)});
    // What schema 1 looked like: no train_size column (nor version 3's supervisor columns).
    exec_sql(
        db.handle(),
        std::string(testing::kDropSchemaV4) +
            "ALTER TABLE runs DROP COLUMN train_size; ALTER TABLE runs DROP COLUMN "
            "supervisor_pid; ALTER TABLE runs DROP COLUMN supervisor_start_time; ALTER TABLE "
            "runs DROP COLUMN supervisor_host; ALTER TABLE runs DROP COLUMN supervisor_boot_id; "
            "ALTER TABLE runs DROP COLUMN heartbeat_at; PRAGMA user_version = 1");
  }
  EXPECT_EQ(user_version_of(path), 1);
  Database db(path);
  EXPECT_EQ(db.schema_version(), Database::kSchemaVersion);
  const RunRow run = *db.get_run(old);
  EXPECT_EQ(run.label, "from 0.1");
  EXPECT_EQ(run.total_steps, 10);
  EXPECT_EQ(run.train_size, 0);
  EXPECT_EQ(db.steps(old).size(), 1u);
  const int64_t fresh = db.create_run("new", "{}");
  db.set_started(fresh, 3, 77);
  EXPECT_EQ(db.get_run(fresh)->train_size, 77);
}

// Every way a run enters the store records the Parity that wrote it: a queued row, a row created
// by its launcher, a queued row a launcher claims (the launcher's version wins), an import.
TEST(Database, EveryRunRecordsTheVersionOfParityThatRecordedIt) {
  TempDir dir;
  Database db(dir.file("versions.db"));
  const std::string version = kVersion;
  ASSERT_FALSE(version.empty());
  const int64_t queued = db.create_run("queued", "{}");
  EXPECT_EQ(db.get_run(queued)->parity_version, version);
  const int64_t launched =
      db.create_run("launched", "{}", RunStatus::kRunning, SupervisorIdentity::current());
  EXPECT_EQ(db.get_run(launched)->parity_version, version);
  exec_sql(db.handle(),
           "UPDATE runs SET parity_version = '0.0.9' WHERE id = " + std::to_string(queued));
  db.claim_run(queued, SupervisorIdentity::current());
  EXPECT_EQ(db.get_run(queued)->parity_version, version);
  ImportedRunRecord imported;
  imported.label = "imported";
  imported.source_identity = "csv:/logs/a.csv";
  EXPECT_EQ(db.get_run(db.import_run(imported).run_id)->parity_version, version);
}

// A version 7 file (no parity_version) reads its runs as recorded by an unknown version, read-only
// or migrated; runs created after the migration record this build's.
TEST(Database, MigratesAVersion7DatabaseWhoseRunsHaveNoVersion) {
  TempDir dir;
  const std::string path = dir.file("v7.db");
  int64_t old = 0;
  {
    Database db(path);
    old = db.create_run("from schema 7", "{}");
    exec_sql(db.handle(), std::string(testing::kDropSchemaV8) + "PRAGMA user_version = 7");
  }
  {
    Database viewer(path, OpenMode::kReadOnly);
    EXPECT_EQ(viewer.schema_version(), 7);
    EXPECT_EQ(viewer.get_run(old)->label, "from schema 7");
    EXPECT_EQ(viewer.get_run(old)->parity_version, "");
  }
  Database db(path);
  EXPECT_EQ(db.schema_version(), Database::kSchemaVersion);
  EXPECT_EQ(db.get_run(old)->parity_version, "");
  EXPECT_EQ(db.get_run(db.create_run("new", "{}"))->parity_version, kVersion);
}

TEST(Database, RefusesASchemaNewerThanThisBuild) {
  TempDir dir;
  const std::string path = dir.file("future.db");
  {
    Database db(path);
    exec_sql(db.handle(), "PRAGMA user_version = 99");
  }
  try {
    Database db(path);
    FAIL() << "opened a version 99 database";
  } catch (const StorageError& e) {
    EXPECT_NE(std::string(e.what()).find(path), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("99"), std::string::npos) << e.what();
  }
}

TEST(Database, AFileThatIsNotADatabaseThrowsNamingThePath) {
  TempDir dir;
  const std::string path = dir.file("notes.txt");
  std::ofstream(path) << "This is a text file, certainly not SQLite, and long enough to have a "
                         "header that SQLite will look at and reject as not being a database.\n";
  try {
    Database db(path);
    FAIL() << "opened a text file as a database";
  } catch (const StorageError& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find(path), std::string::npos) << message;
    EXPECT_NE(message.find("not a database"), std::string::npos) << message;
  }
}

TEST(Database, AFolderThatCannotBeCreatedThrowsNamingThePath) {
  TempDir dir;
  std::ofstream(dir.file("blocker")) << "a file where a folder should be";
  const std::string path = dir.file("blocker/sub/parity.db");
  try {
    Database db(path);
    FAIL() << "opened a database under a regular file";
  } catch (const StorageError& e) {
    EXPECT_NE(std::string(e.what()).find(path), std::string::npos) << e.what();
  }
}

TEST(Database, RunRoundTrip) {
  TempDir dir;
  Database db(dir.file("runs.db"));
  const double before = now_s();
  const int64_t a = db.create_run("1x256", R"({"seed":42,"num_processes":1})");
  const int64_t b = db.create_run("2x128", "");
  EXPECT_NE(a, b);

  auto run = db.get_run(a);
  ASSERT_TRUE(run.has_value());
  EXPECT_EQ(run->id, a);
  EXPECT_EQ(run->label, "1x256");
  EXPECT_EQ(run->status, RunStatus::kQueued);
  EXPECT_EQ(run->config_json, R"({"seed":42,"num_processes":1})");
  EXPECT_GE(run->created_at, before - 1);
  EXPECT_LE(run->created_at, now_s() + 1);
  EXPECT_EQ(run->started_at, 0);
  EXPECT_EQ(run->finished_at, 0);
  EXPECT_FALSE(run->final_loss.has_value());
  EXPECT_EQ(db.get_run(b)->config_json, "{}");

  db.set_started(a, 1000);
  run = db.get_run(a);
  EXPECT_EQ(run->status, RunStatus::kRunning);
  EXPECT_EQ(run->total_steps, 1000);
  EXPECT_GT(run->started_at, 0);

  db.set_status(b, RunStatus::kFailed, "rank 1 exited with code 9");
  EXPECT_EQ(db.get_run(b)->status, RunStatus::kFailed);
  EXPECT_EQ(db.get_run(b)->error, "rank 1 exited with code 9");

  const auto runs = db.list_runs();
  ASSERT_EQ(runs.size(), 2u);
  EXPECT_EQ(runs[0].id, a);
  EXPECT_EQ(runs[1].id, b);
  EXPECT_FALSE(db.get_run(b + 100).has_value());
}

TEST(RunStatus, EveryStatusRoundTripsThroughItsStoredSpelling) {
  for (RunStatus s : kAllRunStatuses) EXPECT_EQ(parse_run_status(to_string(s)), s);
  EXPECT_EQ(to_string(RunStatus::kDiverged), "diverged");
  EXPECT_FALSE(parse_run_status("paused").has_value());
  EXPECT_FALSE(parse_run_status("Finished").has_value());
  EXPECT_TRUE(is_active(RunStatus::kQueued));
  EXPECT_TRUE(is_active(RunStatus::kRunning));
  EXPECT_FALSE(is_active(RunStatus::kStopped));
}

TEST(RunOrigin, SpellingsRoundTrip) {
  for (RunOrigin o : kAllRunOrigins) EXPECT_EQ(parse_run_origin(to_string(o)), o);
  EXPECT_EQ(to_string(RunOrigin::kImported), "imported");
  EXPECT_FALSE(parse_run_origin("tensorboard").has_value());
  EXPECT_FALSE(parse_run_origin("Engine").has_value());
}

TEST(Database, AStatusWrittenByAnotherProgramThatIsNoneOfOursNamesItself) {
  TempDir dir;
  Database db(dir.file("foreign.db"));
  const int64_t id = db.create_run("x", "{}");
  exec_sql(db.handle(), "UPDATE runs SET status = 'paused' WHERE id = " + std::to_string(id));
  try {
    db.list_runs();
    FAIL() << "an unknown status was read as one of ours";
  } catch (const StorageError& e) {
    EXPECT_NE(std::string(e.what()).find("'paused'"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("run " + std::to_string(id)), std::string::npos)
        << e.what();
  }
}

TEST(Database, RefusesBadJsonAndUnknownRuns) {
  TempDir dir;
  Database db(dir.file("bad.db"));
  EXPECT_THROW(db.create_run("x", "{not json"), StorageError);
  EXPECT_TRUE(db.list_runs().empty());
  const int64_t id = db.create_run("x", "{}");
  EXPECT_THROW(db.set_status(id + 1, RunStatus::kRunning), StorageError);
  EXPECT_THROW(db.rename_run(id + 1, "y"), StorageError);
  EXPECT_THROW(db.set_notes(id + 1, "y"), StorageError);
  EXPECT_THROW(db.finish_run(id + 1, RunStatus::kFinished, "", 1.0), StorageError);
  EXPECT_THROW(db.delete_run(id + 1), StorageError);
}

TEST(Database, FinishRunTakesTheFinalsFromTheLastRows) {
  TempDir dir;
  Database db(dir.file("finish.db"));
  const int64_t id = db.create_run("r", "{}");
  db.set_started(id, 3);
  db.append_steps({step_row(id, 1, -1, 0.9), step_row(id, 3, -1, 0.3), step_row(id, 2, -1, 0.6),
                   step_row(id, 3, 0, 7.0)});
  db.append_evals({{id, 1, 2, 128, 0.7, 0.5}, {id, 2, 3, 192, 0.4, 0.75}});
  db.finish_run(id, RunStatus::kFinished, "", 1234.5);
  const RunRow run = *db.get_run(id);
  EXPECT_EQ(run.status, RunStatus::kFinished);
  EXPECT_GT(run.finished_at, 0);
  EXPECT_GE(run.finished_at, run.started_at);
  EXPECT_EQ(run.samples_per_s, 1234.5);
  EXPECT_EQ(run.final_loss, 0.3);  // last global step, not the rank-0 row nor the last inserted
  EXPECT_EQ(run.final_eval_loss, 0.4);
  EXPECT_EQ(run.final_accuracy, 0.75);
  EXPECT_EQ(run.steps_done, 3);
}

TEST(Database, FinishRunWithNoRowsOrADivergedLoss) {
  TempDir dir;
  Database db(dir.file("finals.db"));
  const int64_t empty = db.create_run("empty", "{}");
  db.finish_run(empty, RunStatus::kFailed, "rank 0 killed by signal 9", 0);
  RunRow run = *db.get_run(empty);
  EXPECT_EQ(run.error, "rank 0 killed by signal 9");
  EXPECT_FALSE(run.final_loss.has_value());
  EXPECT_FALSE(run.final_eval_loss.has_value());
  EXPECT_FALSE(run.final_accuracy.has_value());

  const int64_t diverged = db.create_run("diverged", "{}");
  db.append_steps({step_row(diverged, 1, -1, 2.0), step_row(diverged, 2, -1, kNaN)});
  db.finish_run(diverged, RunStatus::kDiverged, "loss is nan at step 2", 10);
  run = *db.get_run(diverged);
  ASSERT_TRUE(run.final_loss.has_value());
  EXPECT_TRUE(std::isnan(*run.final_loss));
  EXPECT_FALSE(run.final_eval_loss.has_value());
  EXPECT_TRUE(std::isnan(*db.list_runs()[1].final_loss));
}

TEST(Database, RenameNotesAndDelete) {
  TempDir dir;
  Database db(dir.file("edit.db"));
  const int64_t keep = db.create_run("keep", "{}");
  const int64_t gone = db.create_run("gone", "{}");
  db.rename_run(keep, "2x128, linear lr");
  db.set_notes(keep, "line one\nline \"two\"");
  EXPECT_EQ(db.get_run(keep)->label, "2x128, linear lr");
  EXPECT_EQ(db.get_run(keep)->notes, "line one\nline \"two\"");

  for (int64_t id : {keep, gone}) {
    db.append_steps({step_row(id, 1, -1, 1.0), step_row(id, 1, 0, 1.0)});
    db.append_evals({{id, 1, 1, 64, 1.0, 0.5}});
  }
  db.delete_run(gone);
  EXPECT_FALSE(db.get_run(gone).has_value());
  EXPECT_EQ(
      query_int(db.handle(), "SELECT count(*) FROM steps WHERE run_id = " + std::to_string(gone)),
      0);
  EXPECT_EQ(
      query_int(db.handle(), "SELECT count(*) FROM evals WHERE run_id = " + std::to_string(gone)),
      0);
  EXPECT_EQ(db.steps(keep).size(), 1u);
  EXPECT_EQ(db.evals(keep).size(), 1u);
  EXPECT_EQ(db.ranks(keep), (std::vector<int>{-1, 0}));
  EXPECT_THROW(db.delete_run(gone), StorageError);
  // Ids are never reused, so a window still holding `gone` cannot confuse it with a new run.
  EXPECT_GT(db.create_run("new", "{}"), gone);
}

TEST(Database, ACounterfactualKnowsTheRunItExplainsAndLosesTheLinkWhenThatRunIsDeleted) {
  TempDir dir;
  Database db(dir.file("cf.db"));
  const int64_t reference = db.create_run("1x16", "{}");
  const int64_t run = db.create_run("2x16", "{}");
  const int64_t cf = db.create_run("cf #2 global_batch", "{}");
  db.set_counterfactual_of(cf, run, reference, "global_batch");
  db.set_started(cf, 5, 64, R"({"parameters":3})");
  const RunRow row = *db.get_run(cf);
  EXPECT_EQ(row.explains_run, run);
  EXPECT_EQ(row.explains_reference, reference);
  EXPECT_EQ(row.explains_cause, "global_batch");
  EXPECT_EQ(row.model_json, R"({"parameters":3})");
  db.set_started(cf, 5, 64);  // no model given: the stored one stays
  EXPECT_EQ(db.get_run(cf)->model_json, R"({"parameters":3})");
  EXPECT_EQ(db.get_run(run)->explains_run, 0);  // an ordinary run links nothing
  ASSERT_EQ(db.counterfactuals_of(run).size(), 1u);
  EXPECT_EQ(db.counterfactuals_of(run)[0].id, cf);
  EXPECT_TRUE(db.counterfactuals_of(reference).empty());
  EXPECT_THROW(db.set_counterfactual_of(99, run, reference, "seed"), StorageError);

  db.delete_run(run);
  EXPECT_EQ(db.get_run(cf)->explains_run, 0);  // still there, an ordinary run now
  EXPECT_TRUE(db.counterfactuals_of(run).empty());
  EXPECT_EQ(db.get_run(cf)->explains_reference, reference);
  db.delete_run(reference);
  EXPECT_EQ(db.get_run(cf)->explains_reference, 0);
  EXPECT_EQ(db.get_run(cf)->explains_cause, "global_batch");
}

TEST(Database, MovedFromDatabaseThrowsInsteadOfCrashing) {
  TempDir dir;
  Database a(dir.file("move.db"));
  const int64_t id = a.create_run("r", "{}");
  Database b(std::move(a));
  EXPECT_EQ(b.get_run(id)->label, "r");
  EXPECT_THROW(a.list_runs(), StorageError);  // NOLINT(bugprone-use-after-move)
}

class EnvGuard {
 public:
  explicit EnvGuard(const char* name) : name_(name) {
    if (const char* v = std::getenv(name)) old_ = v;
  }
  ~EnvGuard() {
    if (old_) {
      setenv(name_, old_->c_str(), 1);
    } else {
      unsetenv(name_);
    }
  }

 private:
  const char* name_;
  std::optional<std::string> old_;
};

TEST(Database, DefaultPathFollowsXdgDataHome) {
  EnvGuard xdg("XDG_DATA_HOME");
  EnvGuard home("HOME");
  setenv("HOME", "/home/someone", 1);
  setenv("XDG_DATA_HOME", "/data/xdg", 1);
  EXPECT_EQ(default_database_path(), "/data/xdg/parity/parity.db");
  setenv("XDG_DATA_HOME", "relative/dir", 1);  // invalid per the XDG spec: ignored
  EXPECT_EQ(default_database_path(), "/home/someone/.local/share/parity/parity.db");
  unsetenv("XDG_DATA_HOME");
  EXPECT_EQ(default_database_path(), "/home/someone/.local/share/parity/parity.db");
  unsetenv("HOME");
  EXPECT_THROW(default_database_path(), StorageError);
}

TEST(Database, LabelsAreStoredAsOneLine) {
  TempDir dir;
  Database db(dir.file("labels.db"));
  const int64_t id = db.create_run("two\nlines\tand\r\nmore", "{}");
  EXPECT_EQ(db.get_run(id)->label, "two lines and  more");
  db.rename_run(id, "again\nbroken");
  EXPECT_EQ(db.get_run(id)->label, "again broken");
}

// What a poller builds on (ui::RunsPoller): the change stamp, the ended runs' digest, and
// rereading some runs by id plus the newer ones.
TEST(Database, TheChangeStampMovesWithEveryCommitOfAnyConnectionAndNotWithReads) {
  TempDir dir;
  Database reader(dir.file("runs.db"));
  Database writer(dir.file("runs.db"));
  const ChangeStamp start = reader.change_stamp();
  reader.list_runs();
  EXPECT_EQ(reader.change_stamp(), start) << "a read moved it";
  const int64_t id = writer.create_run("r", "{}");
  const ChangeStamp afterOther = reader.change_stamp();
  EXPECT_NE(afterOther, start) << "another connection's commit";
  reader.set_notes(id, "mine");
  EXPECT_NE(reader.change_stamp(), afterOther) << "this connection's own change";
}

TEST(Database, AnEndedRunsHashChangesWhenItsRowDoesAndOnlyThen) {
  TempDir dir;
  Database db(dir.file("runs.db"));
  const int64_t a = db.create_run("a", "{}");
  db.finish_run(a, RunStatus::kFinished, "", 1);
  const int64_t b = db.create_run("b", "{}");
  db.finish_run(b, RunStatus::kFailed, "boom", 1);
  const int64_t live = db.create_run("live", "{}");
  db.set_started(live, 10);
  const std::vector<RunHash> start = db.ended_run_hashes();
  ASSERT_EQ(start.size(), 2u) << "only the ended runs";
  EXPECT_EQ(start[0].id, a);
  EXPECT_EQ(start[1].id, b);
  EXPECT_NE(start[0].hash, start[1].hash);
  db.append_steps({step_row(live, 1, -1, 1.0)});
  db.heartbeat(live);
  EXPECT_EQ(db.ended_run_hashes(), start) << "an unfinished run's progress";
  db.set_notes(a, "x");
  const std::vector<RunHash> noted = db.ended_run_hashes();
  EXPECT_NE(noted[0], start[0]);
  EXPECT_EQ(noted[1], start[1]) << "the other run's hash";
  db.set_notes(a, "y");  // same length, other text
  EXPECT_NE(db.ended_run_hashes()[0], noted[0]);
  db.delete_run(b);
  EXPECT_EQ(db.ended_run_hashes().size(), 1u);
  db.finish_run(live, RunStatus::kFinished, "", 1);
  EXPECT_EQ(db.ended_run_hashes().back().id, live);
  // A counterfactual's link, cleared when the run it explains is deleted, changes its hash.
  const int64_t cf = db.create_run("cf #1 seed", "{}");
  db.set_counterfactual_of(cf, a, live, "seed");
  db.finish_run(cf, RunStatus::kFinished, "", 1);
  const RunHash linked = db.ended_run_hashes().back();
  ASSERT_EQ(linked.id, cf);
  db.delete_run(a);
  EXPECT_NE(db.ended_run_hashes().back(), linked);
}

TEST(Database, ListRunsByIdReadsThoseAndTheNewerOnesInIdOrder) {
  TempDir dir;
  Database db(dir.file("runs.db"));
  for (int i = 0; i < 6; ++i) db.create_run("r" + std::to_string(i), "{}");
  db.delete_run(2);
  std::vector<int64_t> ids;
  for (const RunRow& r : db.list_runs({4, 2, 1, 4}, 4)) ids.push_back(r.id);
  EXPECT_EQ(ids, (std::vector<int64_t>{1, 4, 5, 6})) << "2 is gone; 4 is read once";
  EXPECT_TRUE(db.list_runs({}, 6).empty());
}

}  // namespace
}  // namespace parity::storage
