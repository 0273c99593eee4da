// Faults a run lives or dies through, with parity-cli and the fake worker as users meet them:
// the launcher killed (kill -9) or hung up on (SIGHUP) mid-run, a database locked for 10 s, a
// full disk, a read-only database, a planted symlink, and log modes under umask 000. Each test
// checks what is left behind: the run's row, rank processes, private folders, files and modes.
#include <gtest/gtest.h>
#include <parity/test_support/ci_skip.h>
#include <signal.h>
#include <sqlite3.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <thread>

#include "cli_test_util.h"
#include "fault_util.h"

namespace parity::cli::testing {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;

mode_t mode_of(const std::string& path) {
  struct stat st {};
  if (::lstat(path.c_str(), &st) != 0) return 0;
  return st.st_mode & 07777;
}

/// A run started in the background with its own TMPDIR, so its private folder can be watched.
class BackgroundRun {
 public:
  BackgroundRun(const TempDir& home, const std::string& db, const std::string& label, int processes,
                int steps, const std::string& tmp)
      : home_(home),
        pid_(start_cli(fake_run(db, label, processes, steps), home.path(), home.file("out"),
                       home.file("err"), {"TMPDIR=" + tmp})) {}
  ~BackgroundRun() {
    if (pid_ > 0 && !waited_) {
      ::kill(pid_, SIGKILL);
      wait_cli(pid_);
    }
  }
  pid_t pid() const { return pid_; }
  int wait() {
    waited_ = true;
    return wait_cli(pid_);
  }
  std::string err() const { return read_file(home_.file("err")); }

