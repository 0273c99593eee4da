#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <parity/launch/rank_supervisor.h>
#include <parity/test_support/temp_dir.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

namespace parity::launch {
namespace {

namespace fs = std::filesystem;

/// Records what the launcher forwards; optionally sets a stop flag after some steps.
class RecordingSink : public StepSink {
 public:
  void on_start(const RunStart& s) override { starts.push_back(s); }
  void on_step(const StepRecord& r) override {
    steps.push_back(r);
    if (stop && stop_after > 0 && static_cast<int>(steps.size()) >= stop_after) stop->store(true);
  }
  void on_eval(const EvalRecord& e) override { evals.push_back(e); }
  void on_end(const RunEnd& e) override { ends.push_back(e); }

  std::vector<RunStart> starts;
  std::vector<StepRecord> steps;
  std::vector<EvalRecord> evals;
  std::vector<RunEnd> ends;
  std::atomic<bool>* stop = nullptr;
  int stop_after = 0;
};

config::RunConfig fake_config(const std::string& mode, int processes = 2, int64_t steps = 5) {
  config::RunConfig c;
  c.label = mode;
  c.dataset = config::DatasetKind::kSyntheticRegression;
  c.task = config::Task::kRegression;
  c.model = config::ModelKind::kLinear;
  c.num_processes = processes;
  c.per_device_batch_size = 8;
  c.max_steps = steps;
  return c;
}

LaunchOptions fake_options() {
  LaunchOptions o;
  o.worker_path = PARITY_FAKE_WORKER;
  o.hang_timeout_s = 30;
  o.term_grace_s = 1;
  return o;
}

/// Every rank was reaped by run(): no such child, and no such process.
void expect_all_gone(const LaunchResult& result, size_t expected) {
  ASSERT_EQ(result.pids.size(), expected);
  for (int pid : result.pids) {
    ASSERT_GT(pid, 0);
    int status;
    EXPECT_EQ(::waitpid(pid, &status, WNOHANG), -1) << "pid " << pid << " is still our child";
    EXPECT_EQ(errno, ECHILD);
    EXPECT_NE(::kill(pid, 0), 0) << "pid " << pid << " is still alive";
  }
}

using test_support::TempDir;

std::string read_file(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

TEST(Launcher, FinishedRunForwardsRankZeroRecords) {
  RecordingSink sink;
  LaunchResult r = RankSupervisor(fake_config("ok", 2, 6), fake_options()).run(sink);
  EXPECT_EQ(r.outcome, RunOutcome::kFinished) << r.message;
  EXPECT_EQ(r.failed_rank, -1);
  EXPECT_DOUBLE_EQ(r.samples_per_s, 1234.5);
  ASSERT_EQ(sink.starts.size(), 1u);
  EXPECT_EQ(sink.starts[0].total_steps, 6);
  ASSERT_EQ(sink.steps.size(), 6u);
  for (size_t i = 0; i < sink.steps.size(); ++i) {
    EXPECT_EQ(sink.steps[i].step, static_cast<int64_t>(i + 1));
    EXPECT_EQ(sink.steps[i].samples, static_cast<int64_t>(i + 1) * 8 * 2);
    ASSERT_EQ(sink.steps[i].rank_losses.size(), 2u);
  }
  ASSERT_EQ(sink.evals.size(), 1u);
  EXPECT_DOUBLE_EQ(sink.evals[0].accuracy, 0.75);
  ASSERT_EQ(sink.ends.size(), 1u);
  EXPECT_EQ(sink.ends[0].outcome, RunOutcome::kFinished);
  EXPECT_TRUE(r.log_dir.empty());
  expect_all_gone(r, 2);
}

TEST(Launcher, EnvironmentContract) {
  TempDir logs;
  RecordingSink sink;
  LaunchOptions o = fake_options();
  o.log_dir = logs.path();
  o.threads_per_rank = 3;
  LaunchResult r = RankSupervisor(fake_config("ok", 3, 2), o).run(sink);
  ASSERT_EQ(r.outcome, RunOutcome::kFinished) << r.message;
  EXPECT_EQ(r.log_dir, logs.path());
  std::string port;
  for (int rank = 0; rank < 3; ++rank) {
    std::string log = read_file(logs.path() + "/rank" + std::to_string(rank) + ".log");
    std::string r_s = std::to_string(rank);
    EXPECT_NE(log.find("RANK=" + r_s + " WORLD_SIZE=3 LOCAL_RANK=" + r_s + " LOCAL_WORLD_SIZE=3"),
              std::string::npos)
        << log;
    EXPECT_NE(log.find("MASTER_ADDR=127.0.0.1"), std::string::npos) << log;
    EXPECT_NE(log.find("PARITY_THREADS=3 OMP_NUM_THREADS=3 PARITY_STATUS_FD=3"), std::string::npos)
        << log;
    EXPECT_NE(log.find("PARITY_STORE=/"), std::string::npos) << log;
    // Every rank sees the same port.
    size_t at = log.find("MASTER_PORT=");
    ASSERT_NE(at, std::string::npos);
    std::string p = log.substr(at, log.find(' ', at) - at);
    if (rank == 0) port = p;
    EXPECT_EQ(p, port);
  }
  expect_all_gone(r, 3);
}

TEST(Launcher, DefaultThreadsShareTheCores) {
  TempDir logs;
  RecordingSink sink;
  LaunchOptions o = fake_options();
  o.log_dir = logs.path();
  LaunchResult r = RankSupervisor(fake_config("ok", 1, 1), o).run(sink);
  ASSERT_EQ(r.outcome, RunOutcome::kFinished) << r.message;
  std::string log = read_file(logs.path() + "/rank0.log");
  EXPECT_EQ(log.find("PARITY_THREADS=0 "), std::string::npos) << log;
}

TEST(Launcher, MultiNodeUsesGlobalRanksAndNoFileStore) {
  TempDir logs;
  RecordingSink sink;
  LaunchOptions o = fake_options();
  o.log_dir = logs.path();
  o.nnodes = 2;
  o.node_rank = 1;
  o.master_addr = "10.1.2.3";
  o.master_port = 29555;
  // num_processes is the total over the nodes, as in Accelerate: 4 ranks, 2 on each node.
  LaunchResult r = RankSupervisor(fake_config("ok", 4, 2), o).run(sink);
  // Rank 0 lives on the other node: this node's ranks only send heartbeats.
  EXPECT_EQ(r.outcome, RunOutcome::kFinished) << r.message;
  EXPECT_TRUE(sink.steps.empty());
  for (int rank : {2, 3}) {
    std::string log = read_file(logs.path() + "/rank" + std::to_string(rank) + ".log");
    EXPECT_NE(log.find("RANK=" + std::to_string(rank) + " WORLD_SIZE=4 LOCAL_RANK=" +
                       std::to_string(rank - 2) + " LOCAL_WORLD_SIZE=2"),
              std::string::npos)
        << log;
    EXPECT_NE(log.find("MASTER_ADDR=10.1.2.3 MASTER_PORT=29555 PARITY_STORE= "), std::string::npos)
        << log;
  }
  expect_all_gone(r, 2);
}

TEST(Launcher, MultiNodeProcessesMustDivideByTheNodes) {
  RecordingSink sink;
  LaunchOptions o = fake_options();
  o.nnodes = 2;
  try {
    RankSupervisor(fake_config("ok", 3, 2), o).run(sink);
    FAIL() << "3 processes were split over 2 nodes";
  } catch (const LaunchError& e) {
    EXPECT_NE(std::string(e.what()).find("does not divide by nnodes 2"), std::string::npos)
        << e.what();
  }
}

// Who runs a setup is chosen once (choose_launcher): its command whenever it has one, whoever
// was asked to start ranks; else the ranks' launcher asked for. The supervisor refuses a setup
// chosen for its command rather than start workers for it.
TEST(Launcher, ACommandSetupIsChosenForItsCommandAndNeverStartsRanks) {
  config::RunConfig engine = fake_config("ok", 2, 2);
  EXPECT_EQ(choose_launcher(engine), Launcher::kLocal);
  EXPECT_EQ(choose_launcher(engine, Launcher::kSlurm), Launcher::kSlurm);
  config::RunConfig command = engine;
  command.command = "python3 train.py";
  EXPECT_EQ(choose_launcher(command), Launcher::kCommand);
  EXPECT_EQ(choose_launcher(command, Launcher::kSlurm), Launcher::kCommand);

  RecordingSink sink;
  LaunchOptions o = fake_options();
  o.launcher = choose_launcher(command);
  EXPECT_THROW(RankSupervisor(command, o).run(sink), LaunchError);
  EXPECT_TRUE(sink.ends.empty());
}

TEST(Launcher, RankExitingNonZeroFailsTheRun) {
  RecordingSink sink;
  LaunchResult r = RankSupervisor(fake_config("exit1", 3), fake_options()).run(sink);
  EXPECT_EQ(r.outcome, RunOutcome::kFailed);
  EXPECT_EQ(r.failed_rank, 1);
  EXPECT_EQ(r.message, "rank 1 exited with code 1: fake-worker: rank 1 failed on purpose");
  ASSERT_EQ(sink.ends.size(), 1u);
  EXPECT_EQ(sink.ends[0].outcome, RunOutcome::kFailed);
  EXPECT_EQ(sink.ends[0].message, r.message);
  EXPECT_FALSE(sink.steps.empty());  // rank 0's steps before the failure were forwarded
  expect_all_gone(r, 3);
}

TEST(Launcher, RankKilledBySignalFailsTheRun) {
  RecordingSink sink;
  LaunchResult r = RankSupervisor(fake_config("sigkill"), fake_options()).run(sink);
  EXPECT_EQ(r.outcome, RunOutcome::kFailed);
  EXPECT_EQ(r.failed_rank, 1);
  EXPECT_EQ(r.message, "rank 1 was killed by signal 9 (SIGKILL)");
  expect_all_gone(r, 2);
}

TEST(Launcher, SilentRankIsDeclaredHung) {
  RecordingSink sink;
  LaunchOptions o = fake_options();
  o.hang_timeout_s = 1.5;
  // No clock here: the message names the timeout it was declared hung by, and a supervisor that
  // never declared it would run into ctest's timeout.
  LaunchResult r = RankSupervisor(fake_config("hang"), o).run(sink);
  EXPECT_EQ(r.outcome, RunOutcome::kFailed);
  EXPECT_EQ(r.failed_rank, 1);
  EXPECT_EQ(r.message, "rank 1 made no progress for 1.5 s");
  expect_all_gone(r, 2);
}

TEST(Launcher, SilentRankZeroIsDeclaredHung) {
  RecordingSink sink;
  LaunchOptions o = fake_options();
  o.hang_timeout_s = 1.5;
  LaunchResult r = RankSupervisor(fake_config("hang0"), o).run(sink);
  EXPECT_EQ(r.outcome, RunOutcome::kFailed);
  EXPECT_EQ(r.failed_rank, 0);
  EXPECT_EQ(r.message, "rank 0 made no progress for 1.5 s");
  EXPECT_EQ(sink.steps.size(), 1u) << "rank 0's step before it hung is kept";
  expect_all_gone(r, 2);
}

TEST(Launcher, RankWritingLinesWithoutProgressIsDeclaredHung) {
  RecordingSink sink;
  LaunchOptions o = fake_options();
  o.hang_timeout_s = 1.5;
  LaunchResult r = RankSupervisor(fake_config("chatty"), o).run(sink);
  EXPECT_EQ(r.outcome, RunOutcome::kFailed);
  EXPECT_EQ(r.failed_rank, 1);
  EXPECT_EQ(r.message, "rank 1 made no progress for 1.5 s");
  expect_all_gone(r, 2);
}

TEST(Launcher, RanksIgnoringSigtermAreKilled) {
  RecordingSink sink;
  LaunchOptions o = fake_options();
  o.term_grace_s = 0.3;
  LaunchResult r = RankSupervisor(fake_config("stubborn", 3), o).run(sink);
  EXPECT_EQ(r.outcome, RunOutcome::kFailed);
  EXPECT_EQ(r.failed_rank, 1);
  expect_all_gone(r, 3);
}

TEST(Launcher, StopFlagStopsTheRun) {
  std::atomic<bool> stop{false};
  RecordingSink sink;
  sink.stop = &stop;
  sink.stop_after = 3;
  LaunchOptions o = fake_options();
  o.stop = &stop;
  LaunchResult r = RankSupervisor(fake_config("forever", 2, 1000), o).run(sink);
  EXPECT_EQ(r.outcome, RunOutcome::kStopped);
  EXPECT_EQ(r.failed_rank, -1);
  EXPECT_EQ(r.message, "stopped by the user");
  EXPECT_GE(sink.steps.size(), 3u);
  ASSERT_EQ(sink.ends.size(), 1u);
  EXPECT_EQ(sink.ends[0].outcome, RunOutcome::kStopped);
  expect_all_gone(r, 2);
}

TEST(Launcher, DivergedRunReportedByRankZero) {
  RecordingSink sink;
  LaunchResult r = RankSupervisor(fake_config("diverge", 2, 10), fake_options()).run(sink);
  EXPECT_EQ(r.outcome, RunOutcome::kDiverged);
  EXPECT_EQ(r.message, "loss is nan at step 3");
  EXPECT_EQ(r.failed_rank, -1);
  EXPECT_EQ(sink.steps.size(), 3u);
  expect_all_gone(r, 2);
}

TEST(Launcher, RankZeroWithoutAnEndFailsTheRun) {
  RecordingSink sink;
  LaunchResult r = RankSupervisor(fake_config("noend"), fake_options()).run(sink);
  EXPECT_EQ(r.outcome, RunOutcome::kFailed);
  EXPECT_EQ(r.failed_rank, 0);
  EXPECT_NE(r.message.find("without reporting the end"), std::string::npos) << r.message;
}

TEST(Launcher, SinkExceptionKillsTheRanksAndPropagates) {
  class ThrowingSink : public RecordingSink {
   public:
    void on_step(const StepRecord&) override { throw std::runtime_error("disk full"); }
  } sink;
  EXPECT_THROW(RankSupervisor(fake_config("forever", 2, 1000), fake_options()).run(sink),
               std::runtime_error);
  // Nothing to wait for any more: the guard reaped every child.
  int status;
  EXPECT_EQ(::waitpid(-1, &status, WNOHANG), -1);
  EXPECT_EQ(errno, ECHILD);
}

TEST(Launcher, MissingWorkerIsALaunchError) {
  RecordingSink sink;
  LaunchOptions o = fake_options();
  o.worker_path = "/nonexistent/parity-worker";
  try {
    RankSupervisor(fake_config("ok"), o).run(sink);
    FAIL() << "expected LaunchError";
  } catch (const LaunchError& e) {
    EXPECT_EQ(std::string(e.what()),
              "parity-worker not found at /nonexistent/parity-worker; build it or pass --worker");
  }
  EXPECT_TRUE(sink.starts.empty());
}

TEST(Launcher, InvalidConfigStartsNothing) {
  RecordingSink sink;
  config::RunConfig c = fake_config("ok");
  c.num_processes = 0;
  EXPECT_THROW(RankSupervisor(c, fake_options()).run(sink), config::ConfigError);
  int status;
  EXPECT_EQ(::waitpid(-1, &status, WNOHANG), -1);
}

TEST(Launcher, PrivateRunFolderIsRemoved) {
  TempDir tmp;
  const char* old = std::getenv("TMPDIR");
  std::string saved = old ? old : "";
  ::setenv("TMPDIR", tmp.path().c_str(), 1);
  RecordingSink sink;
  LaunchResult r = RankSupervisor(fake_config("exit1"), fake_options()).run(sink);
  if (old)
    ::setenv("TMPDIR", saved.c_str(), 1);
  else
    ::unsetenv("TMPDIR");
  EXPECT_EQ(r.outcome, RunOutcome::kFailed);
  EXPECT_TRUE(fs::is_empty(tmp.path()));
}

bool process_gone(int pid) {
  if (::kill(pid, 0) != 0) return true;
  // Reparented to an init that does not reap: a zombie is gone for our purpose.
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  std::string line;
  std::getline(stat, line);
  size_t paren = line.rfind(')');
  return paren == std::string::npos || line.substr(paren + 2, 1) == "Z";
}

TEST(Launcher, RanksDieWithTheLauncher) {
  TempDir logs;
  pid_t launcher = ::fork();
  ASSERT_GE(launcher, 0);
  if (launcher == 0) {
    ::setenv("TMPDIR", logs.path().c_str(), 1);  // the run folder outlives a killed launcher
    RecordingSink sink;
    LaunchOptions o = fake_options();
    o.log_dir = logs.path();
    RankSupervisor(fake_config("forever", 2, 1000), o).run(sink);
    ::_exit(0);
  }
  std::vector<int> pids;
  for (int i = 0; i < 200 && pids.size() < 2; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    pids.clear();
    for (int rank : {0, 1}) {
      std::string log = read_file(logs.path() + "/rank" + std::to_string(rank) + ".log");
      size_t at = log.find("PID=");
      if (at != std::string::npos) pids.push_back(std::stoi(log.substr(at + 4)));
    }
  }
  ASSERT_EQ(pids.size(), 2u);
  ::kill(launcher, SIGKILL);
  int status;
  ::waitpid(launcher, &status, 0);
  for (int pid : pids) {
    bool gone = false;
    for (int i = 0; i < 100 && !gone; ++i) {
      gone = process_gone(pid);
      if (!gone) std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    EXPECT_TRUE(gone) << "rank pid " << pid << " outlived its launcher";
  }
}

TEST(Launcher, FreePortIsUsable) {
  const int p = free_port();
  ASSERT_GT(p, 0);
  ASSERT_LT(p, 65536);
  // The port can really be bound and listened on, on the loopback interface free_port() names.
  const int sock = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  ASSERT_GE(sock, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  addr.sin_port = htons(static_cast<uint16_t>(p));
  EXPECT_EQ(::bind(sock, reinterpret_cast<sockaddr*>(&addr), sizeof addr), 0)
      << "port " << p << ": " << std::strerror(errno);
  EXPECT_EQ(::listen(sock, 1), 0) << std::strerror(errno);
  ::close(sock);
}

TEST(Launcher, ExecutableDirIsThisTestsFolder) {
  const std::string dir = executable_dir();
  EXPECT_TRUE(std::filesystem::is_regular_file(dir + "/launch_tests")) << dir;
}

TEST(Launcher, ExecutableDirThatCannotBeReadThrowsNamingTheLink) {
  try {
    executable_dir("/nonexistent/parity/self");
    FAIL() << "no LaunchError";
  } catch (const LaunchError& e) {
    EXPECT_NE(std::string(e.what()).find("/nonexistent/parity/self"), std::string::npos)
        << e.what();
  }
}

/// A sink whose store fails at its third step, as a full disk would.
class FailingSink : public StepSink {
 public:
  void on_step(const StepRecord&) override {
    if (++steps_ == 3) failed_at_ = std::chrono::steady_clock::now();
  }
  std::optional<std::string> failure() const override {
    if (steps_ < 3) return std::nullopt;
    return "database or disk is full";
  }
  std::chrono::steady_clock::time_point failed_at_;

 private:
  int steps_ = 0;
};

TEST(Launcher, ASinkThatCannotRecordStopsTheRunPromptly) {
  FailingSink sink;
  const LaunchResult r =
      RankSupervisor(fake_config("forever", 2, 100000), fake_options()).run(sink);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - sink.failed_at_).count();
  EXPECT_EQ(r.outcome, RunOutcome::kFailed);
  EXPECT_EQ(r.message, "cannot record the run: database or disk is full");
  // The ranks would run 100,000 steps: ending at all is the event; the cap is generous for a
  // loaded 2-core machine (typically well under a second, printed below).
  EXPECT_LT(seconds, 15.0) << "from the sink's failure to every rank reaped";
  std::cout << "[ info ] sink failure to every rank reaped: " << seconds << " s\n";
}

}  // namespace
}  // namespace parity::launch
