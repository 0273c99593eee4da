// Allreduce benchmark (#21): the shared-memory transport against Gloo's loopback TCP.
// 1. Latency and bandwidth of one sum-allreduce of 4 KB, 1 MB and 25 MB at W = 2, 4, 8, ranks as
//    forked processes holding both a Gloo process group and a shm segment; the two are timed in
//    alternation (paired) and the medians reported.
// 2. Training samples/s of the MLP on Fashion-MNIST (2x32, 2x64, 4x16) through real parity-worker
//    processes with PARITY_TRANSPORT=gloo and =shm, alternated, medians.
// Prints numbers; asserts nothing. Usage: parity_bench_allreduce [--reps N] [--samples N]
//   [--skip-train] [--skip-allreduce]

#include <parity/launch/rank_supervisor.h>
#include <parity/launch/worker_contract.h>
#include <parity/train/grad_transport.h>
#include <parity/train/process_group.h>
#include <parity/train/shm_allreduce.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;

double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

struct Timings {
  std::vector<double> gloo_s, shm_s;  // seconds per allreduce, one entry per sample
};

// One rank: `reps` samples, each `inner` Gloo allreduces then `inner` shm ones (alternated).
// Rank 0 writes its per-op times to `out` as "gloo shm" lines.
void bench_rank(const std::string& dir, int rank, int world, int64_t floats, int reps, int inner,
                const std::string& out) {
  parity::launch::DistEnv env;
  env.rank = rank;
  env.world_size = world;
  env.local_rank = rank;
  env.local_world_size = world;
  env.store_path = dir + "/store";
  env.collective_timeout_s = 120;
  auto store = parity::train::make_store(env);
  auto pg = parity::train::make_process_group(store, env, parity::config::Device::kCpu);
  parity::train::ProcessGroupTransport gloo(pg);
  parity::train::ShmAllreduceOptions options;
  options.timeout_s = 120;
  parity::train::ShmAllreduce shm(dir + "/segment", rank, world, options);
  std::vector<torch::Tensor> flat{torch::ones({floats})};
  float* data = flat[0].data_ptr<float>();
  // Warm-up: Gloo's pairs connect, the segment's pages are touched.
  gloo.allreduce_sum(flat);
  shm.allreduce_sum(data, floats);
  std::ofstream file;
  if (rank == 0) file.open(out);
  for (int s = 0; s < reps; ++s) {
    const auto t0 = Clock::now();
    for (int i = 0; i < inner; ++i) gloo.allreduce_sum(flat);
    const auto t1 = Clock::now();
    for (int i = 0; i < inner; ++i) shm.allreduce_sum(data, floats);
    const auto t2 = Clock::now();
    if (rank == 0) {
      file << std::chrono::duration<double>(t1 - t0).count() / inner << ' '
           << std::chrono::duration<double>(t2 - t1).count() / inner << '\n';
    }
  }
}

Timings run_allreduce(int world, int64_t bytes, int reps) {
  char tmpl[] = "/tmp/parity-bench-allreduce-XXXXXX";
  const std::string dir = mkdtemp(tmpl);
  const std::string out = dir + "/times";
  const int64_t floats = bytes / 4;
  const int inner = bytes <= 4096 ? 50 : bytes <= (1 << 20) ? 10 : 1;
  std::vector<pid_t> pids;
  std::fflush(nullptr);  // else every child prints what this process had buffered
  for (int r = 0; r < world; ++r) {
    const pid_t pid = fork();
    if (pid == 0) {
      int status = 0;
      try {
        bench_rank(dir, r, world, floats, reps, inner, out);
      } catch (const std::exception& e) {
        std::fprintf(stderr, "rank %d: %s\n", r, e.what());
        status = 1;
      }
      std::fflush(nullptr);
      _exit(status);
    }
    pids.push_back(pid);
  }
  for (pid_t p : pids) waitpid(p, nullptr, 0);
  Timings t;
  std::ifstream in(out);
  double g = 0, s = 0;
  while (in >> g >> s) {
    t.gloo_s.push_back(g);
    t.shm_s.push_back(s);
  }
  std::filesystem::remove_all(dir);
  return t;
}