 private:
  const TempDir& home_;
  pid_t pid_;
  bool waited_ = false;
};

bool recording(const std::string& db, int64_t at_least) { return steps_done_of(db, 1) >= at_least; }

TEST(CliFault, KillNineOfTheLauncherIsReconciledLeavesNoRankAndNoFolder) {
  TempDir home, tmp;
  const std::string db_path = home.file("runs.db");
  BackgroundRun run(home, db_path, "forever", 2, 100000, tmp.path());
  ASSERT_TRUE(wait_for([&] { return recording(db_path, 3); }, milliseconds(15000))) << run.err();
  const std::vector<pid_t> ranks = rank_pids(home.file("runs.db.logs/run-1"));
  ASSERT_EQ(ranks.size(), 2u);
  ASSERT_EQ(run_folders_in(tmp.path()).size(), 1u);

  ::kill(run.pid(), SIGKILL);
  EXPECT_EQ(run.wait(), -1);
  // The ranks die with their launcher (PR_SET_PDEATHSIG).
  EXPECT_TRUE(wait_for([&] { return !process_alive(ranks[0]) && !process_alive(ranks[1]); },
                       milliseconds(3000)))
      << "orphan ranks left running";

  CliResult list = run_cli({"list", "--db", db_path}, home.path());
  ASSERT_EQ(list.exit_code, 0) << list.err;
  EXPECT_EQ(row_starting_with(list.out, "1 ").at(2), "failed") << list.out;
  EXPECT_TRUE(contains(list.err, "run 1 was left active by a launcher that is gone")) << list.err;
  storage::Database db(db_path);
  const auto row = db.get_run(1);
  const auto stored = db.steps(1);
  ASSERT_FALSE(stored.empty());
  EXPECT_EQ(row->error, "the launcher exited unexpectedly (killed?) at step " +
                            std::to_string(stored.back().step));
  EXPECT_EQ(static_cast<int64_t>(stored.size()), row->steps_done) << "every recorded step kept";
  EXPECT_TRUE(row->final_loss.has_value());

  // kill -9 ran no destructor: the private folder is still there, until the next start.
  EXPECT_EQ(run_folders_in(tmp.path()).size(), 1u);
  CliResult next = run_cli(fake_run(db_path, "ok", 1, 2), home.path(), {"TMPDIR=" + tmp.path()});
  ASSERT_EQ(next.exit_code, 0) << next.err;
  EXPECT_TRUE(run_folders_in(tmp.path()).empty()) << run_folders_in(tmp.path()).at(0);
}

// The row is written with its supervisor in one statement: a kill -9 at the first moment the row
// can be seen (before, it stayed queued for ever when the launcher died in its first ~0.16 s,
// before it claimed the row) is reconciled like any other.
TEST(CliFault, KillNineTheMomentItsRowExistsIsStillReconciled) {
  TempDir home, tmp;
  const std::string db_path = home.file("runs.db");
  BackgroundRun run(home, db_path, "forever", 2, 100000, tmp.path());
  bool seen = false;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(15);
  while (!seen && std::chrono::steady_clock::now() < deadline) {
    seen = steps_done_of(db_path, 1) >= 0;
    if (!seen) std::this_thread::sleep_for(std::chrono::microseconds(500));
  }
  ::kill(run.pid(), SIGKILL);
  EXPECT_EQ(run.wait(), -1);
  ASSERT_TRUE(seen) << "the row never appeared: " << run.err();
  const CliResult list = run_cli({"list", "--db", db_path}, home.path());
  ASSERT_EQ(list.exit_code, 0) << list.err;
  EXPECT_EQ(row_starting_with(list.out, "1 ").at(2), "failed") << list.out;
  EXPECT_TRUE(contains(list.err, "run 1 was left active by a launcher that is gone")) << list.err;
}

TEST(CliFault, KillNineDuringARunSetReconcilesTheSetupsNotYetStarted) {
  TempDir home, tmp;
  const std::string set = home.file("set.json");
  std::ofstream(set) << R"({"experiment": {"dataset": "synthetic-regression", "task": "regression",
    "model": "linear", "max_steps": 100000, "per_device_batch_size": 4},
    "setups": [{"label": "forever", "num_processes": 2}, {"label": "ok", "num_processes": 1}]})";
  const std::string db_path = home.file("runs.db");
  const pid_t pid =
      start_cli({"run-set", set, "--db", db_path, "--worker", PARITY_FAKE_WORKER, "--quiet"},
                home.path(), home.file("out"), home.file("err"), {"TMPDIR=" + tmp.path()});
  ASSERT_TRUE(wait_for([&] { return recording(db_path, 3); }, milliseconds(15000)))
      << read_file(home.file("err"));
  ::kill(pid, SIGKILL);
  wait_cli(pid);
  CliResult list = run_cli({"list", "--db", db_path}, home.path());
  ASSERT_EQ(list.exit_code, 0) << list.err;
  EXPECT_EQ(row_starting_with(list.out, "1 ").at(2), "failed") << list.out;
  EXPECT_EQ(row_starting_with(list.out, "2 ").at(2), "failed") << list.out;
  storage::Database db(db_path);
  EXPECT_EQ(db.get_run(2)->error, "the launcher exited unexpectedly (killed?) at step 0");
}

TEST(CliFault, SighupStopsTheRunCleanlyAsSigtermDoes) {
  TempDir home, tmp;
  const std::string db_path = home.file("runs.db");
  BackgroundRun run(home, db_path, "forever", 2, 100000, tmp.path());
  ASSERT_TRUE(wait_for([&] { return recording(db_path, 3); }, milliseconds(15000))) << run.err();
  const std::vector<pid_t> ranks = rank_pids(home.file("runs.db.logs/run-1"));
  ::kill(run.pid(), SIGHUP);
  EXPECT_EQ(run.wait(), 1) << run.err();
  storage::Database db(db_path);
  const auto row = db.get_run(1);
  EXPECT_EQ(row->status, storage::RunStatus::kStopped);
  EXPECT_EQ(row->error, "stopped by the user");
  EXPECT_EQ(static_cast<int64_t>(db.steps(1).size()), row->steps_done);
  for (pid_t pid : ranks) EXPECT_FALSE(process_alive(pid)) << "rank pid " << pid;
  EXPECT_TRUE(run_folders_in(tmp.path()).empty()) << "the private run folder leaked";
}

