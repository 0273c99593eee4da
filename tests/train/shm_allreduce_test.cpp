// The shared-memory allreduce (shm_allreduce.h) with real processes (fork) and threads over a real
// segment: exact sums in rank order, a killed peer, a timeout, segments that do not collide and
// are gone afterwards; then a real two-process run whose losses equal Gloo's bit for bit.

#include <gtest/gtest.h>
#include <parity/launch/rank_supervisor.h>
#include <parity/launch/worker_contract.h>
#include <parity/test_support/temp_dir.h>
#include <parity/train/shm_allreduce.h>
#include <parity/train/train_error.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <thread>

#include "dist_test_util.h"

namespace parity::train {
namespace {

using Clock = std::chrono::steady_clock;

// Rank r's element i: magnitudes from 1e-3 to 1e3 and both signs, so the order of a sum shows.
float value(int r, int64_t i, uint32_t salt = 0) {
  uint32_t h =
      static_cast<uint32_t>(i) * 2654435761u ^ static_cast<uint32_t>(r + 1) * 40503u ^ salt;
  h ^= h >> 15;
  h *= 2246822519u;
  h ^= h >> 13;
  const float unit = static_cast<float>(h % 20001) / 10000.0f - 1.0f;
  static const float kScales[] = {1e-3f, 1e-2f, 1e-1f, 1.0f, 1e1f, 1e2f, 1e3f};
  return unit * kScales[(h >> 20) % 7];
}

// What every rank must get: the sum over ranks 0..W-1 in that order, in fp32.
std::vector<float> reference(int world, int64_t n, uint32_t salt = 0) {
  std::vector<float> out(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) {
    float acc = value(0, i, salt);
    for (int r = 1; r < world; ++r) acc += value(r, i, salt);
    out[static_cast<size_t>(i)] = acc;
  }
  return out;
}

std::string segment_path(const test_support::TempDir& dir, const std::string& name = "segment") {
  return dir.file(name);
}

// One rank in a forked child: every size summed (and one broadcast) and checked bit for bit.
// Exit status 0 when all matched, 1 on a mismatch, 2 on an exception.
[[noreturn]] void rank_process(const std::string& path, int rank, int world,
                               const std::vector<int64_t>& sizes) {
  int status = 0;
  try {
    ShmAllreduceOptions options;
    options.timeout_s = 60;
    ShmAllreduce shm(path, rank, world, options);
    for (const int64_t n : sizes) {
      std::vector<float> data(static_cast<size_t>(n));
      for (int64_t i = 0; i < n; ++i) data[static_cast<size_t>(i)] = value(rank, i);
      shm.allreduce_sum(data.data(), n);
      const auto want = reference(world, n);
      if (std::memcmp(data.data(), want.data(), want.size() * sizeof(float)) != 0) status = 1;
      std::vector<float> b(static_cast<size_t>(n), static_cast<float>(rank));
      shm.broadcast(b.data(), n, world - 1);
      for (float x : b)
        if (x != static_cast<float>(world - 1)) status = 1;
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "rank %d: %s\n", rank, e.what());
    status = 2;
  }
  ::_exit(status);
}

std::vector<pid_t> fork_ranks(int world, const std::function<void(int)>& body) {
  std::vector<pid_t> pids;
  for (int r = 0; r < world; ++r) {
    const pid_t pid = ::fork();
    if (pid == 0) body(r);  // never returns
    pids.push_back(pid);
  }
  return pids;
}

// Waits for pid up to `limit`, then kills it: its exit status, or -1 when it had to be killed.
int wait_bounded(pid_t pid, std::chrono::seconds limit) {
  const auto deadline = Clock::now() + limit;
  int status = 0;
  while (::waitpid(pid, &status, WNOHANG) == 0) {
    if (Clock::now() > deadline) {
      ::kill(pid, SIGKILL);
      ::waitpid(pid, &status, 0);
      return -1;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

TEST(ShmAllreduce, SumsEqualTheRankOrderSumBitwiseAcrossProcesses) {
  // 1, odd, 4 KB, 1 MB (one default chunk), 25 MB + 1 float (26 chunks, a short last one).
  const std::vector<int64_t> sizes = {1, 1001, 1024, 262144, (int64_t{25} << 18) + 1};
  for (const int world : {2, 3, 4}) {
    test_support::TempDir dir;
    const auto path = segment_path(dir);
    const auto pids = fork_ranks(world, [&](int r) { rank_process(path, r, world, sizes); });
    for (int r = 0; r < world; ++r) {
      EXPECT_EQ(wait_bounded(pids[static_cast<size_t>(r)], std::chrono::seconds(120)), 0)
          << "W=" << world << " rank " << r;
    }
    EXPECT_FALSE(std::filesystem::exists(path)) << "the segment is left behind";
    EXPECT_TRUE(std::filesystem::is_empty(dir.path()));
  }
}

TEST(ShmAllreduce, AKilledPeerFailsTheOthersPromptlyInsteadOfHanging) {
  test_support::TempDir dir;
  const auto path = segment_path(dir);
  const int world = 3;
  // Each rank says on a pipe that its first sum is done, so the kill lands mid-collective.
  int summing[2];
  ASSERT_EQ(::pipe(summing), 0);
  // Ranks sum forever; a peer-gone error exits 42, anything else 2.
  const auto pids = fork_ranks(world, [&](int r) {
    ::close(summing[0]);
    int status = 2;
    try {
      ShmAllreduceOptions options;
      options.timeout_s = 60;  // the peer check, not the timeout, must end this
      ShmAllreduce shm(path, r, world, options);
      std::vector<float> data(4096, 1.0f);
      shm.allreduce_sum(data.data(), static_cast<int64_t>(data.size()));
      const char one = 1;
      if (::write(summing[1], &one, 1) != 1) ::_exit(3);
      ::close(summing[1]);
      for (;;) shm.allreduce_sum(data.data(), static_cast<int64_t>(data.size()));
    } catch (const TrainError& e) {
      const std::string what = e.what();
      if (what.find("is gone") != std::string::npos ||
          what.find("left the collective") != std::string::npos ||
          what.find("another rank failed") != std::string::npos) {
        status = 42;
      }
      std::fprintf(stderr, "rank %d: %s\n", r, e.what());
    }
    ::_exit(status);
  });
  ::close(summing[1]);
  int started = 0;
  for (char c; started < world;) {
    pollfd fd{summing[0], POLLIN, 0};
    if (::poll(&fd, 1, 60'000) <= 0 || ::read(summing[0], &c, 1) != 1) break;
    ++started;
  }
  ::close(summing[0]);
  if (started < world) {
    for (const pid_t p : pids) ::kill(p, SIGKILL);
    for (const pid_t p : pids) ::waitpid(p, nullptr, 0);
    FAIL() << "only " << started << " of " << world << " ranks finished a first sum in 60 s";
  }
  ::kill(pids[1], SIGKILL);
  const auto killed_at = Clock::now();
  int status = 0;
  ::waitpid(pids[1], &status, 0);
  for (const int r : {0, 2}) {
    EXPECT_EQ(wait_bounded(pids[static_cast<size_t>(r)], std::chrono::seconds(20)), 42)
        << "rank " << r;
  }
  // Promptly: the peer check, not the 60 s timeout (bounded for a busy 2-core machine).
  EXPECT_LT(Clock::now() - killed_at, std::chrono::seconds(20));
}

TEST(ShmAllreduce, APeerThatNeverComesTimesOutWithAClearError) {
  test_support::TempDir dir;
  const auto path = segment_path(dir);
  ShmAllreduceOptions options;
  options.timeout_s = 0.5;
  std::unique_ptr<ShmAllreduce> idle;
  std::thread other([&] { idle = std::make_unique<ShmAllreduce>(path, 1, 2, options); });
  ShmAllreduce shm(path, 0, 2, options);
  other.join();
  float x = 1;
  const auto start = Clock::now();
  try {
    shm.allreduce_sum(&x, 1);
    FAIL() << "no timeout";
  } catch (const TrainError& e) {
    EXPECT_NE(std::string(e.what()).find("timed out after"), std::string::npos) << e.what();
  }
  // 0.5 s of timeout: far under this bound however busy the machine, far under a hang.
  EXPECT_LT(Clock::now() - start, std::chrono::seconds(15));
}

TEST(ShmAllreduce, TwoRunsSegmentsDoNotCollideAndAreRemoved) {
  test_support::TempDir dir;
  // Two groups at once, same folder, different segments and different data.
  std::vector<std::string> errors(4);
  std::vector<std::thread> threads;
  const int64_t n = 100003;
  for (int g = 0; g < 2; ++g) {
    for (int r = 0; r < 2; ++r) {
      threads.emplace_back([&, g, r] {
        try {
          ShmAllreduceOptions options;
          options.timeout_s = 30;
          options.chunk_floats = 4096;  // many chunks
          ShmAllreduce shm(dir.file("run" + std::to_string(g)), r, 2, options);
          std::vector<float> data(static_cast<size_t>(n));
          for (int64_t i = 0; i < n; ++i) data[static_cast<size_t>(i)] = value(r, i, 77u * g);
          for (int k = 0; k < 20; ++k) {
            auto copy = data;
            shm.allreduce_sum(copy.data(), n);
            if (copy != reference(2, n, 77u * g)) errors[static_cast<size_t>(2 * g + r)] = "sum";
          }
        } catch (const std::exception& e) {
          errors[static_cast<size_t>(2 * g + r)] = e.what();
        }
      });
    }
  }
  for (auto& t : threads) t.join();
  for (const auto& e : errors) EXPECT_EQ(e, "");
  EXPECT_TRUE(std::filesystem::is_empty(dir.path()));
}

TEST(ShmAllreduce, ALeftoverSegmentIsNeverReused) {
  test_support::TempDir dir;
  const auto path = segment_path(dir);
  { std::ofstream(path) << "stale"; }
  ShmAllreduceOptions options;
  options.timeout_s = 1;
  try {
    ShmAllreduce shm(path, 0, 2, options);
    FAIL() << "a stale segment was reused";
  } catch (const TrainError& e) {
    EXPECT_NE(std::string(e.what()).find("cannot publish"), std::string::npos) << e.what();
  }
  EXPECT_EQ(std::distance(std::filesystem::directory_iterator(dir.path()), {}), 1);
}

// The ranks' segments in /dev/shm (the folder the trainer uses).
std::vector<std::string> parity_segments() {
  std::vector<std::string> out;
  std::error_code ec;
  for (const auto& e : std::filesystem::directory_iterator("/dev/shm", ec)) {
    if (e.path().filename().string().rfind("parity-allreduce-", 0) == 0) out.push_back(e.path());
  }
  return out;
}

launch::LaunchResult launch_workers(const config::RunConfig& c, const char* transport,
                                    testing::VectorSink& sink) {
  ::setenv(launch::kEnvTransport, transport, 1);
  launch::LaunchOptions o;
  o.worker_path = PARITY_WORKER_PATH;
  o.threads_per_rank = 1;
  o.hang_timeout_s = 60;
  auto result = launch::RankSupervisor(c, o).run(sink);
  ::unsetenv(launch::kEnvTransport);
  return result;
}

std::vector<launch::StepRecord> run_workers(const config::RunConfig& c, const char* transport) {
  testing::VectorSink sink;
  const auto result = launch_workers(c, transport, sink);
  EXPECT_EQ(result.outcome, launch::RunOutcome::kFinished) << transport << ": " << result.message;
  return sink.steps;
}

config::RunConfig mlp_config(int num_processes) {
  config::RunConfig c = testing::regression_config(num_processes, 8);
  c.model = config::ModelKind::kMlp;
  c.hidden = {64, 32};
  c.init = config::Init::kDefault;
  return c;
}

TEST(ShmTransport, ATwoProcessRunHasGloosLossesBitForBit) {
  const auto before = parity_segments();
  const auto c = mlp_config(2);
  const auto gloo = run_workers(c, "gloo");
  const auto shm = run_workers(c, "shm");
  ASSERT_EQ(gloo.size(), 32u);
  ASSERT_EQ(shm.size(), gloo.size());
  for (size_t i = 0; i < gloo.size(); ++i) {
    EXPECT_EQ(shm[i].loss, gloo[i].loss) << "step " << i + 1;
    EXPECT_EQ(shm[i].rank_losses, gloo[i].rank_losses) << "step " << i + 1;
  }
  // Another test's run (ctest -j) may end meanwhile and take its own segment with it: what counts
  // is that no segment is left that was not there before.
  for (const auto& segment : parity_segments()) {
    EXPECT_NE(std::find(before.begin(), before.end(), segment), before.end())
        << segment << ": a run left its segment in /dev/shm";
  }
}

TEST(ShmTransport, TheWorkersReadTheTransportFromTheEnvironment) {
  testing::VectorSink sink;
  const auto result = launch_workers(mlp_config(2), "carrier-pigeon", sink);
  EXPECT_EQ(result.outcome, launch::RunOutcome::kFailed);
  EXPECT_NE(result.message.find("PARITY_TRANSPORT='carrier-pigeon' is not gloo or shm"),
            std::string::npos)
      << result.message;
}

TEST(ShmTransport, FourThreadedRanksMatchGlooWithinFp32Reordering) {
  auto c = mlp_config(4);
  const auto gloo = testing::train_threaded(c, {}, launch::TransportKind::kGloo);
  const auto shm = testing::train_threaded(c, {}, launch::TransportKind::kShm);
  ASSERT_EQ(shm.sink.steps.size(), gloo.sink.steps.size());
  ASSERT_FALSE(gloo.sink.steps.empty());
  for (size_t i = 0; i < gloo.sink.steps.size(); ++i) {
    const double a = gloo.sink.steps[i].loss, b = shm.sink.steps[i].loss;
    EXPECT_NEAR(b, a, 1e-6 * std::max(1.0, std::abs(a))) << "step " << i + 1;
  }
}

}  // namespace
}  // namespace parity::train
