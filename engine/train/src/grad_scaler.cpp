#include <parity/train/grad_scaler.h>

namespace parity::train {

GradScaler::GradScaler(GradScalerOptions options) : options_(options), scale_(options.init_scale) {}

torch::Tensor GradScaler::scale(const torch::Tensor& loss) const {
  return options_.enabled ? loss * scale_ : loss;
}

void GradScaler::unscale_(const std::vector<torch::Tensor>& params) {
  found_inf_ = false;
  if (!options_.enabled) return;
  for (const auto& p : params) {
    if (p.grad().defined() && !torch::isfinite(p.grad()).all().item<bool>()) {
      found_inf_ = true;
      return;  // the step is skipped: the gradients are zeroed unread
    }
  }
  torch::NoGradGuard no_grad;
  for (const auto& p : params) {
    if (p.grad().defined()) p.mutable_grad().div_(scale_);
  }
}

bool GradScaler::step(torch::optim::Optimizer& optimizer) {
  if (found_inf_) return false;
  optimizer.step();
  return true;
}

void GradScaler::update() {
  if (!options_.enabled) return;
  if (found_inf_) {
    scale_ *= options_.backoff_factor;
    growth_tracker_ = 0;
  } else if (++growth_tracker_ == options_.growth_interval) {
    scale_ *= options_.growth_factor;
    growth_tracker_ = 0;
  }
  found_inf_ = false;
}

}  // namespace parity::train