TEST(CliFault, ATenSecondExclusiveLockMidRunLosesNoStep) {
  TempDir home, tmp;
  const std::string db_path = home.file("runs.db");
  constexpr int kSteps = 2500;  // ~5 ms a step: the run outlasts the lock
  BackgroundRun run(home, db_path, "ok", 2, kSteps, tmp.path());
  ASSERT_TRUE(wait_for([&] { return recording(db_path, 20); }, milliseconds(15000))) << run.err();
  sqlite3* locker = nullptr;
  ASSERT_EQ(sqlite3_open(db_path.c_str(), &locker), SQLITE_OK);
  // The run's writer commits every 200 ms: the locker waits its turn instead of failing at once.
  sqlite3_busy_timeout(locker, 10000);
  ASSERT_EQ(sqlite3_exec(locker, "BEGIN EXCLUSIVE", nullptr, nullptr, nullptr), SQLITE_OK);
  const int64_t before = steps_done_of(db_path, 1);
  std::this_thread::sleep_for(milliseconds(10000));
  EXPECT_EQ(steps_done_of(db_path, 1), before) << "the lock did not hold";
  EXPECT_TRUE(process_alive(run.pid())) << "the run gave up during the lock: " << run.err();
  ASSERT_EQ(sqlite3_exec(locker, "COMMIT", nullptr, nullptr, nullptr), SQLITE_OK);
  sqlite3_close(locker);

  EXPECT_EQ(run.wait(), 0) << run.err();
  storage::Database db(db_path);
  const auto row = db.get_run(1);
  EXPECT_EQ(row->status, storage::RunStatus::kFinished) << row->error;
  const auto steps = db.steps(1);
  ASSERT_EQ(steps.size(), static_cast<size_t>(kSteps)) << "locked at step " << before;
  for (int i = 0; i < kSteps; ++i) ASSERT_EQ(steps[i].step, i + 1);
  EXPECT_EQ(db.steps(1, 1).size(), static_cast<size_t>(kSteps)) << "rank 1's rows";
  EXPECT_EQ(row->steps_done, kSteps);
  std::cout << "[ info ] 10 s exclusive lock from step " << before << ": " << steps.size() << "/"
            << kSteps << " steps stored\n";
}

// A lock held past --db-busy-wait stops the run; its end still reaches the row once the lock goes
// (the launcher waits for it: before, it gave up after twice the bound, left the row running and
// printed a 7-line UPDATE), with the real reason, and every message is one line.
TEST(CliFault, ALockHeldPastTheBoundFailsTheRowWithItsReasonOnceTheLockGoes) {
  TempDir home, tmp;
  const std::string db_path = home.file("runs.db");
  std::vector<std::string> args = fake_run(db_path, "ok", 2, 100000);
  args.insert(args.end(), {"--db-busy-wait", "2"});
  const pid_t pid =
      start_cli(args, home.path(), home.file("out"), home.file("err"), {"TMPDIR=" + tmp.path()});
  ASSERT_TRUE(wait_for([&] { return recording(db_path, 20); }, milliseconds(15000)))
      << read_file(home.file("err"));
  sqlite3* locker = nullptr;
  ASSERT_EQ(sqlite3_open(db_path.c_str(), &locker), SQLITE_OK);
  sqlite3_busy_timeout(locker, 10000);
  ASSERT_EQ(sqlite3_exec(locker, "BEGIN EXCLUSIVE", nullptr, nullptr, nullptr), SQLITE_OK);
  std::this_thread::sleep_for(milliseconds(6000));  // past twice the 2 s bound
  ASSERT_EQ(sqlite3_exec(locker, "COMMIT", nullptr, nullptr, nullptr), SQLITE_OK);
  sqlite3_close(locker);
  EXPECT_EQ(wait_cli(pid), 1);
  const std::string err = read_file(home.file("err"));
  EXPECT_FALSE(contains(err, "\n  ")) << "a message over several lines: " << err;
  EXPECT_FALSE(contains(err, "UPDATE")) << err;
  storage::Database db(db_path);
  const auto row = db.get_run(1);
  EXPECT_EQ(row->status, storage::RunStatus::kFailed) << row->error;
  EXPECT_TRUE(contains(row->error, "the database stayed locked for more than 2 s")) << row->error;
  const CliResult list = run_cli({"list", "--db", db_path}, home.path());
  EXPECT_FALSE(contains(list.err, "launcher exited unexpectedly")) << list.err;
}