void allreduce_table(int reps) {
  std::printf("allreduce (sum, fp32), ranks as processes, paired samples, medians\n");
  std::printf("%2s %8s | %10s %10s | %9s %9s | %6s\n", "W", "size", "gloo us", "shm us",
              "gloo MB/s", "shm MB/s", "speedup");
  for (int world : {2, 4, 8}) {
    for (int64_t bytes : {int64_t{4} << 10, int64_t{1} << 20, int64_t{25} << 20}) {
      const auto t =
          run_allreduce(world, bytes, bytes >= (int64_t{25} << 20) ? reps / 2 + 1 : reps);
      const double g = median(t.gloo_s), s = median(t.shm_s);
      const char* label = bytes == 4096 ? "4 KB" : bytes == (1 << 20) ? "1 MB" : "25 MB";
      std::printf("%2d %8s | %10.1f %10.1f | %9.0f %9.0f | %6.1fx\n", world, label, g * 1e6,
                  s * 1e6, g > 0 ? bytes / g / 1e6 : 0, s > 0 ? bytes / s / 1e6 : 0,
                  s > 0 ? g / s : 0);
      std::fflush(stdout);
    }
  }
}

class NullSink : public parity::launch::StepSink {
 public:
  void on_step(const parity::launch::StepRecord&) override {}
};

double train_once(int world, int64_t per_device, int64_t samples, const char* transport) {
  parity::config::RunConfig c;
  c.model = parity::config::ModelKind::kMlp;
  c.num_processes = world;
  c.per_device_batch_size = per_device;
  c.train_samples = samples;
  c.epochs = 1;
  c.eval_every_epoch = false;
  c.lr = 0.05;
  setenv(parity::launch::kEnvTransport, transport, 1);
  parity::launch::LaunchOptions options;
  options.worker_path = PARITY_WORKER_PATH;
  options.threads_per_rank = 1;
  NullSink sink;
  const auto result = parity::launch::RankSupervisor(c, options).run(sink);
  unsetenv(parity::launch::kEnvTransport);
  if (result.outcome != parity::launch::RunOutcome::kFinished) {
    std::printf("  %dx%lld %s failed: %s\n", world, static_cast<long long>(per_device), transport,
                result.message.c_str());
    return 0;
  }
  return result.samples_per_s;
}

void training_table(int reps, int64_t samples) {
  std::printf(
      "training, MLP 784-256-128-10 on Fashion-MNIST, %lld samples, 1 thread a rank,\n"
      "real parity-worker processes, gloo and shm alternated, median samples/s\n",
      static_cast<long long>(samples));
  std::printf("%6s | %9s %9s | %6s\n", "setup", "gloo", "shm", "speedup");
  for (auto [w, b] : std::vector<std::pair<int, int64_t>>{{2, 32}, {2, 64}, {4, 16}}) {
    std::vector<double> gloo, shm;
    for (int i = 0; i < reps; ++i) {
      gloo.push_back(train_once(w, b, samples, "gloo"));
      shm.push_back(train_once(w, b, samples, "shm"));
    }
    const double g = median(gloo), s = median(shm);
    std::printf("%3dx%-2lld | %9.0f %9.0f | %6.2fx\n", w, static_cast<long long>(b), g, s,
                g > 0 ? s / g : 0);
    std::fflush(stdout);
  }
}

}  // namespace

int main(int argc, char** argv) {
  int reps = 15;
  int64_t samples = 20000;
  bool train = true, allreduce = true;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--reps") && i + 1 < argc) {
      reps = std::atoi(argv[++i]);
    } else if (!std::strcmp(argv[i], "--samples") && i + 1 < argc) {
      samples = std::atoll(argv[++i]);
    } else if (!std::strcmp(argv[i], "--skip-train")) {
      train = false;
    } else if (!std::strcmp(argv[i], "--skip-allreduce")) {
      allreduce = false;
    }
  }
  double load[3] = {0, 0, 0};
  getloadavg(load, 3);
  std::printf("load average at start: %.2f %.2f %.2f, %u cores\n", load[0], load[1], load[2],
              std::thread::hardware_concurrency());
  if (allreduce) allreduce_table(reps);
  if (train) training_table(std::max(1, reps / 5), samples);
  getloadavg(load, 3);
  std::printf("load average at end: %.2f %.2f %.2f\n", load[0], load[1], load[2]);
  return 0;
}
