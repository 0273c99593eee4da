#include "dist_test_util.h"

#include <stdlib.h>
#include <unistd.h>

#include <filesystem>
#include <stdexcept>
#include <thread>

namespace parity::engine::testing {

TempDir::TempDir() {
  std::string tmpl = (std::filesystem::temp_directory_path() / "parity-test-XXXXXX").string();
  if (!mkdtemp(tmpl.data())) throw std::runtime_error("mkdtemp failed");
  path_ = tmpl;
}

TempDir::~TempDir() {
  std::error_code ec;
  std::filesystem::remove_all(path_, ec);
}

ThreadedRun train_threaded(const RunConfig& config) {
  TempDir dir;
  const int w = config.num_processes;
  ThreadedRun run;
  run.parameters.resize(static_cast<size_t>(w));
  run.ends.resize(static_cast<size_t>(w));
  std::vector<std::string> errors(static_cast<size_t>(w));
  std::vector<std::thread> threads;
  for (int r = 0; r < w; ++r) {
    threads.emplace_back([&, r] {
      DistEnv env;
      env.rank = r;
      env.world_size = w;
      env.local_rank = r;
      env.local_world_size = w;
      env.store_path = dir.path() + "/store";
      env.threads = 1;
      env.collective_timeout_s = 60;
      TrainerOptions options;
      options.final_parameters = &run.parameters[static_cast<size_t>(r)];
      try {
        run.ends[static_cast<size_t>(r)] =
            train(config, env, r == 0 ? &run.sink : nullptr, options);
      } catch (const std::exception& e) {
        errors[static_cast<size_t>(r)] = e.what();
      }
    });
  }
  for (auto& t : threads) t.join();
  for (int r = 0; r < w; ++r) {
    if (!errors[static_cast<size_t>(r)].empty()) {
      throw std::runtime_error("rank " + std::to_string(r) + ": " + errors[static_cast<size_t>(r)]);
    }
  }
  return run;
}

RunConfig regression_config(int num_processes, int64_t per_device_batch, int accumulation) {
  RunConfig c;
  c.label = std::to_string(num_processes) + "x" + std::to_string(per_device_batch);
  c.seed = 7;
  c.dataset = DatasetKind::kSyntheticRegression;
  c.task = Task::kRegression;
  c.synthetic_samples = 256;
  c.model = ModelKind::kLinear;
  c.init = Init::kZeros;
  c.optimizer = OptimizerKind::kSgd;
  c.lr = 0.1;
  c.epochs = 2;
  c.num_processes = num_processes;
  c.per_device_batch_size = per_device_batch;
  c.gradient_accumulation_steps = accumulation;
  c.eval_every_epoch = true;
  return c;
}

}  // namespace parity::engine::testing