TEST(CliFault, AFullDiskFailsTheRunPromptlyAndKeepsThePrefix) {
  SmallTmpfs disk(400);
  if (!disk.mounted()) PARITY_SKIP_OR_FAIL() << disk.why();
  TempDir home, tmp;
  const std::string db_path = disk.file("runs.db");
  std::vector<std::string> args = fake_run(db_path, "forever", 4, 100000);
  // The rank logs go beside the database (its default), on the same full disk: a log that cannot
  // grow must not be what fails, or hides, the run.
  const pid_t pid =
      start_cli(args, home.path(), home.file("out"), home.file("err"), {"TMPDIR=" + tmp.path()});
  // The run fills the disk itself; the clock starts when less than a WAL frame is left.
  Clock::time_point full_at{};
  int status = 0;
  pid_t done = 0;
  const auto deadline = Clock::now() + std::chrono::seconds(60);
  while ((done = ::waitpid(pid, &status, WNOHANG)) == 0 && Clock::now() < deadline) {
    if (full_at == Clock::time_point{} && disk.free_bytes() < 4096 + 24) full_at = Clock::now();
    std::this_thread::sleep_for(milliseconds(5));
  }
  if (done == 0) {
    ::kill(pid, SIGKILL);
    wait_cli(pid);
    FAIL() << "the run did not end on a full disk: " << read_file(home.file("err"));
  }
  const auto ended_at = Clock::now();
  // The launcher gives its reserve back to write the run's end, so the disk may be full for less
  // than a polling interval: then the run's own reason (checked below) says it filled.
  if (full_at == Clock::time_point{}) full_at = ended_at;
  const double seconds = std::chrono::duration<double>(ended_at - full_at).count();
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 1) << read_file(home.file("err"));
  // Promptly, not at the end of 100,000 steps; the cap is generous for a loaded 2-core machine
  // (typically 0.1-0.5 s, printed below).
  EXPECT_LT(seconds, 15.0) << "from a full disk to the launcher's exit";

  storage::Database db(db_path);
  const auto row = db.get_run(1);
  EXPECT_EQ(row->status, storage::RunStatus::kFailed);
  EXPECT_TRUE(contains(row->error, "cannot record the run")) << row->error;
  EXPECT_TRUE(contains(row->error, "disk is full")) << row->error;
  const auto steps = db.steps(1);
  ASSERT_FALSE(steps.empty());
  for (size_t i = 0; i < steps.size(); ++i) ASSERT_EQ(steps[i].step, static_cast<int64_t>(i + 1));
  EXPECT_EQ(row->steps_done, static_cast<int64_t>(steps.size()));
  for (int rank = 0; rank < 4; ++rank) EXPECT_EQ(db.steps(1, rank).size(), steps.size());
  EXPECT_TRUE(run_folders_in(tmp.path()).empty());
  std::cout << "[ info ] disk full to exit (failed): " << seconds << " s; " << steps.size()
            << " steps stored\n";
}

