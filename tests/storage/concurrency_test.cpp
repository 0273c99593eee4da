// WAL: readers (the window) never block the writer, and the writer never blocks readers.
// The connection that must not wait has busy_timeout 0, so a lock in its way is an immediate
// "database is locked" error rather than a slow success: no clock is read.

#include <gtest/gtest.h>
#include <parity/storage/database.h>
#include <sys/wait.h>
#include <unistd.h>

#include <string>
#include <vector>

#include "test_util.h"

namespace parity::storage {
namespace {

using testing::exec_sql;
using testing::query_int;
using testing::TempDir;

StepRow global_row(int64_t run, int64_t step, double loss) {
  StepRow r;
  r.run_id = run;
  r.step = step;
  r.loss = loss;
  return r;
}

TEST(Concurrency, ReaderReadsWhileAWriteTransactionIsOpen) {
  TempDir dir;
  const std::string path = dir.file("wal.db");
  Database writer(path);
  const int64_t id = writer.create_run("r", "{}");
  writer.append_steps({global_row(id, 1, 1.0), global_row(id, 2, 0.5)});

  Database reader(path);
  // The writer holds the write lock with uncommitted rows and a new run.
  exec_sql(writer.handle(), "BEGIN IMMEDIATE");
  exec_sql(writer.handle(), "INSERT INTO steps (run_id, step, rank, samples, loss) VALUES (" +
                                std::to_string(id) + ", 3, -1, 0, 0.25)");
  exec_sql(writer.handle(),
           "INSERT INTO runs (label, status, created_at) VALUES ('x', 'queued', 1)");

  exec_sql(reader.handle(), "PRAGMA busy_timeout = 0");
  size_t steps_seen = 0, runs_seen = 0;
  ASSERT_NO_THROW({
    steps_seen = reader.steps(id).size();
    runs_seen = reader.list_runs().size();
  }) << "the reader was locked out by the open write transaction";
  EXPECT_EQ(steps_seen, 2u);  // the committed rows only
  EXPECT_EQ(runs_seen, 1u);

  exec_sql(writer.handle(), "COMMIT");
  EXPECT_EQ(reader.steps(id).size(), 3u);
  EXPECT_EQ(reader.list_runs().size(), 2u);
}

TEST(Concurrency, WriterCommitsWhileAReaderHoldsASnapshot) {
  TempDir dir;
  const std::string path = dir.file("snapshot.db");
  Database writer(path);
  const int64_t id = writer.create_run("r", "{}");
  writer.append_steps({global_row(id, 1, 1.0)});

  Database reader(path);
  exec_sql(reader.handle(), "BEGIN");
  EXPECT_EQ(query_int(reader.handle(), "SELECT count(*) FROM steps"), 1);  // snapshot taken

  exec_sql(writer.handle(), "PRAGMA busy_timeout = 0");
  ASSERT_NO_THROW(writer.append_steps({global_row(id, 2, 0.5), global_row(id, 3, 0.25)}))
      << "the writer was locked out by a reader's snapshot";

  // With a rollback journal the commit above would have needed this reader's shared lock gone.
  // In WAL the reader's snapshot is stable until it ends.
  EXPECT_EQ(query_int(reader.handle(), "SELECT count(*) FROM steps"), 1);
  exec_sql(reader.handle(), "COMMIT");
  EXPECT_EQ(reader.steps(id).size(), 3u);
}

// Several processes open one new file at the same moment: each migrates it or finds it migrated,
// none fails on a table another has just created, and every one's run is kept.
TEST(Concurrency, ProcessesMigratingOneNewDatabaseAtOnceAllSucceed) {
  TempDir dir;
  const std::string path = dir.file("race.db");
  constexpr int kProcesses = 4;
  int go[2];
  ASSERT_EQ(::pipe(go), 0);
  std::vector<pid_t> children;
  for (int i = 0; i < kProcesses; ++i) {
    const pid_t pid = ::fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
      ::close(go[1]);
      char byte;
      // All children wait at the same barrier: the parent closing the pipe releases them at once.
      const bool released = ::read(go[0], &byte, 1) == 0;
      int code = released ? 0 : 3;
      try {
        Database db(path);
        db.create_run("process " + std::to_string(i), "{}");
      } catch (const std::exception& e) {
        std::fprintf(stderr, "process %d: %s\n", i, e.what());
        code = 1;
      }
      ::_exit(code);
    }
    children.push_back(pid);
  }
  ::close(go[0]);
  ::close(go[1]);
  for (pid_t pid : children) {
    int status = 0;
    ASSERT_EQ(::waitpid(pid, &status, 0), pid);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "a process failed to open";
  }
  Database db(path);
  EXPECT_EQ(db.schema_version(), Database::kSchemaVersion);
  EXPECT_EQ(db.list_runs().size(), static_cast<size_t>(kProcesses));
}

}  // namespace
}  // namespace parity::storage
