// Multi-node as Accelerate does it, for real: two "machines" are two network namespaces joined by a
// veth pair; each runs `parity-cli run --num-machines 2 --machine-rank R --main-process-ip ...`
// with one real parity-worker rank (--num-processes 2 is the total). The ranks rendezvous over a
// TCPStore on machine 0 and all-reduce through Gloo across the veth, so machine 0's database holds
// rank 1's losses, which only came over the wire. Needs root (network namespaces); skips with a
// message elsewhere.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <parity/test_support/ci_skip.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <climits>
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
                                   const std::string& hang_timeout = "20") {
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
  return args;
}

// One run's per-step losses, rank -1.
std::vector<double> losses_of(const std::string& db_path) {
  storage::Database db(db_path);
  std::vector<double> out;
  for (const auto& s : db.steps(db.list_runs().at(0).id, -1)) out.push_back(s.loss);
  return out;
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

// A lost machine fails the run everywhere, promptly: machine 0's launcher is killed (kill -9)
// mid-run; machine 1's run ends failed with the reason, its rank gone, no row left running.
TEST(CliMultiNode, KillingMachineZerosLauncherFailsMachineOnesRunPromptly) {
  if (::geteuid() != 0) PARITY_SKIP_OR_FAIL() << "network namespaces need root";
  TwoMachines machines(/*hosts_files=*/false);
  if (!machines.ok())
    PARITY_SKIP_OR_FAIL() << "cannot create network namespaces and a veth pair here";
  TempDir home;
  const std::string port = std::to_string(29400 + (::getpid() + 7) % 500);
  const pid_t zero =
      start_command(node_args(machines, home, 0, port, "1000000"), home.file("machine0.log"));
  const pid_t one =
      start_command(node_args(machines, home, 1, port, "1000000"), home.file("machine1.log"));
  bool stepping = false;
  for (int i = 0; i < 600 && !stepping; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    stepping = fs::exists(home.file("machine0.db")) &&
               storage::Database(home.file("machine0.db"), storage::OpenMode::kReadOnly)
                       .list_runs()
                       .at(0)
                       .steps_done >= 5;
  }
  ::kill(zero, SIGKILL);
  wait_cli(zero);
  ASSERT_TRUE(stepping) << read_file(home.file("machine0.log"));
  const auto killed_at = std::chrono::steady_clock::now();
  int code = 0;
  bool ended = false;
  while (!ended && std::chrono::steady_clock::now() - killed_at < std::chrono::seconds(60)) {
    int status = 0;
    ended = ::waitpid(one, &status, WNOHANG) == one;
    if (ended)
      code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    else
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - killed_at).count();
  if (!ended) {
    ::kill(one, SIGKILL);
    wait_cli(one);
  }
  ASSERT_TRUE(ended) << "machine 1 still ran 60 s after machine 0 was lost";
  EXPECT_EQ(code, 1) << read_file(home.file("machine1.log"));
  storage::Database db1(home.file("machine1.db"));
  const auto row = db1.list_runs().at(0);
  EXPECT_EQ(row.status, storage::RunStatus::kFailed);
  EXPECT_TRUE(contains(row.error, "another rank is gone")) << row.error;
  std::cout << "[ info ] machine 1 failed " << seconds << " s after machine 0's launcher was "
            << "killed: " << row.error << "\n";
}

// The network between the machines goes down mid-run (the veth link set down): nothing closes,
// every collective waits; each machine's run ends failed once its ranks made no progress for the
// hang timeout (5 s here), its ranks stopped, no row left running.
TEST(CliMultiNode, ALostNetworkFailsBothMachinesRunsWithinTheHangTimeout) {
  if (::geteuid() != 0) PARITY_SKIP_OR_FAIL() << "network namespaces need root";
  TwoMachines machines(/*hosts_files=*/false);
  if (!machines.ok())
    PARITY_SKIP_OR_FAIL() << "cannot create network namespaces and a veth pair here";
  TempDir home;
  const std::string port = std::to_string(29400 + (::getpid() + 13) % 500);
  pid_t pids[2];
  for (int m = 0; m < 2; ++m) {
    pids[m] = start_command(node_args(machines, home, m, port, "1000000", "5"),
                            home.file("machine" + std::to_string(m) + ".log"));
  }
  bool stepping = false;
  for (int i = 0; i < 600 && !stepping; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    stepping = fs::exists(home.file("machine0.db")) &&
               storage::Database(home.file("machine0.db"), storage::OpenMode::kReadOnly)
                       .list_runs()
                       .at(0)
                       .steps_done >= 5;
  }
  const bool cut = stepping && machines.cut(0);
  const auto cut_at = std::chrono::steady_clock::now();
  int codes[2] = {-2, -2};
  double seconds[2] = {0, 0};
  for (int m = 0; m < 2; ++m) {
    while (codes[m] == -2 && std::chrono::steady_clock::now() - cut_at < std::chrono::seconds(60)) {
      int status = 0;
      if (::waitpid(pids[m], &status, WNOHANG) == pids[m]) {
        codes[m] = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
        seconds[m] =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - cut_at).count();
      } else {
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
      }
    }
    if (codes[m] == -2) {
      ::kill(pids[m], SIGKILL);
      wait_cli(pids[m]);
    }
  }
  ASSERT_TRUE(stepping) << read_file(home.file("machine0.log"));
  ASSERT_TRUE(cut);
  for (int m = 0; m < 2; ++m) {
    EXPECT_EQ(codes[m], 1) << "machine " << m << " (-2: still running after 60 s): "
                           << read_file(home.file("machine" + std::to_string(m) + ".log"));
    storage::Database db(home.file("machine" + std::to_string(m) + ".db"));
    const auto row = db.list_runs().at(0);
    EXPECT_EQ(row.status, storage::RunStatus::kFailed) << "machine " << m;
    std::cout << "[ info ] machine " << m << " failed " << seconds[m]
              << " s after the network went down: " << row.error << "\n";
  }
}