TEST(CliFault, AReadOnlyDatabaseIsViewableAndSaysSoOnce) {
  SmallTmpfs disk(4096);
  if (!disk.mounted()) PARITY_SKIP_OR_FAIL() << disk.why();
  TempDir home;
  {
    storage::Database db(disk.file("runs.db"));
    add_finished_run(db, tiny_config("a", 1, 8), 5);
    add_finished_run(db, tiny_config("b", 2, 4), 5);
  }  // closed: no -wal or -shm left
  if (!disk.make_read_only()) PARITY_SKIP_OR_FAIL() << disk.why();
  const std::string db_path = disk.file("runs.db");
  ASSERT_FALSE(storage::database_writable(db_path));

  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"list", "--db", db_path},
        std::vector<std::string>{"show", "2", "--db", db_path},
        std::vector<std::string>{"export", "--db", db_path, "--out", home.file("c.csv")},
        std::vector<std::string>{"compare", "--db", db_path, "--reference", "1"}}) {
    CliResult r = run_cli(args, home.path());
    EXPECT_EQ(r.exit_code, 0) << args[0] << ": " << r.err;
    const size_t first = r.err.find("read-only");
    EXPECT_NE(first, std::string::npos) << args[0] << ": " << r.err;
    EXPECT_EQ(r.err.find("read-only", first + 1), std::string::npos) << "said twice: " << r.err;
    if (args[0] == "list") {
      EXPECT_EQ(row_starting_with(r.out, "2 ").at(2), "finished") << r.out;
    }
    if (args[0] == "show") {
      EXPECT_TRUE(contains(r.out, "run 2  b  finished")) << r.out;
    }
  }
  EXPECT_TRUE(contains(read_file(home.file("c.csv")), "run_id"));
  // A run cannot be recorded there, and says why.
  CliResult r = run_cli(fake_run(db_path, "ok", 1, 2), home.path());
  EXPECT_NE(r.exit_code, 0);
}

TEST(CliFault, APlantedSymlinkIsNotFollowed) {
  TempDir home;
  std::ofstream(home.file("victim")) << "keep me";
  fs::create_directories(home.file("logs"));
  fs::create_symlink(home.file("victim"), home.file("logs/rank0.log"));
  std::vector<std::string> args = fake_run(home.file("runs.db"), "ok", 2, 3);
  args.insert(args.end(), {"--log-dir", home.file("logs")});
  CliResult r = run_cli(args, home.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(read_file(home.file("victim")), "keep me");
  EXPECT_FALSE(fs::is_symlink(home.file("logs/rank0.log")));
  EXPECT_TRUE(contains(read_file(home.file("logs/rank0.log")), "RANK=0"));
  EXPECT_EQ(mode_of(home.file("logs/rank0.log")), 0600);

  // A log folder that is a symlink is refused, and nothing lands where it points.
  fs::create_directories(home.file("elsewhere"));
  fs::create_symlink(home.file("elsewhere"), home.file("linked"));
  args = fake_run(home.file("runs.db"), "ok", 2, 3);
  args.insert(args.end(), {"--log-dir", home.file("linked")});
  r = run_cli(args, home.path());
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_TRUE(contains(r.err, "symlink")) << r.err;
  EXPECT_TRUE(fs::is_empty(home.file("elsewhere")));
  storage::Database db(home.file("runs.db"));
  EXPECT_EQ(db.get_run(2)->status, storage::RunStatus::kFailed);
}

TEST(CliFault, RankLogsArePrivateUnderUmask000) {
  TempDir home;
  const mode_t old = ::umask(0);
  CliResult r = run_cli(fake_run(home.file("runs.db"), "ok", 2, 3), home.path());
  ::umask(old);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(mode_of(home.file("runs.db.logs")), 0700);
  EXPECT_EQ(mode_of(home.file("runs.db.logs/run-1")), 0700);
  EXPECT_EQ(mode_of(home.file("runs.db.logs/run-1/rank0.log")), 0600);
  EXPECT_EQ(mode_of(home.file("runs.db.logs/run-1/rank1.log")), 0600);
}

}  // namespace
}  // namespace parity::cli::testing
