// Multi-node as Accelerate does it, for real: two "machines" are two network namespaces joined by a
// veth pair; each runs `parity-cli run --num-machines 2 --machine-rank R --main-process-ip ...`
// with one real parity-worker rank (--num-processes 2 is the total). The ranks rendezvous over a
// TCPStore on machine 0 and all-reduce through Gloo across the veth, so machine 0's database holds
// rank 1's losses, which only came over the wire. A lost machine (its launcher killed, a rank
// killed, the network down) fails the run everywhere, promptly, with no rank left and no row
// running. Needs root (network namespaces); skips with a message elsewhere (fails under CI=true).
#include <fcntl.h>
#include <gtest/gtest.h>
#include <parity/test_support/ci_skip.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <climits>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <thread>

#include "cli_test_util.h"

namespace parity::cli::testing {
namespace {

namespace fs = std::filesystem;

// Starts args; its output goes to `log` (or nowhere).
pid_t start_command(const std::vector<std::string>& args, const std::string& log = "/dev/null") {
  const pid_t pid = ::fork();
  if (pid == 0) {
    std::vector<char*> argv;
    for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    const int out = ::open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    ::dup2(out, 1);
    ::dup2(out, 2);
    ::execvp(argv[0], argv.data());
    ::_exit(127);
  }
  return pid;
}

int run_command(const std::vector<std::string>& args, const std::string& log = "/dev/null") {
  return wait_cli(start_command(args, log));
}

/// Two network namespaces joined by a veth pair (10.77.<n>.1 and .2). With `hosts_files`, each
/// has an /etc/hosts of its own (ip netns exec mounts /etc/netns/<name>/hosts) that names this
/// host by its address there; without, both read the host's own, where the host name is
/// loopback (127.0.0.1 here, 127.0.1.1 on Debian's default): the ordinary host.
class TwoMachines {
 public:
  explicit TwoMachines(bool hosts_files) {
    const std::string id = std::to_string(::getpid() % 100000);
    names_ = {"prty" + id + "a", "prty" + id + "b"};
    const std::string net = "10.77." + std::to_string(::getpid() % 250 + 1) + ".";
    ips_ = {net + "1", net + "2"};
    char host[HOST_NAME_MAX + 1] = {};
    ::gethostname(host, sizeof host - 1);
    const std::string va = "pv" + id + "a", vb = "pv" + id + "b";
    links_ = {va, vb};
    ok_ = ip({"netns", "add", names_[0]}) && ip({"netns", "add", names_[1]}) &&
          ip({"link", "add", va, "type", "veth", "peer", "name", vb}) &&
          ip({"link", "set", va, "netns", names_[0]}) &&
          ip({"link", "set", vb, "netns", names_[1]});
    for (int m = 0; ok_ && m < 2; ++m) {
      const std::string dev = m == 0 ? va : vb;
      ok_ = ip({"-n", names_[m], "addr", "add", ips_[m] + "/24", "dev", dev}) &&
            ip({"-n", names_[m], "link", "set", dev, "up"}) &&
            ip({"-n", names_[m], "link", "set", "lo", "up"});
      if (!hosts_files) continue;
      fs::create_directories("/etc/netns/" + names_[m]);
      std::ofstream("/etc/netns/" + names_[m] + "/hosts") << "127.0.0.1 localhost\n"
                                                          << ips_[m] << " " << host << "\n";
    }
  }
  ~TwoMachines() {
    for (const auto& n : names_) {
      ip({"netns", "del", n});  // the veth pair goes with its namespaces
      std::error_code ec;
      fs::remove_all("/etc/netns/" + n, ec);
    }
  }
  bool ok() const { return ok_; }
  const std::string& name(int m) const { return names_[m]; }
  const std::string& ip_of(int m) const { return ips_[m]; }
  /// Takes machine m's end of the veth pair down: the network between them is gone.
  bool cut(int m) const { return ip({"-n", names_[m], "link", "set", links_[m], "down"}); }
  /// Machine m's end of the veth pair (its network interface).
  const std::string& link(int m) const { return links_[m]; }