TEST(CliMultiNode, TwoMachinesOverAVethPairTrainOneRunRecordedByMachineZero) {
  if (::geteuid() != 0) PARITY_SKIP_OR_FAIL() << "network namespaces need root";
  TwoMachines machines(/*hosts_files=*/true);
  if (!machines.ok())
    PARITY_SKIP_OR_FAIL() << "cannot create network namespaces and a veth pair here";
  TempDir home;
  const std::string port = std::to_string(29400 + ::getpid() % 500);
  auto node = [&](int m) {
    return std::vector<std::string>{"ip",
                                    "netns",
                                    "exec",
                                    machines.name(m),
                                    PARITY_CLI,
                                    "run",
                                    "--db",
                                    home.file("machine" + std::to_string(m) + ".db"),
                                    "--worker",
                                    PARITY_WORKER,
                                    "--dataset",
                                    "synthetic-regression",
                                    "--model",
                                    "linear",
                                    "--init",
                                    "zeros",
                                    "--num-processes",
                                    "2",
                                    "--num-machines",
                                    "2",
                                    "--machine-rank",
                                    std::to_string(m),
                                    "--main-process-ip",
                                    machines.ip_of(0),
                                    "--main-process-port",
                                    port,
                                    "--per-device-batch-size",
                                    "8",
                                    "--max-steps",
                                    "4",
                                    "--synthetic-samples",
                                    "64",
                                    "--hang-timeout",
                                    "60",
                                    "--quiet"};
  };
  int codes[2] = {-1, -1};
  std::thread one([&] { codes[1] = run_command(node(1)); });
  codes[0] = run_command(node(0));
  one.join();
  EXPECT_EQ(codes[0], 0);
  EXPECT_EQ(codes[1], 0);
  storage::Database db(home.file("machine0.db"));
  const auto runs = db.list_runs();
  ASSERT_EQ(runs.size(), 1u);
  EXPECT_EQ(runs[0].status, storage::RunStatus::kFinished) << runs[0].error;
  EXPECT_EQ(runs[0].steps_done, 4);
  EXPECT_EQ(db.ranks(runs[0].id), (std::vector<int>{-1, 0, 1}));
  EXPECT_EQ(db.steps(runs[0].id, 1).size(), 4u) << "rank 1 ran on machine 1";
  EXPECT_EQ(config::from_json(runs[0].config_json).num_processes, 2);
}

}  // namespace
}  // namespace parity::cli::testing
