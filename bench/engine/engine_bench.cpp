// Engine benchmark: samples/s and where a step's time goes (data, forward, backward, allreduce,
// optimizer) for the MLP and the CNN on Fashion-MNIST at W=1 and W=2, plus the time from launch
// to the first recorded step through the real launcher and parity-worker processes.
// Prints numbers; asserts nothing. Usage: engine_bench [--samples N] [--worker PATH]

#include <parity/launch/rank_supervisor.h>
#include <parity/train/allocator.h>
#include <parity/train/trainer.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

namespace {

using parity::config::RunConfig;
using parity::launch::DistEnv;
using parity::launch::RunEnd;

RunConfig bench_config(parity::config::ModelKind model, int w, int64_t samples) {
  RunConfig c;
  c.model = model;
  c.num_processes = w;
  c.per_device_batch_size = 64 / w;  // global batch 64 whatever W
  c.train_samples = samples;
  c.epochs = 1;
  c.eval_every_epoch = false;
  c.lr = 0.05;
  return c;
}

// W ranks as threads in this process, each with cores/W intra-op threads.
std::vector<RunEnd> run_threads(const RunConfig& c) {
  const int w = c.num_processes;
  const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
  char tmpl[] = "/tmp/parity-bench-XXXXXX";
  const std::string dir = mkdtemp(tmpl);
  std::vector<RunEnd> ends(static_cast<size_t>(w));
  std::vector<std::thread> threads;
  for (int r = 0; r < w; ++r) {
    threads.emplace_back([&, r] {
      DistEnv env;
      env.rank = r;
      env.world_size = w;
      env.local_rank = r;
      env.local_world_size = w;
      env.store_path = dir + "/store";
      env.threads = static_cast<int>(std::max(1u, cores / static_cast<unsigned>(w)));
      ends[static_cast<size_t>(r)] = parity::train::train(c, env, nullptr);
    });
  }
  for (auto& t : threads) t.join();
  std::filesystem::remove_all(dir);
  return ends;
}

class FirstStepSink : public parity::launch::StepSink {
 public:
  std::chrono::steady_clock::time_point first;
  bool seen = false;
  void on_step(const parity::launch::StepRecord&) override {
    if (!seen) first = std::chrono::steady_clock::now();
    seen = true;
  }
};

}  // namespace

int main(int argc, char** argv) {
  parity::train::keep_step_buffers_in_heap();  // as a rank process does
  int64_t samples = 12800;
  std::string worker;
  for (int i = 1; i + 1 < argc; ++i) {
    if (!std::strcmp(argv[i], "--samples"))
      samples = std::atoll(argv[++i]);
    else if (!std::strcmp(argv[i], "--worker"))
      worker = argv[++i];
  }
  std::printf("Fashion-MNIST, %lld training samples, global batch 64, 1 epoch, ranks as threads\n",
              static_cast<long long>(samples));
  std::printf("%-5s %2s %11s | %8s %8s %8s %8s %8s  (ms per optimizer step, rank 0)\n", "model",
              "W", "samples/s", "data", "forward", "backward", "allreduce", "optim");
  for (auto model : {parity::config::ModelKind::kMlp, parity::config::ModelKind::kCnn}) {
    for (int w : {1, 2}) {
      const auto c = bench_config(model, w, samples);
      const auto ends = run_threads(c);
      const auto& e = ends[0];
      const double per = e.steps > 0 ? 1000.0 / static_cast<double>(e.steps) : 0;
      std::printf("%-5s %2d %11.0f | %8.2f %8.2f %8.2f %8.2f %8.2f\n",
                  parity::config::to_string(model).c_str(), w, e.samples_per_s,
                  e.phases.data_s * per, e.phases.forward_s * per, e.phases.backward_s * per,
                  e.phases.sync_s * per, e.phases.optimizer_s * per);
    }
  }
  // Launch to first step, through real processes (process start, rendezvous, data, model).
  for (int w : {1, 2}) {
    auto c = bench_config(parity::config::ModelKind::kMlp, w, 640);
    c.max_steps = 2;
    FirstStepSink sink;
    parity::launch::LaunchOptions options;
    options.worker_path = worker;
    const auto t0 = std::chrono::steady_clock::now();
    const auto result = parity::launch::RankSupervisor(c, options).run(sink);
    if (!sink.seen) {
      std::printf("launch W=%d failed: %s\n", w, result.message.c_str());
      continue;
    }
    std::printf("launch to first step, W=%d processes: %.0f ms\n", w,
                std::chrono::duration<double, std::milli>(sink.first - t0).count());
  }
  return 0;
}
