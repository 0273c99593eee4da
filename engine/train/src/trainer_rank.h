#pragma once
// Private to parity_train: one rank of a data-parallel run as Accelerate runs it (train() in
// <parity/train/trainer.h> builds one and runs it). Set up in trainer.cpp; the loop (epochs,
// micro-batches, optimizer steps, evaluation) in trainer_loop.cpp.

#include <parity/config/batch_plan.h>
#include <parity/config/lr_schedule.h>
#include <parity/config/run_config.h>
#include <parity/config/sampler.h>
#include <parity/launch/step_record.h>
#include <parity/launch/worker_contract.h>
#include <parity/train/datasets.h>
#include <parity/train/grad_scaler.h>
#include <parity/train/grad_sync.h>
#include <parity/train/models.h>
#include <parity/train/process_group.h>
#include <parity/train/trainer_options.h>
#include <torch/torch.h>

#include <chrono>
#include <memory>
#include <optional>
#include <vector>

#include "evaluator.h"
#include "gradient_state.h"

namespace parity::train::detail {

using Clock = std::chrono::steady_clock;
inline double seconds_since(Clock::time_point t) {
  return std::chrono::duration<double>(Clock::now() - t).count();
}
inline double seconds_between(Clock::time_point a, Clock::time_point b) {
  return std::chrono::duration<double>(b - a).count();
}

constexpr int64_t kEvalBatchSize = 1000;

// This rank's micro-batches since the last sync.
struct PendingStep {
  double loss_sum = 0;  // of micro-batch means (per-batch), or of item losses (global)
  int micro_batches = 0;
  int64_t samples = 0;
};

// With global normalisation: the items (tokens, or samples) of the whole optimizer step, over
// every rank, and how many ranks take part; all-reduced at the group's first micro-batch.
struct StepItems {
  double total = 0;
  int participants = 0;
};

/// One rank of a data-parallel run, as Accelerate runs it. The constructor sets everything up;
/// run() is the algorithm: epochs, micro-batches, optimizer steps, evaluation.
class Trainer {
 public:
  Trainer(const config::RunConfig& config, const launch::DistEnv& env, launch::StepSink* sink,
          const TrainerOptions& options);
  Trainer(const Trainer&) = delete;
  Trainer& operator=(const Trainer&) = delete;

  launch::RunEnd run();

 private:
  void set_up_process_group();
  void set_up_data_and_model();
  void set_up_optimization();
  void report_start();
  void train_epoch(int epoch);
  void draw_epoch_order(int epoch);
  void forward_backward(const std::vector<int64_t>& batch);
  void count_step_items(int64_t first, int64_t micro_total);
  void broadcast_buffers();
  void optimizer_step(double epoch_position);
  void record_step(const GlobalStepMetrics& global, double lr, double epoch_position);
  void check_stop(double loss, double lr);
  void evaluate(int epoch);
  launch::RunEnd finish();
  bool global_normalization() const {
    return config_.loss_normalization == config::LossNormalization::kGlobal;
  }

  const config::RunConfig& config_;
  const launch::DistEnv& env_;
  launch::StepSink* sink_;
  const TrainerOptions& options_;
  const Clock::time_point t_setup_ = Clock::now();
  /// The reporting rank: rank 0, when it was given a sink.
  const bool is_main_process_;
  const torch::Device device_;

  c10::intrusive_ptr<c10d::Store> store_;
  c10::intrusive_ptr<Collectives> pg_;
  DataSplit data_;
  config::LossKind loss_kind_ = config::LossKind::kAuto;
  std::unique_ptr<Model> model_;
  std::vector<torch::Tensor> params_;
  std::vector<torch::Tensor> buffers_;
  config::SetupPlan plan_;
  double base_lr_ = 0;
  std::unique_ptr<torch::optim::Optimizer> optimizer_;
  std::optional<AcceleratedScheduler> scheduler_;
  GradScaler scaler_;
  std::optional<GradientSync> grad_sync_;
  std::optional<config::DistributedBatchSampler> sampler_;
  /// Accelerate's default sampler on several processes: one unseeded torch.Generator(), its
  /// state carried across epochs (identical on every rank, as rank 0's is synchronised).
  config::RandpermGenerator unseeded_order_;
  std::optional<Evaluator> evaluator_;

  GradientState gradient_state_;
  PendingStep pending_;
  StepItems step_items_;
  int64_t step_ = 0;
  int64_t samples_ = 0;
  double train_time_ = 0;
  Clock::time_point t_train_;
  bool done_ = false;
  launch::RunEnd end_;
};

}  // namespace parity::train::detail
