// WAL: readers (the window) never block the writer, and the writer never blocks readers.

#include <gtest/gtest.h>
#include <parity/storage/database.h>

#include <chrono>
#include <future>

#include "test_util.h"

namespace parity::storage {
namespace {

using testing::exec_sql;
using testing::query_int;
using testing::TempDir;

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

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

  // Read on another thread so that a reader that blocked shows up as a timeout here rather than
  // hanging the test. (A rollback journal lets readers in at this point too, until the writer
  // needs its exclusive lock; the next test is the one a rollback journal fails.)
  const auto start = Clock::now();
  auto read = std::async(std::launch::async, [&] {
    return std::make_pair(reader.steps(id).size(), reader.list_runs().size());
  });
  ASSERT_EQ(read.wait_for(std::chrono::seconds(3)), std::future_status::ready)
      << "the reader blocked on the open write transaction";
  const auto [steps_seen, runs_seen] = read.get();
  EXPECT_LT(seconds_since(start), 1.0);
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

  const auto start = Clock::now();
  auto write = std::async(std::launch::async, [&] {
    writer.append_steps({global_row(id, 2, 0.5), global_row(id, 3, 0.25)});
  });
  ASSERT_EQ(write.wait_for(std::chrono::seconds(3)), std::future_status::ready)
      << "the writer blocked on a reader";
  write.get();
  EXPECT_LT(seconds_since(start), 1.0);

  // With a rollback journal the commit above would have waited busy_timeout (5 s) for this
  // reader's shared lock and failed. In WAL the reader's snapshot is stable until it ends.
  EXPECT_EQ(query_int(reader.handle(), "SELECT count(*) FROM steps"), 1);
  exec_sql(reader.handle(), "COMMIT");
  EXPECT_EQ(reader.steps(id).size(), 3u);
}

}  // namespace
}  // namespace parity::storage
