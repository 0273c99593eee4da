// A machine other than machine 0 whose rank lost a peer asks machine 0's store why: refused is
// "machine 0 is gone", silence is "cannot be reached", an answer adds nothing (another machine is
// gone). Here on loopback with the fake worker; the two-namespace tests do it across a veth pair.
#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <parity/launch/rank_supervisor.h>
#include <parity/launch/store_probe.h>
#include <parity/launch/worker_contract.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <string>
#include <vector>

namespace parity::launch {
namespace {

class NullSink : public StepSink {
 public:
  void on_start(const RunStart&) override {}
  void on_step(const StepRecord&) override {}
  void on_eval(const EvalRecord&) override {}
  void on_end(const RunEnd&) override {}
};

/// A TCP socket listening on 127.0.0.1 (a stand-in for machine 0's store), closed on
/// destruction.
class Listener {
 public:
  explicit Listener(int backlog = 4) {
    fd_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof addr;
    const bool ok = ::bind(fd_, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0 &&
                    ::listen(fd_, backlog) == 0 &&
                    ::getsockname(fd_, reinterpret_cast<sockaddr*>(&addr), &len) == 0;
    port_ = ok ? ntohs(addr.sin_port) : -1;
  }
  ~Listener() { ::close(fd_); }
  int port() const { return port_; }

 private:
  int fd_ = -1;
  int port_ = -1;
};

// Machine 1 of 2 (rank 1 of 2) running the fake worker in `mode`, machine 0 at addr:port.
LaunchResult run_machine_one(const std::string& mode, const std::string& addr, int port) {
  config::RunConfig c;
  c.label = mode;
  c.dataset = config::DatasetKind::kSyntheticRegression;
  c.task = config::Task::kRegression;
  c.model = config::ModelKind::kLinear;
  c.num_processes = 2;
  c.per_device_batch_size = 8;
  c.max_steps = 5;
  LaunchOptions o;
  o.worker_path = PARITY_FAKE_WORKER;
  o.hang_timeout_s = 30;
  o.term_grace_s = 1;
  o.nnodes = 2;
  o.node_rank = 1;
  o.master_addr = addr;
  o.master_port = port;
  NullSink sink;
  return RankSupervisor(c, o).run(sink);
}

const std::string kRankText = "rank 1 exited with code 3: fake-worker: another rank is gone";

TEST(StoreProbe, AClosedStoreIsMachineZeroGone) {
  const int port = free_port();  // nothing listens there any more
  EXPECT_EQ(main_machine_gone("127.0.0.1", port),
            "machine 0 is gone: the store at 127.0.0.1:" + std::to_string(port) + " closed");
  const LaunchResult r = run_machine_one("peergone", "127.0.0.1", port);
  EXPECT_EQ(r.outcome, RunOutcome::kFailed);
  EXPECT_EQ(r.message, "machine 0 is gone: the store at 127.0.0.1:" + std::to_string(port) +
                           " closed; " + kRankText);
}

TEST(StoreProbe, AStoreThatAnswersAddsNothing) {
  Listener store;
  ASSERT_GT(store.port(), 0);
  EXPECT_EQ(main_machine_gone("127.0.0.1", store.port()), std::nullopt);
  const LaunchResult r = run_machine_one("peergone", "127.0.0.1", store.port());
  EXPECT_EQ(r.outcome, RunOutcome::kFailed);
  EXPECT_EQ(r.message, kRankText) << "machine 0 is there: another machine is gone";
}

// A rank that failed on its own (killed here) is this machine's failure: machine 0 is not asked,
// though nothing listens where its store was.
TEST(StoreProbe, ARankFailingOnItsOwnIsNotBlamedOnMachineZero) {
  const LaunchResult r = run_machine_one("sigkill", "127.0.0.1", free_port());
  EXPECT_EQ(r.outcome, RunOutcome::kFailed);
  EXPECT_EQ(r.message, "rank 1 was killed by signal 9 (SIGKILL)");
}

// A store that does not answer (a listener whose accept queue is full drops new SYNs, as a link
// that is down would): silence, bounded by the timeout.
TEST(StoreProbe, SilenceIsMachineZeroCannotBeReached) {
  Listener store(/*backlog=*/0);
  ASSERT_GT(store.port(), 0);
  std::vector<int> fillers;
  for (int i = 0; i < 4; ++i) {  // never accepted: the queue fills
    fillers.push_back(::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0));
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    addr.sin_port = htons(static_cast<uint16_t>(store.port()));
    ::connect(fillers.back(), reinterpret_cast<sockaddr*>(&addr), sizeof addr);
  }
  const auto start = std::chrono::steady_clock::now();
  const auto why = main_machine_gone("127.0.0.1", store.port(), 0.5);
  const double took =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  for (int fd : fillers) ::close(fd);
  ASSERT_TRUE(why.has_value());
  EXPECT_EQ(*why,
            "machine 0 cannot be reached: the store at 127.0.0.1:" + std::to_string(store.port()) +
                " did not answer within 0.5 s (the network between the machines is down?)");
  EXPECT_GE(took, 0.45);
  EXPECT_LT(took, 5.0);
}

}  // namespace
}  // namespace parity::launch
