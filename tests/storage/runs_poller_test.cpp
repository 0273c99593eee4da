// RunsPoller: a poll reads only what changed, and still sees what another connection (another
// process) edited, deleted or added, and runs whose launcher died without writing anything.
#include <gtest/gtest.h>
#include <parity/storage/runs_poller.h>
#include <parity/storage/supervisor.h>
#include <parity/test_support/synthetic_runs.h>
#include <parity/test_support/temp_dir.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>

namespace parity::storage {
namespace {

const RunRow* findRow(const std::vector<RunRow>& rows, int64_t id) {
  auto it = std::find_if(rows.begin(), rows.end(), [&](const RunRow& r) { return r.id == id; });
  return it == rows.end() ? nullptr : &*it;
}

// A child process that lives until killed: a launcher that a test can kill -9.
class FakeLauncher {
 public:
  FakeLauncher() {
    pid_ = ::fork();
    if (pid_ == 0) {
      for (;;) ::pause();
    }
  }
  ~FakeLauncher() { kill(); }
  SupervisorIdentity identity() const {
    SupervisorIdentity who = SupervisorIdentity::current();
    who.pid = pid_;
    who.start_time = process_start_time(pid_);
    return who;
  }
  void kill() {
    if (pid_ <= 0) return;
    ::kill(pid_, SIGKILL);
    int status = 0;
    ::waitpid(pid_, &status, 0);
    pid_ = 0;
  }

 private:
  pid_t pid_ = 0;
};

class RunsPollerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    path = dir.file("runs.db");
    writer = std::make_unique<Database>(path);
    for (int i = 0; i < 5; ++i) test::addFinishedRun(*writer, "run " + std::to_string(i), 20);
  }

  test_support::TempDir dir;
  std::string path;
  std::unique_ptr<Database> writer;  // "another process"
};

TEST_F(RunsPollerTest, APollAfterNoChangeReadsNoRunRows) {
  Database reader(path);
  RunsPoller poller(reader);
  const RunsUpdate first = poller.poll();
  EXPECT_EQ(first.changed.size(), 5u);
  EXPECT_EQ(poller.stats().rows_read, 5);
  for (int i = 0; i < 3; ++i) EXPECT_TRUE(poller.poll().empty());
  EXPECT_EQ(poller.stats().rows_read, 5) << "unchanged polls read rows";
  EXPECT_EQ(poller.stats().skipped, 3);
  EXPECT_EQ(poller.runs().size(), 5u);
}

TEST_F(RunsPollerTest, ANoteEditedByAnotherConnectionShowsAfterTheNextPoll) {
  Database reader(path);
  RunsPoller poller(reader);
  poller.poll();
  writer->set_notes(3, "lr too high");
  const int64_t before = poller.stats().rows_read;
  const RunsUpdate update = poller.poll();
  EXPECT_EQ(poller.stats().rows_read - before, 1) << "only the edited run is reread";
  ASSERT_EQ(update.changed.size(), 1u);
  EXPECT_EQ(update.changed[0].id, 3);
  EXPECT_EQ(update.changed[0].notes, "lr too high");
  EXPECT_TRUE(update.removed.empty());
  EXPECT_EQ(findRow(poller.runs(), 3)->notes, "lr too high");
  writer->rename_run(1, "baseline");
  const RunsUpdate renamed = poller.poll();
  ASSERT_EQ(renamed.changed.size(), 1u);
  EXPECT_EQ(renamed.changed[0].label, "baseline");
}

TEST_F(RunsPollerTest, ARunDeletedOrAddedByAnotherConnectionShowsAfterTheNextPoll) {
  Database reader(path);
  RunsPoller poller(reader);
  poller.poll();
  writer->delete_run(2);
  RunsUpdate update = poller.poll();
  EXPECT_TRUE(update.changed.empty());
  EXPECT_EQ(update.removed, (std::vector<int64_t>{2}));
  EXPECT_EQ(findRow(poller.runs(), 2), nullptr);

  const int64_t added = writer->create_run("new", "{}");
  update = poller.poll();
  ASSERT_EQ(update.changed.size(), 1u);
  EXPECT_EQ(update.changed[0].id, added);
  EXPECT_EQ(update.changed[0].status, RunStatus::kQueued);
  EXPECT_EQ(poller.runs().size(), 5u);
}

