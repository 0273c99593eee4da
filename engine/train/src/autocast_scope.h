#pragma once
// Autocast for one forward pass, as torch.autocast: bf16 on CPU or CUDA, fp16 on CUDA.

#include <parity/config/run_config.h>

namespace parity::train {

/// Turns autocast on for its lifetime (nothing with MixedPrecision::kNo). Outputs are cast to fp32
/// before the loss (compute_loss does that).
class AutocastScope {
 public:
  AutocastScope(config::MixedPrecision mp, config::Device device);
  ~AutocastScope();
  AutocastScope(const AutocastScope&) = delete;
  AutocastScope& operator=(const AutocastScope&) = delete;

 private:
  void set_enabled(bool on) const;

  bool active_;
  bool cuda_ = false;
};

}  // namespace parity::train
