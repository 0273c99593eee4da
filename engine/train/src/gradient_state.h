#pragma once
// Accelerate's GradientState: where a micro-batch stands in its accumulation group.

#include <cstdint>

namespace parity::train {

/// Named after accelerate.state.GradientState. sync_gradients is true on the micro-batch that
/// ends a group: every num_steps-th micro-batch of the epoch and the epoch's last, so the last
/// group may be short (and is under-weighted: each micro-batch's loss is divided by num_steps).
struct GradientState {
  int num_steps = 1;               ///< gradient_accumulation_steps
  bool sync_gradients = true;      ///< this micro-batch syncs gradients and steps the optimizer
  bool end_of_dataloader = false;  ///< this micro-batch is the epoch's last

  /// Moves to micro-batch `index` (0-based) of an epoch of `total` micro-batches.
  void begin_micro_batch(int64_t index, int64_t total) {
    end_of_dataloader = index + 1 == total;
    sync_gradients = (index + 1) % num_steps == 0 || end_of_dataloader;
  }
};

}  // namespace parity::train