TEST_F(RunsPollerTest, ARunningRunIsRereadAloneWhileItRecordsSteps) {
  const int64_t live = writer->create_run("live", "{}");
  writer->set_started(live, 100);
  Database reader(path);
  RunsPoller poller(reader);
  poller.poll();
  const int64_t before = poller.stats().rows_read;
  writer->append_steps(test::syntheticSteps(live, 10, 64));
  RunsUpdate update = poller.poll();
  ASSERT_EQ(update.changed.size(), 1u);
  EXPECT_EQ(update.changed[0].steps_done, 10);
  EXPECT_EQ(poller.stats().rows_read - before, 1) << "the ended runs were read again";

  writer->finish_run(live, RunStatus::kFinished, "", 100);
  update = poller.poll();
  ASSERT_EQ(update.changed.size(), 1u);
  EXPECT_EQ(update.changed[0].status, RunStatus::kFinished);
  EXPECT_TRUE(poller.poll().empty());
  EXPECT_EQ(poller.stats().full_reads, 1) << "only the first poll reads every run";
}

// While a run records steps every poll rereads it, and the ended runs are checked every
// kEndedCheckS: an edit of one shows within that, even if the database then stays quiet.
TEST_F(RunsPollerTest, WhileARunRecordsAnEndedRunsEditShowsWithinTheCheckInterval) {
  const int64_t live = writer->create_run("live", "{}");
  writer->set_started(live, 100);
  double now = 1000;
  Database reader(path);
  RunsPoller poller(reader, [&] { return now; });
  poller.poll();
  writer->set_notes(2, "edited while training");
  writer->append_steps(test::syntheticSteps(live, 5, 64));
  now += 0.5;
  RunsUpdate update = poller.poll();
  ASSERT_EQ(update.changed.size(), 1u) << "the recording run is reread at once";
  EXPECT_EQ(update.changed[0].id, live);
  now += 0.5;
  EXPECT_TRUE(poller.poll().empty()) << "a quiet database, the check not due yet";
  now += RunsPoller::kEndedCheckS;
  update = poller.poll();
  ASSERT_EQ(update.changed.size(), 1u);
  EXPECT_EQ(update.changed[0].id, 2);
  EXPECT_EQ(update.changed[0].notes, "edited while training");
  now += RunsPoller::kEndedCheckS;
  EXPECT_TRUE(poller.poll().empty());
  EXPECT_EQ(poller.stats().skipped, 2);
}

TEST_F(RunsPollerTest, ALauncherKilledWithoutWritingIsReconciledByTheNextPoll) {
  FakeLauncher launcher;
  const int64_t run = writer->create_run("killed", "{}");
  writer->claim_run(run, launcher.identity());
  writer->set_started(run, 100);
  writer->append_steps(test::syntheticSteps(run, 7, 64));
  Database reader(path);
  RunsPoller poller(reader);
  poller.poll();
  ASSERT_EQ(findRow(poller.runs(), run)->status, RunStatus::kRunning);
  EXPECT_TRUE(poller.poll().empty());

  launcher.kill();  // nothing is written: only the process check can tell
  const RunsUpdate update = poller.poll();
  ASSERT_EQ(update.changed.size(), 1u);
  EXPECT_EQ(update.changed[0].status, RunStatus::kFailed);
  EXPECT_EQ(update.changed[0].error, launcher_gone_message(7));
  EXPECT_FALSE(update.changed[0].shown_failed) << "a writable database is reconciled";
  EXPECT_EQ(writer->get_run(run)->status, RunStatus::kFailed);
}

TEST_F(RunsPollerTest, AReadOnlyViewerShowsARunWhoseLauncherDiedFailedWithoutWriting) {
  FakeLauncher launcher;
  const int64_t run = writer->create_run("killed", "{}");
  writer->claim_run(run, launcher.identity());
  writer->set_started(run, 100);
  writer->append_steps(test::syntheticSteps(run, 7, 64));
  Database viewer(path, OpenMode::kReadOnly);
  RunsPoller poller(viewer);
  poller.poll();
  ASSERT_EQ(findRow(poller.runs(), run)->status, RunStatus::kRunning);

  launcher.kill();
  const RunsUpdate update = poller.poll();
  ASSERT_EQ(update.changed.size(), 1u);
  const RunRow& shown = update.changed[0];
  EXPECT_EQ(shown.status, RunStatus::kFailed);
  EXPECT_TRUE(shown.shown_failed);
  EXPECT_EQ(shown.error, launcher_gone_message(7));
  ASSERT_TRUE(shown.final_loss.has_value());
  EXPECT_DOUBLE_EQ(*shown.final_loss, test::syntheticSteps(run, 7, 64).back().loss);
  EXPECT_EQ(writer->get_run(run)->status, RunStatus::kRunning) << "the viewer wrote";
  EXPECT_TRUE(poller.poll().empty()) << "shown failed once, then nothing new";
}

}  // namespace
}  // namespace parity::storage
