#pragma once
/// Learning-rate schedules exactly as users run them: constant, linear and cosine as transformers'
/// get_*_schedule_with_warmup (warm-up from 0, cosine with 0.5 cycles), step as torch's StepLR
/// (chained products) and onecycle as torch's OneCycleLR (cos annealing, two phases). Positions are
/// scheduler steps; Accelerate's AcceleratedScheduler advances them W times per optimizer step
/// (once with split_batches), so a schedule written in single-process steps lasts the same number
/// of samples whatever the number of processes.

#include <parity/config/run_config.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace parity::config {

class LrSchedule {
 public:
  /// base_lr: the effective lr (after lr_scaling); onecycle's max_lr.
  /// total_scheduler_steps: the schedule's length (num_training_steps; onecycle's total_steps).
  LrSchedule(const RunConfig& config, double base_lr, int64_t total_scheduler_steps);
  /// The lr at scheduler position `step` (0-based), computed as torch computes it.
  double lr(int64_t step) const;
  /// OneCycleLR's momentum (SGD) or beta1 (AdamW) at `step` when it cycles them (cycle_momentum,
  /// base 0.85, max 0.95, torch's defaults); nullopt for every other schedule.
  std::optional<double> momentum(int64_t step) const;
  int64_t total_steps() const { return total_; }
  /// OneCycleLR refuses to be stepped past total_steps; Accelerate stops stepping it there.
  bool caps_at_total() const { return kind_ == SchedulerKind::kOneCycle; }
  /// Why torch could not run this schedule (empty when it can): OneCycleLR divides 0 by 0 at its
  /// first step when pct_start x total_steps is 1.
  std::string problem() const;

 private:
  SchedulerKind kind_;
  double base_lr_;
  int64_t total_;
  int64_t warmup_;
  int64_t step_size_;
  double gamma_;
  double pct_start_, div_factor_, final_div_factor_;
  bool cycle_momentum_;
  mutable std::vector<double> step_lr_;  ///< StepLR's chain: base, base*g, (base*g)*g, ...
};

/// Accelerate's examples' schedule length: (batches of the unsharded loader x epochs) //
/// accumulation, the loader's batch being the per-device batch (the global one with
/// split_batches). train_size is the training set's size.
int64_t default_num_training_steps(const RunConfig& config, int64_t train_size);

/// The schedule length a run uses: num_training_steps when given, else the default above.
int64_t schedule_length(const RunConfig& config, int64_t train_size);

}  // namespace parity::config
