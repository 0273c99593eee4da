// The step writer under faults: a database another connection holds locked (BEGIN EXCLUSIVE) for
// longer than SQLite's own busy_timeout, a lock held past the writer's bound, and the heartbeat.
// Disk full is tested end to end in tests/app (cli_fault_test.cpp), on a small tmpfs.
#include <gtest/gtest.h>
#include <parity/storage/step_writer.h>

#include <atomic>
#include <chrono>
#include <iostream>
#include <thread>

#include "test_util.h"

namespace parity::storage {
namespace {

using Clock = std::chrono::steady_clock;
using testing::exec_sql;
using testing::query_int;
using testing::TempDir;

StepRow global_row(int64_t run, int64_t step) {
  StepRow r;
  r.run_id = run;
  r.step = step;
  r.rank = -1;
  r.samples = step * 16;
  r.loss = 1.0 / static_cast<double>(step);
  return r;
}

/// Another connection that holds the database's write lock from construction until release().
class ExclusiveLock {
 public:
  explicit ExclusiveLock(const std::string& path) {
    sqlite3_open(path.c_str(), &db_);
    exec_sql(db_, "BEGIN EXCLUSIVE");
  }
  ~ExclusiveLock() {
    release();
    sqlite3_close(db_);
  }
  void release() {
    if (held_) exec_sql(db_, "COMMIT");
    held_ = false;
  }

 private:
  sqlite3* db_ = nullptr;
  bool held_ = true;
};

class StepWriterFaultTest : public ::testing::Test {
 protected:
  void SetUp() override { run_ = reader_.create_run("r", "{}"); }
  // Steps pushed one every 10 ms, as a run's rank 0 would, while the test does something else.
  void push_steps(StepWriter& writer, int64_t from, int64_t to) {
    for (int64_t s = from; s <= to; ++s) {
      writer.push(global_row(run_, s));
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
  }
  TempDir dir_;
  std::string path_ = dir_.file("writer.db");
  Database reader_{path_};
  int64_t run_ = 0;
};

TEST_F(StepWriterFaultTest, ALockHeldLongerThanBusyTimeoutIsWaitedOutAndNoStepIsLost) {
  StepWriter writer(path_, {/*batch_rows=*/64, /*flush_interval_ms=*/50});
  push_steps(writer, 1, 20);
  writer.flush();
  // 6 s: past a connection's usual 5 s busy_timeout, so the writer's own retry saves the rows.
  auto lock = std::make_unique<ExclusiveLock>(path_);
  const auto locked_at = Clock::now();
  std::thread trainer([&] { push_steps(writer, 21, 600); });
  std::this_thread::sleep_for(std::chrono::milliseconds(6000));
  EXPECT_FALSE(writer.failure().has_value()) << *writer.failure();
  lock->release();
  const double locked_s = std::chrono::duration<double>(Clock::now() - locked_at).count();
  trainer.join();
  writer.flush();
  EXPECT_FALSE(writer.failure().has_value());
  const auto steps = reader_.steps(run_);
  ASSERT_EQ(steps.size(), 600u) << "after a " << locked_s << " s lock";
  for (size_t i = 0; i < steps.size(); ++i) ASSERT_EQ(steps[i].step, static_cast<int64_t>(i + 1));
  EXPECT_EQ(reader_.get_run(run_)->steps_done, 600);
}

TEST_F(StepWriterFaultTest, ALockHeldPastTheBoundFailsTheWriterAndKeepsThePrefix) {
  StepWriterOptions options;
  options.flush_interval_ms = 20;
  options.busy_wait_s = 0.5;
  StepWriter writer(path_, options);
  push_steps(writer, 1, 10);
  writer.flush();
  ExclusiveLock lock(path_);
  const auto locked_at = Clock::now();
  push_steps(writer, 11, 20);
  while (!writer.failure() && Clock::now() - locked_at < std::chrono::seconds(30))
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  const double failed_after = std::chrono::duration<double>(Clock::now() - locked_at).count();
  ASSERT_TRUE(writer.failure().has_value());
  // Not before the bound; after it, promptly (the cap is generous for a loaded 2-core machine;
  // typically the bound plus one attempt's wait, ~0.8 s, printed below).
  EXPECT_GE(failed_after, 0.5) << failed_after;
  EXPECT_LT(failed_after, 10.0) << failed_after;
  std::cout << "[ info ] a 0.5 s bound failed the writer after " << failed_after << " s\n";
  EXPECT_NE(writer.failure()->find("stayed locked for more than 0.5 s"), std::string::npos)
      << *writer.failure();
  lock.release();
  push_steps(writer, 21, 25);  // after the failure: not stored (they would follow a gap)
  EXPECT_THROW(writer.flush(), StorageError);
  const auto steps = reader_.steps(run_);
  ASSERT_EQ(steps.size(), 10u);
  EXPECT_EQ(steps.back().step, 10);
  EXPECT_EQ(reader_.get_run(run_)->steps_done, 10);
}

TEST_F(StepWriterFaultTest, StepsDoneNeverExceedsTheStoredRows) {
  StepWriter writer(path_, {/*batch_rows=*/7, /*flush_interval_ms=*/5});
  std::atomic<bool> done{false};
  std::thread trainer([&] {
    for (int64_t s = 1; s <= 2000; ++s) writer.push(global_row(run_, s));
    done = true;
  });
  int checks = 0;
  while (!done || checks < 5) {
    // One read transaction, so both numbers come from the same snapshot.
    exec_sql(reader_.handle(), "BEGIN");
    const int64_t steps_done = query_int(
        reader_.handle(), "SELECT steps_done FROM runs WHERE id = " + std::to_string(run_));
    const int64_t rows = query_int(reader_.handle(), "SELECT count(*) FROM steps");
    exec_sql(reader_.handle(), "COMMIT");
    ASSERT_LE(steps_done, rows);
    ASSERT_EQ(steps_done, rows) << "rows are a prefix 1..N, so N is both";
    ++checks;
  }
  trainer.join();
  writer.flush();
  EXPECT_EQ(reader_.get_run(run_)->steps_done, 2000);
}

TEST_F(StepWriterFaultTest, TheHeartbeatAdvancesWhileNoRowsArrive) {
  StepWriterOptions options;
  options.heartbeat_run_id = run_;
  options.heartbeat_interval_s = 0.05;
  StepWriter writer(path_, options);
  exec_sql(reader_.handle(), "UPDATE runs SET heartbeat_at = 1");
  // A wait on the beat (every 50 ms), bounded for a busy 2-core machine.
  const auto deadline = Clock::now() + std::chrono::seconds(30);
  while (reader_.get_run(run_)->heartbeat_at <= 1 && Clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  EXPECT_GT(reader_.get_run(run_)->heartbeat_at, 1e9);
  EXPECT_FALSE(writer.failure().has_value());
}

}  // namespace
}  // namespace parity::storage
