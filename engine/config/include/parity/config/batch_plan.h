#pragma once
/// Batch and learning-rate planning: what a setup as configured actually does, and the seed's
/// equivalent-batch table. Torch-free; shared by the CLI's `plan`, the window and the verdict.

#include <parity/config/run_config.h>
#include <parity/config/shard_plan.h>
#include <parity/config/valid_config.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace parity::config {

/// Global batch = per-device batch x processes x accumulation (per-device batch x accumulation
/// with split_batches, where the per-device batch is already global).
int64_t global_batch_size(const RunConfig& config);

/// Samples one rank takes per micro-batch: the per-device batch, or its W-th with split_batches.
int64_t per_rank_micro_batch(const RunConfig& config);

/// Samples all ranks take together per micro-batch (before accumulation): per-device batch x W,
/// or the per-device batch itself with split_batches.
int64_t samples_per_micro_step(const RunConfig& config);

/// Samples batch norm's statistics are taken over: one rank's micro-batch, or all ranks' with
/// sync_batch_norm.
int64_t batch_norm_batch(const RunConfig& config);

/// How rank `rank` of this setup cuts an epoch's order into batches (Accelerate's
/// BatchSamplerShard options).
ShardOptions shard_options(const RunConfig& config, int rank = 0);

/// Base lr x (1, W or sqrt(W)) per lr_scaling.
double effective_lr(const RunConfig& config);

/// Scheduler steps per optimizer step: W, or 1 with split_batches.
int scheduler_steps_per_optimizer_step(const RunConfig& config);

/// Training samples the config's dataset holds (after train_samples), when it can be known
/// without reading the data (fashion-mnist: 60000, synthetic: synthetic_samples). nullopt for csv.
std::optional<int64_t> known_train_size(const RunConfig& config);

/// What one setup does with a training set of n samples.
struct SetupPlan {
  int64_t global_batch = 0;
  double effective_lr = 0;
  int64_t micro_batches_per_epoch = 0;  ///< per rank
  int64_t optimizer_steps_per_epoch = 0;
  int64_t total_optimizer_steps = 0;  ///< over all epochs, capped by max_steps
  int scheduler_steps_per_optimizer_step = 1;
  int64_t samples_per_epoch = 0;         ///< samples drawn per epoch, padding included
  int64_t padded_samples = 0;            ///< repeats added by even_batches per epoch
  int64_t dropped_samples = 0;           ///< samples dropped per epoch (drop_last)
  bool short_last_accumulation = false;  ///< the epoch's last group has fewer than k micro-batches
  std::vector<std::string> notes;        ///< plain-language remarks (repeats, drops, short groups)
};
/// Plans a validated setup (ValidConfig: the planner divides by its accumulation and counts its
/// epochs without checking them again) over train_size samples; throws ConfigError naming
/// train_size when it is negative.
SetupPlan plan_setup(const ValidConfig& config, int64_t train_size);

/// Per-device batch that keeps the global batch equal to reference_batch on num_processes
/// devices with accumulation k; nullopt when it does not divide.
std::optional<int64_t> equivalent_per_device_batch(int64_t reference_batch, int num_processes,
                                                   int accumulation = 1);

/// One row of the equivalent-batch table: a reference single-device batch and the per-device batch
/// for each setup shape.
struct EquivalentRow {
  int64_t reference_batch = 0;
  std::vector<std::optional<int64_t>> per_device;  ///< index = shape
};
struct EquivalentShape {
  std::string name;  ///< e.g. "1 GPU", "2 GPUs", "8-worker TPU pod"
  int num_processes = 1;
  int accumulation = 1;
};
/// The seed's shapes: 1 GPU, 2 GPUs, 8-worker TPU pod.
std::vector<EquivalentShape> default_shapes();
/// The columns for these setups: the seed's shapes named for the setups' device ("1 CPU
/// process", "2 GPUs", or "2 processes" for a mix), then each other (processes, accumulation) a
/// setup has. Split-batch setups add none (their per-device batch is already global).
std::vector<EquivalentShape> equivalent_shapes(const std::vector<RunConfig>& setups);
std::vector<EquivalentRow> equivalent_table(const std::vector<int64_t>& reference_batches,
                                            const std::vector<EquivalentShape>& shapes);

}  // namespace parity::config
