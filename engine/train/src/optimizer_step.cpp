#include <parity/train/optimizer_step.h>

namespace parity::train {

std::unique_ptr<torch::optim::Optimizer> make_optimizer(const config::RunConfig& config,
                                                        std::vector<torch::Tensor> params,
                                                        double lr) {
  if (config.optimizer == config::OptimizerKind::kAdamW) {
    return std::make_unique<torch::optim::AdamW>(
        params, torch::optim::AdamWOptions(lr).weight_decay(config.weight_decay));
  }
  return std::make_unique<torch::optim::SGD>(
      params,
      torch::optim::SGDOptions(lr).momentum(config.momentum).weight_decay(config.weight_decay));
}

AcceleratedScheduler::AcceleratedScheduler(config::LrSchedule schedule,
                                           int steps_per_optimizer_step)
    : schedule_(std::move(schedule)), steps_per_optimizer_step_(steps_per_optimizer_step) {}

OptimizerStepResult take_optimizer_step(torch::optim::Optimizer& optimizer, GradScaler& scaler,
                                        AcceleratedScheduler& scheduler,
                                        const std::vector<torch::Tensor>& params) {
  OptimizerStepResult result;
  result.lr = scheduler.lr();
  scaler.unscale_(params);
  const std::optional<double> momentum = scheduler.momentum();
  for (auto& group : optimizer.param_groups()) {
    group.options().set_lr(result.lr);
    if (!momentum) continue;
    // OneCycleLR writes the cycled value into the group: SGD's momentum, AdamW's beta1.
    if (auto* sgd = dynamic_cast<torch::optim::SGDOptions*>(&group.options())) {
      sgd->momentum(*momentum);
    } else if (auto* adamw = dynamic_cast<torch::optim::AdamWOptions*>(&group.options())) {
      adamw->betas(std::make_tuple(*momentum, std::get<1>(adamw->betas())));
    }
  }
  result.stepped = scaler.step(optimizer);
  scheduler.step(/*optimizer_step_was_skipped=*/!result.stepped);
  scaler.update();
  optimizer.zero_grad();
  return result;
}

}  // namespace parity::train
