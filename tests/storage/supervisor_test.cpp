// A run's supervisor and what readers do when it is gone (reconciliation), read-only opening, and
// files that are SQLite but not Parity's.
#include <gtest/gtest.h>
#include <parity/storage/database.h>
#include <parity/storage/supervisor.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>

#include "test_util.h"

namespace parity::storage {
namespace {

using testing::exec_sql;
using testing::query_int;
using testing::query_text;
using testing::TempDir;

double now_s() {
  return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
}

// The pid of a process that has exited and been reaped: certainly dead (until the pid is reused,
// which within a test is vanishingly unlikely and would only make the start time differ).
int64_t dead_pid() {
  const pid_t pid = ::fork();
  if (pid == 0) ::_exit(0);
  int status = 0;
  ::waitpid(pid, &status, 0);
  return pid;
}

SupervisorIdentity dead_supervisor() {
  SupervisorIdentity who = SupervisorIdentity::current();
  who.pid = dead_pid();
  return who;
}

void add_global_steps(Database& db, int64_t run, int n) {
  std::vector<StepRow> rows;
  for (int s = 1; s <= n; ++s) {
    StepRow r;
    r.run_id = run;
    r.step = s;
    r.rank = -1;
    r.samples = s * 8;
    r.loss = 1.0 / s;
    rows.push_back(r);
  }
  db.append_steps(rows);
}

TEST(SupervisorIdentity, DescribesThisProcessAndRoundTripsAsText) {
  const SupervisorIdentity self = SupervisorIdentity::current();
  EXPECT_EQ(self.pid, ::getpid());
  EXPECT_GT(self.start_time, 0);
  EXPECT_EQ(self.start_time, process_start_time(::getpid()));
  EXPECT_FALSE(self.host.empty());
  std::ifstream boot("/proc/sys/kernel/random/boot_id");
  std::string boot_id;
  std::getline(boot, boot_id);
  EXPECT_EQ(self.boot_id, boot_id);

  const SupervisorIdentity back = SupervisorIdentity::parse(self.to_text());
  EXPECT_EQ(back.pid, self.pid);
  EXPECT_EQ(back.start_time, self.start_time);
  EXPECT_EQ(back.host, self.host);
  EXPECT_EQ(back.boot_id, self.boot_id);
  EXPECT_EQ(SupervisorIdentity::parse("not an owner line").pid, 0);
}

TEST(SupervisorGone, TellsDeadReusedRebootedAndStaleSupervisorsFromLiveOnes) {
  const double now = now_s();
  const SupervisorIdentity self = SupervisorIdentity::current();
  EXPECT_FALSE(supervisor_gone(self, now, now));
  EXPECT_FALSE(supervisor_gone(SupervisorIdentity{}, 0, now)) << "no supervisor recorded";
  EXPECT_TRUE(supervisor_gone(dead_supervisor(), now, now)) << "dead pid";

  SupervisorIdentity reused = self;  // our pid, but a process that started at another time
  reused.start_time += 1;
  EXPECT_TRUE(supervisor_gone(reused, now, now));

  SupervisorIdentity rebooted = self;
  rebooted.boot_id = "00000000-0000-0000-0000-000000000000";
  EXPECT_TRUE(supervisor_gone(rebooted, now, now));

  SupervisorIdentity elsewhere = self;  // another host: only the heartbeat can tell
  elsewhere.host = self.host + "-other";
  elsewhere.pid = dead_pid();
  EXPECT_FALSE(supervisor_gone(elsewhere, now - 10, now));
  EXPECT_FALSE(supervisor_gone(elsewhere, now - kStaleHeartbeatS + 5, now));
  EXPECT_TRUE(supervisor_gone(elsewhere, now - kStaleHeartbeatS - 5, now));
  EXPECT_GT(kStaleHeartbeatS, 20 * kHeartbeatIntervalS);
}

TEST(Reconcile, MarksOnlyActiveRunsOfGoneSupervisorsFailedKeepingTheirSteps) {
  TempDir dir;
  Database db(dir.file("runs.db"));
  const SupervisorIdentity self = SupervisorIdentity::current();
  const SupervisorIdentity dead = dead_supervisor();

  const int64_t orphan = db.create_run("orphan", "{}");
  db.claim_run(orphan, dead);
  db.set_started(orphan, 100);
  add_global_steps(db, orphan, 7);
  const int64_t alive = db.create_run("alive", "{}");
  db.claim_run(alive, self);
  db.set_started(alive, 100);
  const int64_t ended = db.create_run("ended", "{}");
  db.claim_run(ended, dead);
  db.finish_run(ended, RunStatus::kFinished, "", 1);
  const int64_t unclaimed = db.create_run("unclaimed", "{}");
  db.set_started(unclaimed, 100);
  const int64_t queued = db.create_run("queued", "{}");
  db.claim_run(queued, dead);

  EXPECT_EQ(db.reconcile_orphaned_runs(), (std::vector<int64_t>{orphan, queued}));
  const RunRow o = *db.get_run(orphan);
  EXPECT_EQ(o.status, RunStatus::kFailed);
  EXPECT_EQ(o.error, "the launcher exited unexpectedly (killed?) at step 7");
  EXPECT_EQ(db.steps(orphan).size(), 7u);
  ASSERT_TRUE(o.final_loss.has_value());
  EXPECT_DOUBLE_EQ(*o.final_loss, 1.0 / 7);
  EXPECT_GE(o.finished_at, o.started_at);
  EXPECT_EQ(o.supervisor.pid, dead.pid);
  EXPECT_EQ(db.get_run(queued)->error, "the launcher exited unexpectedly (killed?) at step 0");
  EXPECT_EQ(db.get_run(alive)->status, RunStatus::kRunning);
  EXPECT_EQ(db.get_run(ended)->status, RunStatus::kFinished);
  EXPECT_EQ(db.get_run(unclaimed)->status, RunStatus::kRunning);
  EXPECT_TRUE(db.reconcile_orphaned_runs().empty()) << "a second look finds nothing new";
}

TEST(Reconcile, HeartbeatAndClaimAreStored) {
  TempDir dir;
  Database db(dir.file("runs.db"));
  const int64_t id = db.create_run("r", "{}");
  EXPECT_EQ(db.get_run(id)->supervisor.pid, 0);
  EXPECT_EQ(db.get_run(id)->heartbeat_at, 0);
  const double before = now_s();
  db.claim_run(id, SupervisorIdentity::current());
  const RunRow r = *db.get_run(id);
  EXPECT_EQ(r.supervisor.pid, ::getpid());
  EXPECT_EQ(r.supervisor.start_time, SupervisorIdentity::current().start_time);
  EXPECT_GE(r.heartbeat_at, before - 1);
  exec_sql(db.handle(), "UPDATE runs SET heartbeat_at = 5");
  db.heartbeat(id);
  EXPECT_GE(db.get_run(id)->heartbeat_at, before - 1);
  EXPECT_THROW(db.heartbeat(id + 1), StorageError);
}

TEST(Database, MigratesAVersion2DatabaseWithoutReconcilingItsRuns) {
  TempDir dir;
  const std::string path = dir.file("v2.db");
  int64_t old = 0;
  {
    Database db(path);
    old = db.create_run("from 0.2", "{}");
    db.set_started(old, 10, 512);
    exec_sql(db.handle(),
             std::string(testing::kDropSchemaV4) +
                 "ALTER TABLE runs DROP COLUMN supervisor_pid; ALTER TABLE runs DROP COLUMN "
                 "supervisor_start_time; ALTER TABLE runs DROP COLUMN supervisor_host; ALTER TABLE "
                 "runs DROP COLUMN supervisor_boot_id; ALTER TABLE runs DROP COLUMN heartbeat_at; "
                 "PRAGMA user_version = 2");
  }
  {
    // Read-only, a version-2 file reads as it is (nothing migrated).
    Database viewer(path, OpenMode::kReadOnly);
    EXPECT_EQ(viewer.schema_version(), 2);
    EXPECT_EQ(viewer.get_run(old)->train_size, 512);
    EXPECT_EQ(viewer.get_run(old)->supervisor.pid, 0);
  }
  Database db(path);
  EXPECT_EQ(db.schema_version(), Database::kSchemaVersion);
  EXPECT_EQ(db.get_run(old)->train_size, 512);
  EXPECT_EQ(db.get_run(old)->supervisor.pid, 0);
  // A running row without a supervisor (it predates them) is left alone: nothing can tell.
  EXPECT_TRUE(db.reconcile_orphaned_runs().empty());
  EXPECT_EQ(db.get_run(old)->status, RunStatus::kRunning);
}

TEST(Database, ReadOnlyReadsEverythingAndWritesNothing) {
  TempDir dir;
  const std::string path = dir.file("runs.db");
  int64_t id = 0;
  {
    Database db(path);
    id = db.create_run("r", "{}");
    db.claim_run(id, dead_supervisor());
    db.set_started(id, 5);
    add_global_steps(db, id, 3);
  }
  Database viewer(path, OpenMode::kReadOnly);
  EXPECT_TRUE(viewer.read_only());
  ASSERT_EQ(viewer.list_runs().size(), 1u);
  EXPECT_EQ(viewer.steps(id).size(), 3u);
  EXPECT_THROW(viewer.create_run("x", "{}"), StorageError);
  EXPECT_THROW(viewer.set_notes(id, "n"), StorageError);
  // Reconciliation writes, so a viewer leaves the run as stored, and shows it failed.
  EXPECT_TRUE(viewer.reconcile_orphaned_runs().empty());
  EXPECT_EQ(query_text(viewer.handle(), "SELECT status FROM runs"), "running");
  for (const RunRow& shown : {*viewer.get_run(id), viewer.list_runs().at(0)}) {
    EXPECT_EQ(shown.status, RunStatus::kFailed);
    EXPECT_TRUE(shown.shown_failed);
    EXPECT_EQ(shown.error, launcher_gone_message(3));
    EXPECT_GE(shown.finished_at, shown.started_at);
    ASSERT_TRUE(shown.final_loss.has_value());
    EXPECT_DOUBLE_EQ(*shown.final_loss, 1.0 / 3);
  }
  EXPECT_EQ(query_text(viewer.handle(), "SELECT status FROM runs"), "running");
  EXPECT_TRUE(database_writable(path));
  EXPECT_THROW(Database(dir.file("missing.db"), OpenMode::kReadOnly), StorageError);
  EXPECT_FALSE(std::ifstream(dir.file("missing.db")).good()) << "read-only created a file";
}

TEST(Database, AReadOnlyViewShowsAnOrphanAsReconciliationWouldWriteIt) {
  TempDir dir;
  const std::string written = dir.file("written.db"), viewed = dir.file("viewed.db");
  int64_t id = 0;
  {
    Database db(written);
    id = db.create_run("r", "{}");
    db.claim_run(id, dead_supervisor());
    db.set_started(id, 50);
    add_global_steps(db, id, 4);
    db.append_evals({{id, 0, 4, 32, 0.75, 0.5}});
    exec_sql(db.handle(), "PRAGMA wal_checkpoint(TRUNCATE)");
  }
  std::filesystem::copy_file(written, viewed);
  Database writer(written);
  ASSERT_EQ(writer.reconcile_orphaned_runs(), (std::vector<int64_t>{id}));
  const RunRow stored = *writer.get_run(id);
  const RunRow shown = *Database(viewed, OpenMode::kReadOnly).get_run(id);
  EXPECT_EQ(shown.status, stored.status);
  EXPECT_EQ(shown.error, stored.error);
  EXPECT_EQ(shown.final_loss, stored.final_loss);
  EXPECT_EQ(shown.final_eval_loss, stored.final_eval_loss);
  EXPECT_EQ(shown.final_accuracy, stored.final_accuracy);
  EXPECT_DOUBLE_EQ(shown.finished_at, stored.finished_at);
  EXPECT_TRUE(shown.shown_failed);
  EXPECT_FALSE(stored.shown_failed);
}

TEST(Database, AnotherProgramsSqliteFileIsRefusedInOneLine) {
  TempDir dir;
  const std::string path = dir.file("other.db");
  {
    sqlite3* raw = nullptr;
    ASSERT_EQ(sqlite3_open(path.c_str(), &raw), SQLITE_OK);
    exec_sql(raw,
             "CREATE TABLE runs (id INTEGER PRIMARY KEY,\n  pipeline TEXT,\n  owner TEXT);\n"
             "CREATE TABLE jobs (id INTEGER);");
    sqlite3_close(raw);
  }
  try {
    Database db(path);
    FAIL() << "opened another program's database as Parity's";
  } catch (const StorageError& e) {
    const std::string message = e.what();
    EXPECT_EQ(message.find('\n'), std::string::npos) << message;
    EXPECT_EQ(message.find("CREATE"), std::string::npos) << message;
    EXPECT_NE(message.find("not a Parity database"), std::string::npos) << message;
    EXPECT_NE(message.find(path), std::string::npos) << message;
  }
  sqlite3* raw = nullptr;
  ASSERT_EQ(sqlite3_open(path.c_str(), &raw), SQLITE_OK);
  EXPECT_EQ(query_int(raw, "SELECT count(*) FROM sqlite_master WHERE name = 'steps'"), 0)
      << "the file was changed";
  sqlite3_close(raw);
}

// A run submitted as a batch job (schema 9) has no supervisor process: the job is. It keeps its
// job id, state and folder, is never reconciled as orphaned, and a version-8 file migrates to it
// keeping its runs.
TEST(Database, AJobRunKeepsItsJobAndIsNeverReconciled) {
  TempDir dir;
  const std::string path = dir.file("j.db");
  int64_t old = 0, job = 0;
  {
    Database db(path);
    old = db.create_run("before schema 9", "{}");
    db.set_notes(old, "kept");
    exec_sql(db.handle(), std::string(testing::kDropSchemaV9) + "PRAGMA user_version = 8");
  }
  {
    Database viewer(path, OpenMode::kReadOnly);
    EXPECT_EQ(viewer.schema_version(), 8);
    EXPECT_EQ(viewer.get_run(old)->job_id, "");
    EXPECT_THROW(viewer.set_job(old, "1", "/x"), StorageError);
  }
  Database db(path);
  EXPECT_EQ(db.schema_version(), 9);
  EXPECT_EQ(db.get_run(old)->notes, "kept");
  job = db.create_run("submitted", "{}");
  db.set_job(job, "4242", "/shared/r.db.logs/run-2");
  db.set_job_state(job, "PENDING (Resources)");
  EXPECT_TRUE(db.reconcile_orphaned_runs().empty());
  RunRow r = *db.get_run(job);
  EXPECT_EQ(r.status, RunStatus::kQueued);
  EXPECT_EQ(r.job_id, "4242");
  EXPECT_EQ(r.job_state, "PENDING (Resources)");
  EXPECT_EQ(r.job_folder, "/shared/r.db.logs/run-2");
  EXPECT_EQ(r.supervisor.pid, 0);
  // The state's last word after the run ended changes what a poller sees of it.
  db.finish_run(job, RunStatus::kFinished, "", 0);
  const auto before = db.ended_run_hashes();
  db.set_job_state(job, "COMPLETED");
  EXPECT_NE(db.ended_run_hashes(), before);
  EXPECT_THROW(db.set_job(999, "1", "/x"), StorageError);
}

}  // namespace
}  // namespace parity::storage
