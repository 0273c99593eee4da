#pragma once
/// What a caller of train() (<parity/train/trainer.h>) may set besides the config: heartbeats, a
/// stop flag, and the tests' seams. Torch-free.

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace parity::train {

/// Test seams, and only those: the worker and the window never set them. Every default keeps
/// train() as it runs in production.
struct TrainerTestHooks {
  /// When set, filled at the end with every parameter, flattened in module order (for tests that
  /// compare the models different setups end with).
  std::vector<double>* final_parameters = nullptr;
  /// Likewise every buffer (batch norm's running statistics), flattened in module order.
  std::vector<double>* final_buffers = nullptr;
  /// Gradient-sync bucket size in bytes; 0 = the default (25 MB, DDP's bucket_cap_mb). Small
  /// values spread a small model over several buckets.
  int64_t bucket_bytes = 0;
  /// Per-rank evaluation batch; 0 = the default (1000). Small values give every rank a share of a
  /// small test split.
  int64_t eval_batch_size = 0;
  /// Whether the gradient allreduce overlaps the backward: -1 = as PARITY_OVERLAP says (unset:
  /// auto), 0 = after the backward, 1 = overlapped.
  int overlap = -1;
  /// When set, each rank adds the gradient buckets whose allreduce its backward had started by
  /// the time the backward returned (0 when the sync runs after the backward).
  std::atomic<int64_t>* buckets_started_in_backward = nullptr;
};

struct TrainerOptions {
  /// Called on every rank after each optimizer step (for launcher heartbeats). May be empty.
  std::function<void(int64_t step)> heartbeat;
  /// Set from outside to stop after the current step (outcome kStopped).
  const std::atomic<bool>* stop = nullptr;
  /// For tests only; see TrainerTestHooks.
  TrainerTestHooks test_hooks;
};

}  // namespace parity::train
