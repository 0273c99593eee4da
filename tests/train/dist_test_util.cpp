#include "dist_test_util.h"

#include <parity/config/batch_plan.h>
#include <parity/config/sampler.h>
#include <parity/train/datasets.h>
#include <stdlib.h>
#include <unistd.h>

#include <filesystem>
#include <stdexcept>
#include <thread>

namespace parity::train::testing {

ThreadedRun train_threaded(const config::RunConfig& config, const TrainerTestHooks& hooks,
                           launch::TransportKind transport) {
  TempDir dir;
  const int w = config.num_processes;
  ThreadedRun run;
  run.parameters.resize(static_cast<size_t>(w));
  run.buffers.resize(static_cast<size_t>(w));
  run.ends.resize(static_cast<size_t>(w));
  std::vector<std::string> errors(static_cast<size_t>(w));
  std::vector<std::thread> threads;
  for (int r = 0; r < w; ++r) {
    threads.emplace_back([&, r] {
      launch::DistEnv env;
      env.rank = r;
      env.world_size = w;
      env.local_rank = r;
      env.local_world_size = w;
      env.store_path = dir.path() + "/store";
      env.threads = 1;
      env.collective_timeout_s = 60;
      env.transport = transport;
      TrainerOptions options;
      options.test_hooks = hooks;
      options.test_hooks.final_parameters = &run.parameters[static_cast<size_t>(r)];
      options.test_hooks.final_buffers = &run.buffers[static_cast<size_t>(r)];
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

config::RunConfig regression_config(int num_processes, int64_t per_device_batch, int accumulation) {
  config::RunConfig c;
  c.label = std::to_string(num_processes) + "x" + std::to_string(per_device_batch);
  c.seed = 7;
  c.dataset = config::DatasetKind::kSyntheticRegression;
  c.task = config::Task::kRegression;
  c.synthetic_samples = 256;
  c.model = config::ModelKind::kLinear;
  c.init = config::Init::kZeros;
  c.optimizer = config::OptimizerKind::kSgd;
  c.lr = 0.1;
  c.epochs = 2;
  c.num_processes = num_processes;
  c.per_device_batch_size = per_device_batch;
  c.gradient_accumulation_steps = accumulation;
  c.eval_every_epoch = true;
  return c;
}

namespace {

struct Series {
  std::vector<double> x, y;
};

Series to_series(const TensorDataset& d) {
  Series s;
  auto x = d.inputs.to(torch::kFloat64).reshape({-1}).contiguous();
  auto y = d.targets.to(torch::kFloat64).reshape({-1}).contiguous();
  s.x.assign(x.data_ptr<double>(), x.data_ptr<double>() + x.numel());
  s.y.assign(y.data_ptr<double>(), y.data_ptr<double>() + y.numel());
  return s;
}

}  // namespace

HandRun train_by_hand(const config::RunConfig& c, bool under_weight) {
  const Series data = to_series(load_dataset(c).train);
  const auto n = static_cast<int64_t>(data.x.size());
  const int w = c.num_processes, k = c.gradient_accumulation_steps;
  std::vector<config::DistributedBatchSampler> samplers;
  for (int r = 0; r < w; ++r)
    samplers.emplace_back(n, c.effective_data_seed(), config::shard_options(c, r));
  HandRun run;
  for (int epoch = 0; epoch < c.epochs; ++epoch) {
    int64_t micro_total = 0;
    for (auto& s : samplers) {
      s.set_epoch(epoch);
      micro_total = std::max(micro_total, static_cast<int64_t>(s.batches().size()));
    }
    for (int64_t first = 0; first < micro_total; first += k) {
      const int64_t last = std::min(first + k, micro_total);
      const double divisor = under_weight ? k : static_cast<double>(last - first);
      double gw = 0, gb = 0, loss_sum = 0;
      int participants = 0;
      for (int r = 0; r < w; ++r) {
        const auto& mine = samplers[static_cast<size_t>(r)].batches();
        double rank_loss = 0;
        int micro = 0;
        for (int64_t i = first; i < last && i < static_cast<int64_t>(mine.size()); ++i) {
          const auto& batch = mine[static_cast<size_t>(i)];
          double l = 0, dw = 0, db = 0;
          for (int64_t j : batch) {
            const double e =
                run.w * data.x[static_cast<size_t>(j)] + run.b - data.y[static_cast<size_t>(j)];
            l += e * e;
            dw += 2 * e * data.x[static_cast<size_t>(j)];
            db += 2 * e;
          }
          const double m = static_cast<double>(batch.size());
          rank_loss += l / m;
          gw += dw / m / divisor;
          gb += db / m / divisor;
          ++micro;
        }
        if (micro > 0) {
          ++participants;
          loss_sum += rank_loss / micro;
        }
      }
      run.losses.push_back(loss_sum / participants);
      run.w -= c.lr * gw / w;  // the ranks without a micro-batch add zeros (DDP under Join)
      run.b -= c.lr * gb / w;
    }
  }
  return run;
}

double zero_model_test_loss(const config::RunConfig& config) {
  const Series test = to_series(load_dataset(config).test);
  double sum = 0;
  for (double y : test.y) sum += y * y;
  return sum / static_cast<double>(test.y.size());
}

}  // namespace parity::train::testing
