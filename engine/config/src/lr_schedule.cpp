#include <parity/config/lr_schedule.h>

#include <algorithm>
#include <cmath>

namespace parity::engine {

LrSchedule::LrSchedule(const RunConfig& config, int64_t total_scheduler_steps)
    : kind_(config.scheduler),
      total_(std::max<int64_t>(1, total_scheduler_steps)),
      warmup_(config.warmup_steps),
      step_size_(std::max<int64_t>(1, config.scheduler_step_size)),
      gamma_(config.scheduler_gamma) {}

double LrSchedule::factor(int64_t step) const {
  // Warmup as transformers' get_*_schedule_with_warmup: lr * step / warmup while step < warmup,
  // but starting from 1/(warmup+1) so the first step does not train with lr 0.
  if (step < warmup_) return static_cast<double>(step + 1) / static_cast<double>(warmup_ + 1);
  const double decay_len = static_cast<double>(std::max<int64_t>(1, total_ - warmup_));
  const double progress = std::min(1.0, static_cast<double>(step - warmup_) / decay_len);
  switch (kind_) {
    case SchedulerKind::kConstant:
      return 1.0;
    case SchedulerKind::kLinear:
      return std::max(0.0, 1.0 - progress);
    case SchedulerKind::kCosine:
      return 0.5 * (1.0 + std::cos(M_PI * progress));
    case SchedulerKind::kStep:
      return std::pow(gamma_, static_cast<double>((step - warmup_) / step_size_));
  }
  return 1.0;
}

}  // namespace parity::engine
