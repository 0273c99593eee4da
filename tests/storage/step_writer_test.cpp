#include <gtest/gtest.h>
#include <parity/storage/step_writer.h>

#include <chrono>
#include <optional>
#include <thread>

#include "test_util.h"

namespace parity::storage {
namespace {

using testing::query_int;
using testing::TempDir;

StepRow row(int64_t run, int64_t step, int rank, double loss) {
  StepRow r;
  r.run_id = run;
  r.step = step;
  r.rank = rank;
  r.epoch = static_cast<double>(step) / 100.0;
  r.samples = step * 32;
  r.loss = loss;
  r.lr = 1e-3;
  r.time_s = static_cast<double>(step) * 0.01;
  return r;
}

// Polls until `done` or the deadline: for commits that happen on the writer's own schedule.
template <typename F>
bool eventually(F done, std::chrono::milliseconds limit = std::chrono::milliseconds(5000)) {
  const auto deadline = std::chrono::steady_clock::now() + limit;
  while (std::chrono::steady_clock::now() < deadline) {
    if (done()) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  return done();
}

class StepWriterTest : public ::testing::Test {
 protected:
  void SetUp() override { run_ = reader_.create_run("r", "{}"); }
  TempDir dir_;
  std::string path_ = dir_.file("writer.db");
  Database reader_{path_};
  int64_t run_ = 0;
};

TEST_F(StepWriterTest, FlushCommitsBeforeTheBatchIsFullOrTheIntervalEnds) {
  StepWriter writer(path_, {/*batch_rows=*/100000, /*flush_interval_ms=*/600000});
  for (int64_t s = 1; s <= 10; ++s) writer.push(row(run_, s, -1, 1.0 / s));
  writer.push(EvalRow{run_, 1, 10, 320, 0.1, 0.9});
  writer.flush();
  const auto steps = reader_.steps(run_);
  ASSERT_EQ(steps.size(), 10u);
  for (int64_t s = 1; s <= 10; ++s) EXPECT_EQ(steps[s - 1].loss, 1.0 / s);
  ASSERT_EQ(reader_.evals(run_).size(), 1u);
  EXPECT_EQ(reader_.evals(run_)[0].accuracy, 0.9);
  EXPECT_EQ(reader_.get_run(run_)->steps_done, 10);
  writer.flush();  // nothing pending: returns at once
}

TEST_F(StepWriterTest, CommitsOnTheIntervalWithoutFlush) {
  StepWriter writer(path_, {/*batch_rows=*/100000, /*flush_interval_ms=*/20});
  writer.push(row(run_, 1, -1, 0.5));
  EXPECT_TRUE(eventually([&] { return reader_.steps(run_).size() == 1; }));
}

TEST_F(StepWriterTest, CommitsAFullBatchWithoutWaitingForTheInterval) {
  StepWriter writer(path_, {/*batch_rows=*/4, /*flush_interval_ms=*/600000});
  for (int64_t s = 1; s <= 4; ++s) writer.push(row(run_, s, -1, 1.0));
  EXPECT_TRUE(eventually([&] { return reader_.steps(run_).size() == 4; }));
}

TEST_F(StepWriterTest, LaterPushesOfTheSameKeyWin) {
  StepWriter writer(path_, {/*batch_rows=*/3, /*flush_interval_ms=*/1});
  for (int round = 0; round < 50; ++round) {
    for (int64_t s = 1; s <= 5; ++s) writer.push(row(run_, s, -1, round * 10.0 + s));
  }
  writer.flush();
  const auto steps = reader_.steps(run_);
  ASSERT_EQ(steps.size(), 5u);
  for (int64_t s = 1; s <= 5; ++s) {
    EXPECT_EQ(steps[s - 1].step, s);
    EXPECT_EQ(steps[s - 1].loss, 490.0 + s);  // the last round's value
  }
}

TEST_F(StepWriterTest, ManyRowsFromATrainingThread) {
  constexpr int64_t kSteps = 5000;
  constexpr int kRanks = 4;
  StepWriter writer(path_, {/*batch_rows=*/512, /*flush_interval_ms=*/50});
  std::thread trainer([&] {
    for (int64_t s = 1; s <= kSteps; ++s) {
      for (int rank = -1; rank < kRanks; ++rank) writer.push(row(run_, s, rank, 1.0 / s + rank));
      if (s % 1000 == 0)
        writer.push(EvalRow{run_, static_cast<int>(s / 1000), s, s * 32, 0.1, std::nullopt});
    }
  });
  // Meanwhile the window polls the growing series; each poll sees a committed prefix.
  int64_t seen = 0;
  bool in_order = true;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (seen < kSteps && in_order && std::chrono::steady_clock::now() < deadline) {
    const auto tail = reader_.steps(run_, -1, seen);
    for (const auto& r : tail) in_order = in_order && r.step == ++seen;
    if (tail.empty()) std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  trainer.join();
  EXPECT_TRUE(in_order) << "a poll saw a gap in the committed steps";
  writer.flush();
  EXPECT_EQ(seen, kSteps);
  EXPECT_EQ(query_int(reader_.handle(), "SELECT count(*) FROM steps"), kSteps * (kRanks + 1));
  EXPECT_EQ(reader_.evals(run_).size(), 5u);
  EXPECT_EQ(reader_.get_run(run_)->steps_done, kSteps);
  EXPECT_EQ(reader_.steps(run_, 3).back().loss, 1.0 / kSteps + 3);
}

TEST_F(StepWriterTest, AHardErrorIsReportedOnceAndNoLaterRowIsStored) {
  StepWriter writer(path_, {/*batch_rows=*/1000, /*flush_interval_ms=*/1000});
  writer.push(row(run_, 1, -1, 1.0));
  writer.flush();
  EXPECT_FALSE(writer.failure().has_value());
  writer.push(row(run_ + 99, 2, -1, 1.0));  // no such run: the foreign key refuses it
  try {
    writer.flush();
    FAIL() << "flush did not report the failed write";
  } catch (const StorageError& e) {
    EXPECT_NE(std::string(e.what()).find("FOREIGN KEY"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find(path_), std::string::npos) << e.what();
  }
  ASSERT_TRUE(writer.failure().has_value());
  EXPECT_NE(writer.failure()->find("FOREIGN KEY"), std::string::npos) << *writer.failure();
  EXPECT_NO_THROW(writer.flush());  // reported once
  // A later row would follow a gap: it is not stored, so the stored rows stay a prefix.
  writer.push(row(run_, 3, -1, 1.0));
  EXPECT_NO_THROW(writer.flush());
  EXPECT_EQ(reader_.steps(run_).size(), 1u);
  // Run updates still are (the run can be marked failed).
  writer.push([&](Database& db) { db.set_status(run_, RunStatus::kFailed, "disk said no"); });
  EXPECT_NO_THROW(writer.flush());
  EXPECT_EQ(reader_.get_run(run_)->error, "disk said no");
}

TEST_F(StepWriterTest, DestructorWritesWhatIsQueued) {
  {
    StepWriter writer(path_, {/*batch_rows=*/100000, /*flush_interval_ms=*/600000});
    for (int64_t s = 1; s <= 100; ++s) writer.push(row(run_, s, 0, 1.0));
  }
  EXPECT_EQ(reader_.steps(run_, 0).size(), 100u);
}

TEST(StepWriter, ABadPathThrowsFromTheConstructor) {
  TempDir dir;
  std::FILE* f = std::fopen(dir.file("file").c_str(), "w");
  ASSERT_NE(f, nullptr);
  std::fclose(f);
  EXPECT_THROW(StepWriter(dir.file("file/sub/x.db")), StorageError);
}

}  // namespace
}  // namespace parity::storage
