#pragma once
/// Learning-rate schedules as multipliers of the effective lr, indexed by scheduler step.
/// Accelerate advances the scheduler W times per optimizer step (once with split_batches) and not
/// on non-syncing micro-batches, so a schedule written in single-process steps lasts the same
/// number of samples whatever the number of processes.

#include <parity/config/run_config.h>

#include <cstdint>

namespace parity::engine {

class LrSchedule {
 public:
  /// total_scheduler_steps: length of the schedule (linear and cosine decay to 0 at its end).
  LrSchedule(const RunConfig& config, int64_t total_scheduler_steps);
  /// Multiplier at scheduler position `step` (0-based): warmup ramps linearly from 1/(warmup+1).
  double factor(int64_t step) const;

 private:
  SchedulerKind kind_;
  int64_t total_;
  int64_t warmup_;
  int64_t step_size_;
  double gamma_;
};

}  // namespace parity::engine
