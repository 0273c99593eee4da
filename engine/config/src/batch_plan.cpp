#include <parity/config/batch_plan.h>
#include <parity/config/data_sizes.h>
#include <parity/config/shard_plan.h>

#include <algorithm>
#include <cmath>
#include <string>

namespace parity::config {
namespace {

std::string str(int64_t v) { return std::to_string(v); }

// train_size is not part of the config, so ValidConfig does not vouch for it.
void check_plannable(int64_t train_size) {
  if (train_size < 0) throw ConfigError("train_size", str(train_size), "must be at least 0");
}

}  // namespace

int64_t per_rank_micro_batch(const RunConfig& config) {
  return config.split_batches && config.num_processes > 0
             ? config.per_device_batch_size / config.num_processes
             : config.per_device_batch_size;
}

int64_t batch_norm_batch(const RunConfig& config) {
  return config.sync_batch_norm ? samples_per_micro_step(config) : per_rank_micro_batch(config);
}

int64_t samples_per_micro_step(const RunConfig& config) {
  return config.split_batches ? config.per_device_batch_size
                              : config.per_device_batch_size * config.num_processes;
}

ShardOptions shard_options(const RunConfig& config, int rank) {
  ShardOptions o;
  o.batch_size = config.per_device_batch_size;
  o.num_replicas = config.num_processes;
  o.rank = rank;
  o.split_batches = config.split_batches;
  o.even_batches = config.even_batches;
  o.drop_last = config.drop_last;
  return o;
}

int64_t global_batch_size(const RunConfig& config) {
  return samples_per_micro_step(config) * config.gradient_accumulation_steps;
}

double effective_lr(const RunConfig& config) {
  switch (config.lr_scaling) {
    case LrScaling::kLinear:
      return config.lr * config.num_processes;
    case LrScaling::kSqrt:
      return config.lr * std::sqrt(static_cast<double>(config.num_processes));
    case LrScaling::kNone:
      break;
  }
  return config.lr;
}

int scheduler_steps_per_optimizer_step(const RunConfig& config) {
  // Accelerate's AcceleratedScheduler steps once per process per optimizer step, unless the
  // batches are split (then one optimizer step sees one single-process batch).
  return config.split_batches ? 1 : config.num_processes;
}

std::optional<int64_t> known_train_size(const RunConfig& config) {
  if (auto sizes = known_data_sizes(config)) return sizes->train;
  return std::nullopt;
}

SetupPlan plan_setup(const ValidConfig& valid, int64_t train_size) {
  check_plannable(train_size);
  const RunConfig& config = valid.config();
  const ShardOptions options = shard_options(config);
  const std::vector<int64_t> counts = batches_per_rank(train_size, options);  // checks B and W
  const int64_t n = train_size, k = config.gradient_accumulation_steps;
  const int64_t w = config.num_processes;
  const int64_t step_batch = samples_per_micro_step(config);

  SetupPlan p;
  p.global_batch = global_batch_size(config);
  p.effective_lr = effective_lr(config);
  p.scheduler_steps_per_optimizer_step = scheduler_steps_per_optimizer_step(config);
  // Uneven counts (even_batches=false) are planned by the busiest rank.
  p.micro_batches_per_epoch = *std::max_element(counts.begin(), counts.end());
  // Accelerate syncs on every k-th micro-batch and at the end of the epoch.
  p.optimizer_steps_per_epoch = (p.micro_batches_per_epoch + k - 1) / k;
  p.total_optimizer_steps = p.optimizer_steps_per_epoch * config.epochs;
  if (config.max_steps > 0)
    p.total_optimizer_steps = std::min(p.total_optimizer_steps, config.max_steps);

  if (w == 1 && !config.drop_last) {
    p.samples_per_epoch = n;  // one process is not sharded: the last batch is short, never padded
  } else if (config.even_batches || config.drop_last) {
    // Every batch is full (padded or the short ones dropped).
    p.samples_per_epoch = counts.front() * per_rank_micro_batch(config) * w;
  } else {
    p.samples_per_epoch = n;
  }
  p.padded_samples = std::max<int64_t>(0, p.samples_per_epoch - n);
  p.dropped_samples = std::max<int64_t>(0, n - p.samples_per_epoch);
  p.short_last_accumulation = p.micro_batches_per_epoch % k != 0;

  // With accumulation the epoch's tail is cut per micro-step (B x W samples), not per global batch.
  const std::string size_note =
      "dataset size " + str(n) + " does not divide by " +
      (k > 1 ? "the " + str(step_batch) + " samples of one micro-step (global batch " +
                   str(p.global_batch) + " over " + str(k) + " micro-steps)"
             : "global batch " + str(step_batch)) +
      ": ";
  if (p.padded_samples > 0) {
    p.notes.push_back(size_note + "even_batches repeats " + str(p.padded_samples) +
                      " samples per epoch");
  }
  if (p.dropped_samples > 0) {
    p.notes.push_back(size_note + "drop_last drops " + str(p.dropped_samples) +
                      " samples per epoch");
  }
  const auto [fewest, most] = std::minmax_element(counts.begin(), counts.end());
  if (!config.even_batches && !config.drop_last && n % step_batch != 0) {
    std::string note = size_note + "with even_batches=false the last batch is short";
    if (*fewest != *most) {
      note += " and ranks get " + str(*most) + " or " + str(*fewest) +
              " batches (the trainer must keep them in step)";
    }
    p.notes.push_back(note);
  }
  if (p.short_last_accumulation) {
    p.notes.push_back("last accumulation group has " + str(p.micro_batches_per_epoch % k) + " of " +
                      str(k) + " micro-batches and is under-weighted");
  }
  if (p.micro_batches_per_epoch == 0) {
    p.notes.push_back("dataset size " + str(n) + " gives no batch to train on");
  }
  if (config.max_steps > 0 && config.max_steps < p.optimizer_steps_per_epoch * config.epochs) {
    p.notes.push_back("max_steps stops the run after " + str(config.max_steps) + " of " +
                      str(p.optimizer_steps_per_epoch * config.epochs) + " optimizer steps");
  }
  return p;
}

std::optional<int64_t> equivalent_per_device_batch(int64_t reference_batch, int num_processes,
                                                   int accumulation) {
  if (reference_batch < 1 || num_processes < 1 || accumulation < 1) return std::nullopt;
  const int64_t devices = static_cast<int64_t>(num_processes) * accumulation;
  if (reference_batch % devices != 0) return std::nullopt;
  return reference_batch / devices;
}

std::vector<EquivalentShape> default_shapes() {
  return {{"1 GPU", 1, 1}, {"2 GPUs", 2, 1}, {"8-worker TPU pod", 8, 1}};
}

namespace {

// "1 GPU", "2 CPU processes", "2 processes": the setups' own device.
std::string processes_on(int processes, bool cpu, bool cuda) {
  const std::string n = std::to_string(processes);
  const bool one = processes == 1;
  if (cuda && !cpu) return one ? "1 GPU" : n + " GPUs";
  if (cpu && !cuda) return one ? "1 CPU process" : n + " CPU processes";
  return one ? "1 process" : n + " processes";
}

}  // namespace

std::vector<EquivalentShape> equivalent_shapes(const std::vector<RunConfig>& setups) {
  bool cpu = setups.empty(), cuda = false;
  for (const auto& s : setups) (s.device == Device::kCuda ? cuda : cpu) = true;
  std::vector<EquivalentShape> shapes = default_shapes();
  for (auto& shape : shapes) {
    if (shape.name.find("GPU") != std::string::npos) {
      shape.name = processes_on(shape.num_processes, cpu, cuda);
    }
  }
  for (const auto& s : setups) {
    if (s.split_batches || s.num_processes < 1 || s.gradient_accumulation_steps < 1) continue;
    const bool known = std::any_of(shapes.begin(), shapes.end(), [&](const auto& shape) {
      return shape.num_processes == s.num_processes &&
             shape.accumulation == s.gradient_accumulation_steps;
    });
    if (known) continue;
    std::string name = processes_on(s.num_processes, cpu, cuda);
    if (s.gradient_accumulation_steps > 1) {
      name += ", acc " + std::to_string(s.gradient_accumulation_steps);
    }
    shapes.push_back({name, s.num_processes, s.gradient_accumulation_steps});
  }
  return shapes;
}

std::vector<EquivalentRow> equivalent_table(const std::vector<int64_t>& reference_batches,
                                            const std::vector<EquivalentShape>& shapes) {
  std::vector<EquivalentRow> rows;
  for (int64_t g : reference_batches) {
    EquivalentRow row;
    row.reference_batch = g;
    for (const EquivalentShape& s : shapes) {
      row.per_device.push_back(equivalent_per_device_batch(g, s.num_processes, s.accumulation));
    }
    rows.push_back(std::move(row));
  }
  return rows;
}

}  // namespace parity::config
