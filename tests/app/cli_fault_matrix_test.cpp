// Faults a user meets around a run, done for real: the window or terminal that launched the run
// goes away (its stdout and stderr pipes closed), and the database file is deleted or renamed
// while the run writes to it.
#include <fcntl.h>
#include <grp.h>
#include <gtest/gtest.h>
#include <parity/test_support/ci_skip.h>
#include <signal.h>
#include <sqlite3.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <string>
#include <vector>

#include "cli_test_util.h"
#include "fault_util.h"

namespace parity::cli::testing {
namespace {

using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;

std::vector<std::string> loud(std::vector<std::string> args) {
  args.erase(std::remove(args.begin(), args.end(), "--quiet"), args.end());
  return args;
}

double seconds_since(Clock::time_point t) {
  return std::chrono::duration<double>(Clock::now() - t).count();
}

TEST(CliFaultMatrix, ARunOutlivesThePipesOfTheWindowThatLaunchedIt) {
  TempDir home;
  const std::string db_path = home.file("runs.db");
  int fds[2];
  ASSERT_EQ(::pipe(fds), 0);
  ::close(fds[0]);  // the window is gone: nobody reads the run's stdout or stderr any more
  const std::string pipe_end = "/proc/self/fd/" + std::to_string(fds[1]);
  constexpr int kSteps = 400;
  const pid_t pid =
      start_cli(loud(fake_run(db_path, "ok", 2, kSteps)), home.path(), pipe_end, pipe_end);
  ::close(fds[1]);
  EXPECT_EQ(wait_cli(pid), 0) << "-1: killed by a signal (SIGPIPE)";
  storage::Database db(db_path);
  const auto row = db.get_run(1);
  ASSERT_TRUE(row.has_value());
  EXPECT_EQ(row->status, storage::RunStatus::kFinished) << row->error;
  EXPECT_EQ(db.steps(1).size(), static_cast<size_t>(kSteps));
}

/// A run of the fake worker that outlasts the test's fault (~5 ms a step).
struct LongRun {
  LongRun(const TempDir& home, const std::string& db)
      : home_(home),
        pid(start_cli(fake_run(db, "ok", 2, 4000), home.path(), home.file("out"),
                      home.file("err"))) {}
  ~LongRun() {
    if (!waited) {
      ::kill(pid, SIGKILL);
      wait_cli(pid);
    }
  }
  int wait() {
    waited = true;
    return wait_cli(pid);
  }
  std::string err() const { return read_file(home_.file("err")); }
  const TempDir& home_;
  pid_t pid;
  bool waited = false;
};

TEST(CliFaultMatrix, ADatabaseDeletedMidRunFailsTheRunWithTheReason) {
  TempDir home;
  const std::string db_path = home.file("runs.db");
  LongRun run(home, db_path);
  ASSERT_TRUE(wait_for([&] { return steps_done_of(db_path, 1) >= 20; }, milliseconds(15000)))
      << run.err();
  ASSERT_EQ(std::remove(db_path.c_str()), 0);
  const auto removed_at = Clock::now();
  EXPECT_EQ(run.wait(), 1) << run.err();
  const double s = seconds_since(removed_at);
  EXPECT_LT(s, 15.0) << "a run of 4,000 steps ends when its database goes";
  EXPECT_TRUE(contains(run.err(), "runs.db' was deleted or renamed during the run")) << run.err();
  std::cout << "[ info ] database deleted: the run failed " << s << " s later\n";
}

TEST(CliFaultMatrix, ADatabaseRenamedMidRunFailsTheRunAndTheRenamedFileKeepsIt) {
  TempDir home;
  const std::string db_path = home.file("runs.db"), moved = home.file("moved.db");
  LongRun run(home, db_path);
  ASSERT_TRUE(wait_for([&] { return steps_done_of(db_path, 1) >= 20; }, milliseconds(15000)))
      << run.err();
  ASSERT_EQ(std::rename(db_path.c_str(), moved.c_str()), 0);
  const auto moved_at = Clock::now();
  EXPECT_EQ(run.wait(), 1) << run.err();
  const double s = seconds_since(moved_at);
  EXPECT_LT(s, 15.0);
  EXPECT_TRUE(contains(run.err(), "was deleted or renamed during the run")) << run.err();

  // The renamed file holds the run as far as it got, marked failed with the reason.
  storage::Database db(moved);
  const auto row = db.get_run(1);
  ASSERT_TRUE(row.has_value()) << "the renamed file has no run";
  EXPECT_EQ(row->status, storage::RunStatus::kFailed);
  EXPECT_TRUE(contains(row->error, "deleted or renamed")) << row->error;
  const auto steps = db.steps(1);
  ASSERT_GE(steps.size(), 20u);
  for (size_t i = 0; i < steps.size(); ++i) ASSERT_EQ(steps[i].step, static_cast<int64_t>(i + 1));
  EXPECT_EQ(row->steps_done, static_cast<int64_t>(steps.size()));
  std::cout << "[ info ] database renamed: the run failed " << s << " s later; " << steps.size()
            << " steps kept in the renamed file\n";
}

/// parity-cli ARGS run as the unprivileged user nobody (uid 65534), stdout and stderr captured.
CliResult run_cli_as_nobody(const std::vector<std::string>& args, const TempDir& io) {
  const pid_t pid = ::fork();
  if (pid == 0) {
    const int out = ::open(io.file("out").c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    const int err = ::open(io.file("err").c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    ::dup2(out, 1);
    ::dup2(err, 2);
    if (::setgroups(0, nullptr) != 0 || ::setgid(65534) != 0 || ::setuid(65534) != 0) ::_exit(126);
    std::vector<std::string> all{PARITY_CLI};
    all.insert(all.end(), args.begin(), args.end());
    std::vector<char*> argv;
    for (auto& a : all) argv.push_back(a.data());
    argv.push_back(nullptr);
    ::setenv("XDG_DATA_HOME", "/nonexistent", 1);
    ::execv(argv[0], argv.data());
    ::_exit(127);
  }
  CliResult r;
  r.exit_code = wait_cli(pid);
  r.out = read_file(io.file("out"));
  r.err = read_file(io.file("err"));
  return r;
}

TEST(CliFaultMatrix, AnotherUsersReadOnlyDatabaseIsViewedByAPlainUser) {
  if (::geteuid() != 0) PARITY_SKIP_OR_FAIL() << "running as another user needs root";
  TempDir home, io;
  const std::string db_path = home.file("runs.db");
  {
    storage::Database db(db_path);
    add_finished_run(db, tiny_config("mine", 1, 8), 5);
  }  // closed: a WAL database with no -wal or -shm beside it
  // root's 0444 file in root's 0755 folder: nobody may read both and write neither.
  ASSERT_EQ(::chmod(home.path().c_str(), 0755), 0);
  ASSERT_EQ(::chmod(db_path.c_str(), 0444), 0);
  ASSERT_EQ(::chmod(io.path().c_str(), 0777), 0);
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"list", "--db", db_path},
        std::vector<std::string>{"show", "1", "--db", db_path}}) {
    const CliResult r = run_cli_as_nobody(args, io);
    // Before: "attempt to write a readonly database" (SQLITE_READONLY, not CANTOPEN, was not
    // retried immutable).
    EXPECT_EQ(r.exit_code, 0) << args[0] << ": " << r.err;
    EXPECT_TRUE(contains(r.err, "opened read-only")) << r.err;
    EXPECT_FALSE(contains(r.err, "readonly database")) << r.err;
    EXPECT_TRUE(contains(r.out, "mine")) << r.out;
  }
}

// The same as a plain user while the owner still writes: the runs committed into the live -wal
// (not yet checkpointed into the file) are seen, never silently dropped by a fallback that reads
// the file alone (immutable=1 ignores the -wal).
TEST(CliFaultMatrix, APlainUserSeesWhatALiveWriterCommittedToTheWal) {
  if (::geteuid() != 0) PARITY_SKIP_OR_FAIL() << "running as another user needs root";
  TempDir home, io;
  const std::string db_path = home.file("runs.db");
  storage::Database writer(db_path);  // open for the whole test: its -wal and -shm stay
  add_finished_run(writer, tiny_config("in the file", 1, 8), 3);
  ASSERT_EQ(
      sqlite3_exec(writer.handle(), "PRAGMA wal_checkpoint(TRUNCATE)", nullptr, nullptr, nullptr),
      SQLITE_OK);
  add_finished_run(writer, tiny_config("only in the wal", 1, 8), 3);
  ASSERT_GT(std::filesystem::file_size(db_path + "-wal"), 0u);
  ASSERT_EQ(::chmod(home.path().c_str(), 0755), 0);
  ASSERT_EQ(::chmod(io.path().c_str(), 0777), 0);
  for (const std::string& f : {db_path, db_path + "-wal", db_path + "-shm"})
    ASSERT_EQ(::chmod(f.c_str(), 0644), 0) << f;
  const CliResult r = run_cli_as_nobody({"list", "--db", db_path}, io);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(contains(r.out, "in the file")) << r.out;
  EXPECT_TRUE(contains(r.out, "only in the wal")) << r.out << r.err;
  // A -shm this user cannot read (a writer with umask 077): what the file alone holds is shown,
  // and the user is told that newer runs may be missing, never silently.
  ASSERT_EQ(::chmod((db_path + "-shm").c_str(), 0600), 0);
  const CliResult hidden = run_cli_as_nobody({"list", "--db", db_path}, io);
  EXPECT_EQ(hidden.exit_code, 0) << hidden.err;
  if (!contains(hidden.out, "only in the wal")) {
    EXPECT_TRUE(contains(hidden.err, "may be missing")) << hidden.err;
  }
}

// A rank the kernel's OOM killer kills is said to have run out of memory, not only "killed by
// signal 9": the run is started inside a memory cgroup of 256 MiB, where one rank takes memory
// until the kernel kills it.
TEST(CliFaultMatrix, ARankKilledForMemoryIsSaidToBeOutOfMemory) {
  MemoryCgroup cgroup(256LL << 20);
  if (!cgroup.made()) PARITY_SKIP_OR_FAIL() << cgroup.why();
  TempDir home;
  const std::string db_path = home.file("runs.db");
  ASSERT_TRUE(cgroup.enter(::getpid()));  // parity-cli and its ranks are born inside
  const pid_t pid = start_cli(fake_run(db_path, "hog", 2, 100000), home.path(), home.file("out"),
                              home.file("err"));
  ASSERT_TRUE(cgroup.leave(::getpid()));
  int code = 0;
  const bool ended = wait_for(
      [&] {
        int status = 0;
        if (::waitpid(pid, &status, WNOHANG) != pid) return false;
        code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
        return true;
      },
      milliseconds(60000));
  if (!ended) {
    ::kill(pid, SIGKILL);
    wait_cli(pid);
    FAIL() << "the run did not end: " << read_file(home.file("err"));
  }
  EXPECT_EQ(code, 1) << read_file(home.file("err"));
  storage::Database db(db_path);
  const auto row = db.get_run(1);
  EXPECT_EQ(row->status, storage::RunStatus::kFailed);
  EXPECT_TRUE(contains(row->error, "rank 1 was killed by signal 9 (SIGKILL): out of memory"))
      << row->error;
}

}  // namespace
}  // namespace parity::cli::testing
