// The real thing: parity-worker ranks as OS processes through the launcher, Gloo over a FileStore.

#include <gtest/gtest.h>
#include <parity/launch/rank_supervisor.h>
#include <signal.h>
#include <sys/types.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "dist_test_util.h"

namespace parity::train {
namespace {

// Worker processes that are children of this test process, by rank.
std::vector<std::pair<pid_t, int>> worker_children() {
  std::vector<std::pair<pid_t, int>> out;
  for (const auto& entry : std::filesystem::directory_iterator("/proc")) {
    const std::string name = entry.path().filename();
    if (name.find_first_not_of("0123456789") != std::string::npos) continue;
    std::ifstream stat(entry.path() / "stat");
    std::string line;
    std::getline(stat, line);
    auto close = line.rfind(')');
    if (close == std::string::npos) continue;
    std::istringstream rest(line.substr(close + 2));
    char state;
    pid_t ppid;
    rest >> state >> ppid;
    if (ppid != getpid() || state == 'Z') continue;
    std::ifstream environ(entry.path() / "environ");
    std::string env((std::istreambuf_iterator<char>(environ)), {});
    auto at = env.find(std::string("\0RANK=", 6));
    if (at == std::string::npos) continue;
    out.emplace_back(static_cast<pid_t>(std::stoi(name)), std::atoi(env.c_str() + at + 6));
  }
  return out;
}

class KillingSink : public testing::VectorSink {
 public:
  int kill_rank = -1;
  int64_t at_step = 0;
  void on_step(const launch::StepRecord& r) override {
    VectorSink::on_step(r);
    if (kill_rank >= 0 && r.step == at_step) {
      for (auto [pid, rank] : worker_children())
        if (rank == kill_rank) ::kill(pid, SIGKILL);
    }
  }
};

launch::LaunchOptions options() {
  launch::LaunchOptions o;
  o.worker_path = PARITY_WORKER_PATH;
  o.threads_per_rank = 1;
  o.hang_timeout_s = 60;
  return o;
}

TEST(LaunchWithRealWorkers, TwoGlooRanksFinishAndReportEveryStep) {
  config::RunConfig c = testing::regression_config(2, 8);
  KillingSink sink;
  auto result = launch::RankSupervisor(c, options()).run(sink);
  ASSERT_EQ(result.outcome, launch::RunOutcome::kFinished) << result.message;
  ASSERT_EQ(sink.steps.size(), 32u);
  EXPECT_EQ(sink.start.total_steps, 32);
  for (size_t i = 0; i < sink.steps.size(); ++i) {
    EXPECT_EQ(sink.steps[i].step, static_cast<int64_t>(i + 1));
    EXPECT_EQ(sink.steps[i].rank_losses.size(), 2u);
  }
  EXPECT_EQ(sink.evals.size(), 2u);
  EXPECT_EQ(sink.end.outcome, launch::RunOutcome::kFinished);
  EXPECT_TRUE(worker_children().empty());
  // The processes computed what threads compute: the engine is the same either way.
  auto threaded = testing::train_threaded(c);
  ASSERT_EQ(threaded.sink.steps.size(), sink.steps.size());
  for (size_t i = 0; i < sink.steps.size(); ++i) {
    EXPECT_DOUBLE_EQ(sink.steps[i].loss, threaded.sink.steps[i].loss) << "step " << i + 1;
  }
}

TEST(LaunchWithRealWorkers, AKilledRankFailsTheRunAndStopsTheOthers) {
  config::RunConfig c = testing::regression_config(2, 1);
  c.synthetic_samples = 20000;  // long enough to be killed mid-run
  c.epochs = 1;
  KillingSink sink;
  sink.kill_rank = 1;
  sink.at_step = 5;
  auto result = launch::RankSupervisor(c, options()).run(sink);
  EXPECT_EQ(result.outcome, launch::RunOutcome::kFailed);
  EXPECT_EQ(result.failed_rank, 1);
  EXPECT_NE(result.message.find("rank 1"), std::string::npos) << result.message;
  EXPECT_NE(result.message.find("signal 9"), std::string::npos) << result.message;
  EXPECT_GE(sink.steps.size(), 5u);
  EXPECT_LT(sink.steps.size(), 10000u);
  EXPECT_TRUE(worker_children().empty());
}

TEST(LaunchWithRealWorkers, ABadDatasetPathFailsWithTheWorkersMessage) {
  config::RunConfig c;
  c.num_processes = 2;
  c.data_path = "/nonexistent/fashion";
  c.per_device_batch_size = 8;
  testing::VectorSink sink;
  auto result = launch::RankSupervisor(c, options()).run(sink);
  EXPECT_EQ(result.outcome, launch::RunOutcome::kFailed);
  EXPECT_NE(result.message.find("dataset-fashion-mnist"), std::string::npos) << result.message;
}

}  // namespace
}  // namespace parity::train
