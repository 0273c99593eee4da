#pragma once
// The optimizer, its learning-rate schedule and one optimizer step, as Accelerate's
// AcceleratedOptimizer and AcceleratedScheduler take it.

#include <parity/config/lr_schedule.h>
#include <parity/config/run_config.h>
#include <parity/train/grad_scaler.h>
#include <torch/torch.h>

#include <algorithm>
#include <memory>
#include <vector>

namespace parity::train {

/// SGD (momentum, weight decay) or AdamW (weight decay) over params at lr.
std::unique_ptr<torch::optim::Optimizer> make_optimizer(const config::RunConfig& config,
                                                        std::vector<torch::Tensor> params,
                                                        double lr);

/// The schedule as accelerate's AcceleratedScheduler drives it: advanced steps_per_optimizer_step
/// times per optimizer step (W, or 1 with split_batches), and not at all when the optimizer step
/// was skipped (an fp16 overflow).
class AcceleratedScheduler {
 public:
  AcceleratedScheduler(config::LrSchedule schedule, int steps_per_optimizer_step);
  /// The lr the next optimizer step uses.
  double lr() const { return schedule_.lr(position_); }
  /// OneCycleLR's cycled momentum / beta1 for the next step (nullopt: the optimizer's own).
  std::optional<double> momentum() const { return schedule_.momentum(position_); }
  /// OneCycleLR is not stepped past its total_steps (Accelerate's guard on _step_count).
  void step(bool optimizer_step_was_skipped) {
    if (optimizer_step_was_skipped) return;
    position_ += steps_per_optimizer_step_;
    if (schedule_.caps_at_total()) position_ = std::min(position_, schedule_.total_steps());
  }
  int64_t position() const { return position_; }

 private:
  config::LrSchedule schedule_;
  int steps_per_optimizer_step_;
  int64_t position_ = 0;
};

struct OptimizerStepResult {
  double lr = 0;         ///< the lr this step used (or would have used, when skipped)
  bool stepped = false;  ///< false when the scaler found an inf or NaN
};

/// One optimizer step on synced gradients: unscale (fp16), set the scheduled lr, step unless the
/// scaler found an overflow, advance the schedule only on a real step, update the scale, and zero
/// the gradients.
OptimizerStepResult take_optimizer_step(torch::optim::Optimizer& optimizer, GradScaler& scaler,
                                        AcceleratedScheduler& scheduler,
                                        const std::vector<torch::Tensor>& params);

}  // namespace parity::train
