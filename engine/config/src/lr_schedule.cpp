#include <parity/config/lr_schedule.h>

#include <algorithm>
#include <cmath>

namespace parity::config {
namespace {

// transformers' warm-up: current_step / max(1, num_warmup_steps), from 0.
double warmup_factor(int64_t step, int64_t warmup) {
  return static_cast<double>(step) / static_cast<double>(std::max<int64_t>(1, warmup));
}

// torch's OneCycleLR._annealing_cos.
double anneal_cos(double start, double end, double pct) {
  const double cos_out = std::cos(M_PI * pct) + 1;
  return end + (start - end) / 2.0 * cos_out;
}

}  // namespace

LrSchedule::LrSchedule(const RunConfig& config, double base_lr, int64_t total_scheduler_steps)
    : kind_(config.scheduler),
      base_lr_(base_lr),
      total_(std::max<int64_t>(1, total_scheduler_steps)),
      warmup_(config.warmup_steps),
      step_size_(std::max<int64_t>(1, config.scheduler_step_size)),
      gamma_(config.scheduler_gamma),
      pct_start_(config.pct_start),
      div_factor_(config.div_factor),
      final_div_factor_(config.final_div_factor),
      cycle_momentum_(config.cycle_momentum) {}

double LrSchedule::lr(int64_t step) const {
  const auto s = static_cast<double>(step);
  switch (kind_) {
    case SchedulerKind::kConstant:  // get_constant_schedule(_with_warmup)
      return step < warmup_ ? base_lr_ * warmup_factor(step, warmup_) : base_lr_ * 1.0;
    case SchedulerKind::kLinear: {  // get_linear_schedule_with_warmup
      if (step < warmup_) return base_lr_ * warmup_factor(step, warmup_);
      const double f = static_cast<double>(total_ - step) /
                       static_cast<double>(std::max<int64_t>(1, total_ - warmup_));
      return base_lr_ * std::max(0.0, f);
    }
    case SchedulerKind::kCosine: {  // get_cosine_schedule_with_warmup, num_cycles 0.5
      if (step < warmup_) return base_lr_ * warmup_factor(step, warmup_);
      const double progress = static_cast<double>(step - warmup_) /
                              static_cast<double>(std::max<int64_t>(1, total_ - warmup_));
      // Not clamped at the end, as transformers does not: past num_training_steps it rises again.
      return base_lr_ * std::max(0.0, 0.5 * (1.0 + std::cos(M_PI * 0.5 * 2.0 * progress)));
    }
    case SchedulerKind::kStep: {  // StepLR: lr *= gamma whenever last_epoch % step_size == 0
      const auto decays = static_cast<size_t>(step / step_size_);
      if (step_lr_.empty()) step_lr_.push_back(base_lr_);
      while (step_lr_.size() <= decays) step_lr_.push_back(step_lr_.back() * gamma_);
      return step_lr_[decays];
    }
    case SchedulerKind::kOneCycle: {  // OneCycleLR, anneal_strategy 'cos', three_phase False
      const double initial = base_lr_ / div_factor_;
      const double min_lr = initial / final_div_factor_;
      const double rise_end = pct_start_ * static_cast<double>(total_) - 1;
      const double fall_end = static_cast<double>(total_ - 1);
      if (s <= rise_end) return anneal_cos(initial, base_lr_, s / rise_end);
      return anneal_cos(base_lr_, min_lr, (s - rise_end) / (fall_end - rise_end));
    }
  }
  return base_lr_;
}

std::optional<double> LrSchedule::momentum(int64_t step) const {
  if (kind_ != SchedulerKind::kOneCycle || !cycle_momentum_) return std::nullopt;
  constexpr double kBase = 0.85, kMax = 0.95;  // OneCycleLR's base_momentum, max_momentum
  const auto s = static_cast<double>(step);
  const double rise_end = pct_start_ * static_cast<double>(total_) - 1;
  const double fall_end = static_cast<double>(total_ - 1);
  if (s <= rise_end) return anneal_cos(kMax, kBase, s / rise_end);
  return anneal_cos(kBase, kMax, (s - rise_end) / (fall_end - rise_end));
}

std::string LrSchedule::problem() const {
  if (kind_ == SchedulerKind::kOneCycle && pct_start_ * static_cast<double>(total_) - 1 == 0) {
    return "scheduler onecycle: pct_start x total steps is 1 (" + std::to_string(total_) +
           " steps), so torch's OneCycleLR divides 0 by 0 at its first step; change pct_start or "
           "num_training_steps";
  }
  return {};
}

int64_t default_num_training_steps(const RunConfig& config, int64_t train_size) {
  const int64_t batch = std::max<int64_t>(1, config.per_device_batch_size);
  const int64_t loader_batches =
      config.drop_last ? train_size / batch : (train_size + batch - 1) / batch;
  return loader_batches * config.epochs / std::max(1, config.gradient_accumulation_steps);
}

int64_t schedule_length(const RunConfig& config, int64_t train_size) {
  return config.num_training_steps > 0 ? config.num_training_steps
                                       : default_num_training_steps(config, train_size);
}

}  // namespace parity::config
