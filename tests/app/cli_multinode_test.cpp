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

// Runs args; its output goes to `log` (or nowhere).
int run_command(const std::vector<std::string>& args, const std::string& log = "/dev/null") {
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
  return wait_cli(pid);
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

 private:
  static bool ip(std::vector<std::string> args) {
    args.insert(args.begin(), "ip");
    return run_command(args) == 0;
  }
  std::vector<std::string> names_, ips_;
  bool ok_ = false;
};

// One run's per-step losses, rank -1.
std::vector<double> losses_of(const std::string& db_path) {
  storage::Database db(db_path);
  std::vector<double> out;
  for (const auto& s : db.steps(db.list_runs().at(0).id, -1)) out.push_back(s.loss);
  return out;
}

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

// The two-machine run of one setup: machine m's `parity-cli run` inside its namespace, its
// output in home/machine<m>.log. Returns both exit codes.
std::pair<int, int> run_on_two_machines(const TwoMachines& machines, const TempDir& home) {
  const std::string port = std::to_string(29400 + ::getpid() % 500);
  auto node = [&](int m) {
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
                                     "60"};
    for (const auto& a : setup_args()) args.push_back(a);
    return args;
  };
  int codes[2] = {-1, -1};
  std::thread one([&] { codes[1] = run_command(node(1), home.file("machine1.log")); });
  codes[0] = run_command(node(0), home.file("machine0.log"));
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