 private:
  static bool ip(std::vector<std::string> args) {
    args.insert(args.begin(), "ip");
    return run_command(args) == 0;
  }
  std::vector<std::string> names_, ips_, links_;
  bool ok_ = false;
};

std::vector<std::string> setup_args() {
  return {"--worker",
          PARITY_WORKER,
          "--dataset",
          "synthetic-regression",
          "--model",
          "linear",
          "--init",
          "zeros",
          "--num-processes",
          "2",
          "--per-device-batch-size",
          "8",
          "--max-steps",
          "4",
          "--synthetic-samples",
          "64",
          "--threads-per-rank",
          "1",
          "--quiet"};
}

// machine m's `parity-cli run` of the setup inside its namespace, for `steps` steps.
std::vector<std::string> node_args(const TwoMachines& machines, const TempDir& home, int m,
                                   const std::string& port, const std::string& steps,
                                   const std::string& hang_timeout = "20",
                                   const std::vector<std::string>& extra = {}) {
  std::vector<std::string> args = {"ip",
                                   "netns",
                                   "exec",
                                   machines.name(m),
                                   PARITY_CLI,
                                   "run",
                                   "--db",
                                   home.file("machine" + std::to_string(m) + ".db"),
                                   "--num-machines",
                                   "2",
                                   "--machine-rank",
                                   std::to_string(m),
                                   "--main-process-ip",
                                   machines.ip_of(0),
                                   "--main-process-port",
                                   port,
                                   "--hang-timeout",
                                   hang_timeout};
  for (const auto& a : setup_args()) args.push_back(a);
  for (size_t i = 0; i + 1 < args.size(); ++i)
    if (args[i] == "--max-steps") args[i + 1] = steps;
  if (steps != "4") args.insert(args.end(), {"--epochs", "100000"});  // 4 steps an epoch
  args.insert(args.end(), extra.begin(), extra.end());
  return args;
}

// One run's per-step losses, rank -1.
std::vector<double> losses_of(const std::string& db_path) {
  storage::Database db(db_path);
  std::vector<double> out;
  for (const auto& s : db.steps(db.list_runs().at(0).id, -1)) out.push_back(s.loss);
  return out;
}

// The processes in network namespace `ns` (`ip netns pids`), with their names.
std::vector<std::string> processes_in(const std::string& ns) {
  std::vector<std::string> out;
  FILE* p = ::popen(("ip netns pids " + ns).c_str(), "r");
  if (!p) return {"(ip netns pids failed)"};
  int pid = 0;
  while (std::fscanf(p, "%d", &pid) == 1) {
    std::string comm = read_file("/proc/" + std::to_string(pid) + "/comm");
    if (!comm.empty() && comm.back() == '\n') comm.pop_back();
    out.push_back(std::to_string(pid) + " " + comm);
  }
  ::pclose(p);
  return out;
}

// The pid of the parity-worker running in namespace `ns`, or -1.
pid_t worker_in(const std::string& ns) {
  for (const auto& p : processes_in(ns))
    if (p.find(" parity-worker") != std::string::npos) return std::stoi(p);
  return -1;
}

// Waits until machine 0 recorded 5 steps (up to 30 s); false when it did not.
bool wait_stepping(const TempDir& home) {
  for (int i = 0; i < 600; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    if (!fs::exists(home.file("machine0.db"))) continue;
    // The file exists a moment before its schema and its run's row do (a busy machine widened
    // that moment enough for a read to fail with "not a Parity database" under ctest -j2).
    try {
      const auto runs =
          storage::Database(home.file("machine0.db"), storage::OpenMode::kReadOnly).list_runs();
      if (!runs.empty() && runs.front().steps_done >= 5) return true;
    } catch (const std::exception&) {
      continue;
    }
  }
  return false;
}

struct Ended {
  int code = -2;  ///< exit code; -1 a signal; -2 still running at the limit (then killed)
  double seconds = 0;
};

// Waits up to `limit` s from `since` for `pid` to end; kills it past that.
Ended wait_end(pid_t pid, std::chrono::steady_clock::time_point since, double limit) {
  Ended e;
  while (std::chrono::duration<double>(std::chrono::steady_clock::now() - since).count() < limit) {
    int status = 0;
    if (::waitpid(pid, &status, WNOHANG) == pid) {
      e.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
      e.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - since).count();
      return e;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  ::kill(pid, SIGKILL);
  wait_cli(pid);
  return e;
}

// Machine m's run row as `parity-cli list` leaves it (reconciled when its launcher is gone).
storage::RunRow row_of(const TempDir& home, int m) {
  const std::string db = home.file("machine" + std::to_string(m) + ".db");
  run_cli({"list", "--db", db}, home.path());
  return storage::Database(db).list_runs().at(0);
}

// Neither namespace holds a process any more: no rank (nor launcher) was left running.
void expect_nothing_left(const TwoMachines& machines) {
  for (int m = 0; m < 2; ++m)
    EXPECT_TRUE(processes_in(machines.name(m)).empty())
        << "machine " << m << " still runs " << processes_in(machines.name(m)).front();
}

// The two-machine run of one setup: machine m's `parity-cli run` inside its namespace, its
// output in home/machine<m>.log. Returns both exit codes.
std::pair<int, int> run_on_two_machines(const TwoMachines& machines, const TempDir& home) {
  const std::string port = std::to_string(29400 + ::getpid() % 500);
  int codes[2] = {-1, -1};
  std::thread one([&] {
    codes[1] = run_command(node_args(machines, home, 1, port, "4"), home.file("machine1.log"));
  });
  codes[0] = run_command(node_args(machines, home, 0, port, "4"), home.file("machine0.log"));
  one.join();
  return {codes[0], codes[1]};
}

// The ordinary host: no hosts file names the machine by its network address (here the host name
// is 127.0.0.1). Each machine binds Gloo to the address that routes to machine 0 and says so; the
// run trains, machine 0 records every rank, machine 1's database holds the run's row, and the
// losses equal one machine's 2 processes bitwise (the same sums, the same order).
TEST(CliMultiNode, TwoOrdinaryHostsTrainAsOneMachineDoesBitwise) {
  if (::geteuid() != 0) PARITY_SKIP_OR_FAIL() << "network namespaces need root";
  TwoMachines machines(/*hosts_files=*/false);
  if (!machines.ok())
    PARITY_SKIP_OR_FAIL() << "cannot create network namespaces and a veth pair here";
  TempDir home;
  const auto [code0, code1] = run_on_two_machines(machines, home);
  EXPECT_EQ(code0, 0) << read_file(home.file("machine0.log"));
  EXPECT_EQ(code1, 0) << read_file(home.file("machine1.log"));
  EXPECT_TRUE(contains(read_file(home.file("machine1.log")),
                       "this machine's ranks use " + machines.ip_of(1) +
                           ", the address that routes to " + machines.ip_of(0)))
      << read_file(home.file("machine1.log"));
  storage::Database db0(home.file("machine0.db"));
  const auto runs = db0.list_runs();
  ASSERT_EQ(runs.size(), 1u);
  EXPECT_EQ(runs[0].status, storage::RunStatus::kFinished) << runs[0].error;
  EXPECT_EQ(db0.steps(runs[0].id, 1).size(), 4u) << "rank 1's losses came over the wire";
  storage::Database db1(home.file("machine1.db"));
  const auto rows1 = db1.list_runs();
  ASSERT_EQ(rows1.size(), 1u) << "machine 1 records the run's row";
  EXPECT_EQ(rows1[0].status, storage::RunStatus::kFinished) << rows1[0].error;
  EXPECT_TRUE(db1.steps(rows1[0].id, -1).empty()) << "machine 0 records the steps";
  std::vector<std::string> local = {"run", "--db", home.file("one.db")};
  for (const auto& a : setup_args()) local.push_back(a);
  const CliResult one = run_cli(local, home.path());
  ASSERT_EQ(one.exit_code, 0) << one.err;
  const std::vector<double> two_machines = losses_of(home.file("machine0.db"));
  ASSERT_EQ(two_machines.size(), 4u);
  EXPECT_EQ(two_machines, losses_of(home.file("one.db")));
}

// Skips (fails under CI=true) without root; declares `machines`, two ordinary hosts.
// clang-format off
#define PARITY_NEED_TWO_MACHINES(machines)                                           \
  if (::geteuid() != 0) PARITY_SKIP_OR_FAIL() << "network namespaces need root";     \
  TwoMachines machines(/*hosts_files=*/false);                                       \
  if (!machines.ok())                                                                \
    PARITY_SKIP_OR_FAIL() << "cannot create network namespaces and a veth pair here"
// clang-format on

// A lost machine fails the run everywhere, promptly: machine 0's launcher is killed (kill -9)
// mid-run, its rank with it (and the store it hosts); machine 1's run ends failed within 10 s,
// saying machine 0 is gone, its rank stopped, no row left running (machine 0's is reconciled).
TEST(CliMultiNode, KillingMachineZerosLauncherFailsMachineOnesRunPromptly) {
  PARITY_NEED_TWO_MACHINES(machines);
  TempDir home;
  const std::string port = std::to_string(29400 + (::getpid() + 7) % 500);
  const pid_t zero =
      start_command(node_args(machines, home, 0, port, "1000000"), home.file("machine0.log"));
  const pid_t one =
      start_command(node_args(machines, home, 1, port, "1000000"), home.file("machine1.log"));
  const bool stepping = wait_stepping(home);
  ::kill(zero, SIGKILL);
  wait_cli(zero);
  const Ended ended = wait_end(one, std::chrono::steady_clock::now(), 60);
  ASSERT_TRUE(stepping) << read_file(home.file("machine0.log"));
  EXPECT_EQ(ended.code, 1) << "(-2: still running after 60 s) "
                           << read_file(home.file("machine1.log"));
  EXPECT_LT(ended.seconds, 10.0);
  const auto row = row_of(home, 1);
  EXPECT_EQ(row.status, storage::RunStatus::kFailed);
  EXPECT_EQ(row.error.rfind("machine 0 is gone: the store at " + machines.ip_of(0) + ":" + port +
                                " closed; rank 1 exited with code 3: parity-worker rank 1: "
                                "another rank is gone",
                            0),
            0u)
      << row.error;
  const auto row0 = row_of(home, 0);
  EXPECT_EQ(row0.status, storage::RunStatus::kFailed);
  EXPECT_TRUE(contains(row0.error, "the launcher exited unexpectedly")) << row0.error;
  expect_nothing_left(machines);
  std::cout << "[ info ] machine 1 failed " << ended.seconds << " s after machine 0's launcher "
            << "was killed: " << row.error << "\n";
}

// One machine's rank fails (machine 1's parity-worker killed with kill -9): machine 1's run fails
// with the rank and the signal, machine 0's within 10 s with the lost peer, neither blaming the
// other machine's store. Machine 1 names its interface (--network-interface) and says so.
TEST(CliMultiNode, KillingARankOfMachineOneFailsBothRunsPromptly) {
  PARITY_NEED_TWO_MACHINES(machines);
  TempDir home;
  const std::string port = std::to_string(29400 + (::getpid() + 19) % 500);
  const pid_t zero =
      start_command(node_args(machines, home, 0, port, "1000000"), home.file("machine0.log"));
  const pid_t one = start_command(node_args(machines, home, 1, port, "1000000", "20",
                                            {"--network-interface", machines.link(1)}),
                                  home.file("machine1.log"));
  const bool stepping = wait_stepping(home);
  const pid_t rank1 = worker_in(machines.name(1));
  if (rank1 > 0) ::kill(rank1, SIGKILL);
  const auto killed_at = std::chrono::steady_clock::now();
  const Ended ended[2] = {wait_end(zero, killed_at, 60), wait_end(one, killed_at, 60)};
  ASSERT_TRUE(stepping) << read_file(home.file("machine0.log"));
  ASSERT_GT(rank1, 0) << "no parity-worker in machine 1's namespace";
  EXPECT_TRUE(contains(read_file(home.file("machine1.log")),
                       "this machine's ranks use " + machines.ip_of(1) + " on interface " +
                           machines.link(1) + " (--network-interface)"))
      << read_file(home.file("machine1.log"));
  for (int m = 0; m < 2; ++m) {
    EXPECT_EQ(ended[m].code, 1) << "machine " << m << " (-2: still running after 60 s): "
                                << read_file(home.file("machine" + std::to_string(m) + ".log"));
    EXPECT_LT(ended[m].seconds, 10.0) << "machine " << m;
  }
  const auto row0 = row_of(home, 0), row1 = row_of(home, 1);
  EXPECT_EQ(row0.status, storage::RunStatus::kFailed);
  EXPECT_EQ(
      row0.error.rfind("rank 0 exited with code 3: parity-worker rank 0: another rank is gone", 0),
      0u)
      << row0.error;
  EXPECT_EQ(row1.status, storage::RunStatus::kFailed);
  EXPECT_EQ(row1.error, "rank 1 was killed by signal 9 (SIGKILL)");
  expect_nothing_left(machines);
  std::cout << "[ info ] machine 0 failed " << ended[0].seconds << " s after machine 1's rank was "
            << "killed: " << row0.error << "\n";
}

// The network between the machines goes down mid-run (the veth link set down): nothing closes,
// every collective waits; each machine's run ends failed once its ranks made no progress for the
// hang timeout (5 s here), machine 1 saying that machine 0 cannot be reached, its ranks stopped,
// no row left running.
TEST(CliMultiNode, ALostNetworkFailsBothMachinesRunsWithinTheHangTimeout) {
  PARITY_NEED_TWO_MACHINES(machines);
  TempDir home;
  const std::string port = std::to_string(29400 + (::getpid() + 13) % 500);
  pid_t pids[2];
  for (int m = 0; m < 2; ++m) {
    pids[m] = start_command(node_args(machines, home, m, port, "1000000", "5"),
                            home.file("machine" + std::to_string(m) + ".log"));
  }
  const bool stepping = wait_stepping(home);
  const bool cut = stepping && machines.cut(0);
  const auto cut_at = std::chrono::steady_clock::now();
  const Ended ended[2] = {wait_end(pids[0], cut_at, 60), wait_end(pids[1], cut_at, 60)};
  ASSERT_TRUE(stepping) << read_file(home.file("machine0.log"));
  ASSERT_TRUE(cut);
  for (int m = 0; m < 2; ++m) {
    EXPECT_EQ(ended[m].code, 1) << "machine " << m << " (-2: still running after 60 s): "
                                << read_file(home.file("machine" + std::to_string(m) + ".log"));
    EXPECT_GE(ended[m].seconds, 5.0) << "machine " << m << " failed before the hang timeout";
    EXPECT_LT(ended[m].seconds, 15.0) << "machine " << m;
    const auto row = row_of(home, m);
    EXPECT_EQ(row.status, storage::RunStatus::kFailed) << "machine " << m;
    EXPECT_TRUE(contains(row.error, "made no progress for 5 s")) << row.error;
    if (m == 1) {
      EXPECT_EQ(row.error.rfind("machine 0 cannot be reached: the store at " + machines.ip_of(0) +
                                    ":" + port + " ",
                                0),
                0u)
          << row.error;
    }
    std::cout << "[ info ] machine " << m << " failed " << ended[m].seconds
              << " s after the network went down: " << row.error << "\n";
  }
  expect_nothing_left(machines);
}

// The hosts-file set-up (each namespace's /etc/hosts names the host by its veth address): the
// same 2x1 run, recorded by machine 0 with both ranks.
TEST(CliMultiNode, TwoMachinesOverAVethPairTrainOneRunRecordedByMachineZero) {
  if (::geteuid() != 0) PARITY_SKIP_OR_FAIL() << "network namespaces need root";
  TwoMachines machines(/*hosts_files=*/true);
  if (!machines.ok())
    PARITY_SKIP_OR_FAIL() << "cannot create network namespaces and a veth pair here";
  TempDir home;
  const auto [code0, code1] = run_on_two_machines(machines, home);
  EXPECT_EQ(code0, 0) << read_file(home.file("machine0.log"));
  EXPECT_EQ(code1, 0) << read_file(home.file("machine1.log"));
  storage::Database db(home.file("machine0.db"));
  const auto runs = db.list_runs();
  ASSERT_EQ(runs.size(), 1u);
  EXPECT_EQ(runs[0].status, storage::RunStatus::kFinished) << runs[0].error;
  EXPECT_EQ(runs[0].steps_done, 4);
  EXPECT_EQ(db.ranks(runs[0].id), (std::vector<int>{-1, 0, 1}));
  EXPECT_EQ(db.steps(runs[0].id, 1).size(), 4u) << "rank 1 ran on machine 1";
  EXPECT_EQ(config::from_json(runs[0].config_json).num_processes, 2);
}

// An interface that is not there is refused before anything is written, naming the flag and the
// interfaces there are (Gloo would fail in the rank, after the row). No root needed.
TEST(CliMultiNode, AnInterfaceThatIsNotThereIsRefusedBeforeTheDatabase) {
  TempDir home;
  std::vector<std::string> args = {"run",
                                   "--db",
                                   home.file("m.db"),
                                   "--num-machines",
                                   "2",
                                   "--machine-rank",
                                   "1",
                                   "--main-process-ip",
                                   "127.0.0.1",
                                   "--network-interface",
                                   "nosuch0"};
  for (const auto& a : setup_args()) args.push_back(a);
  const CliResult r = run_cli(args, home.path());
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_TRUE(contains(r.err,
                       "--network-interface nosuch0: no network interface nosuch0 on this "
                       "machine (it has "))
      << r.err;
  EXPECT_FALSE(fs::exists(home.file("m.db")));
}

}  // namespace
}  // namespace parity::cli::testing
