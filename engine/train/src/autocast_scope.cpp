#include "autocast_scope.h"

#include <ATen/autocast_mode.h>
#include <torch/version.h>

#define PARITY_TORCH_AT_LEAST(major, minor) \
  (TORCH_VERSION_MAJOR > (major) ||         \
   (TORCH_VERSION_MAJOR == (major) && TORCH_VERSION_MINOR >= (minor)))

namespace parity::train {

AutocastScope::AutocastScope(config::MixedPrecision mp, config::Device device)
    : active_(mp != config::MixedPrecision::kNo) {
  if (!active_) return;
  const auto dtype = mp == config::MixedPrecision::kBf16 ? at::kBFloat16 : at::kHalf;
  cuda_ = device == config::Device::kCuda;
  set_enabled(true);
#if PARITY_TORCH_AT_LEAST(2, 4)
  at::autocast::set_autocast_dtype(cuda_ ? at::kCUDA : at::kCPU, dtype);
#else
  if (cuda_) {
    at::autocast::set_autocast_gpu_dtype(dtype);
  } else {
    at::autocast::set_autocast_cpu_dtype(dtype);
  }
#endif
  at::autocast::increment_nesting();
}

AutocastScope::~AutocastScope() {
  if (!active_) return;
  if (at::autocast::decrement_nesting() == 0) at::autocast::clear_cache();
  set_enabled(false);
}

// LibTorch 2.4 replaced the per-device functions (set_enabled for CUDA, set_cpu_enabled, ...) by
// ones taking the device type, and 2.x warns on the old ones.
void AutocastScope::set_enabled(bool on) const {
#if PARITY_TORCH_AT_LEAST(2, 4)
  at::autocast::set_autocast_enabled(cuda_ ? at::kCUDA : at::kCPU, on);
#else
  if (cuda_) {
    at::autocast::set_enabled(on);
  } else {
    at::autocast::set_cpu_enabled(on);
  }
#endif
}

}  // namespace parity::train
