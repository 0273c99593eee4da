#pragma once
// fp16 loss scaling as torch.amp.GradScaler does it, with its names and defaults.

#include <torch/torch.h>

#include <vector>

namespace parity::train {

/// torch.amp.GradScaler's constructor arguments and defaults.
struct GradScalerOptions {
  double init_scale = 65536.0;
  double growth_factor = 2.0;
  double backoff_factor = 0.5;
  int growth_interval = 2000;
  /// Disabled (no fp16): scale() and unscale_() do nothing, step() always steps, get_scale() is 1.
  bool enabled = true;
};

/// Dynamic loss scaling for fp16. The order per optimizer step is torch.amp's:
/// scale(loss).backward() on every micro-batch, then unscale_(params), step(optimizer), update().
///
/// Consensus across ranks: unscale_() is called on gradients that GradientSync has already
/// all-reduced, so an inf or NaN on any rank is in every rank's sum, every rank finds it and every
/// rank skips the same step. That is torch's all-reduced found_inf, carried by the gradient
/// collective itself; no extra collective is needed.
class GradScaler {
 public:
  explicit GradScaler(GradScalerOptions options = {});

  /// loss x scale (loss unchanged when disabled).
  torch::Tensor scale(const torch::Tensor& loss) const;
  /// Checks the gradients for inf/NaN and, when all are finite, divides them by the scale.
  void unscale_(const std::vector<torch::Tensor>& params);
  /// optimizer.step() unless unscale_() found an inf or NaN. Returns whether it stepped.
  bool step(torch::optim::Optimizer& optimizer);
  /// Backs the scale off after a skipped step; grows it after growth_interval clean steps.
  void update();
  double get_scale() const { return options_.enabled ? scale_ : 1.0; }
  bool is_enabled() const { return options_.enabled; }

 private:
  GradScalerOptions options_;
  double scale_;
  int growth_tracker_ = 0;  // clean steps since the scale last changed
  bool found_inf_ = false;
};

}  // namespace parity::train
