#pragma once
/// The epoch's order and each rank's batches. Torch-free, yet the order is exactly PyTorch's
/// torch.randperm with a seeded generator (checked against PyTorch's own output), so the CLI can
/// print shard plans without loading LibTorch.

#include <parity/config/shard_plan.h>

#include <cstdint>
#include <vector>

namespace parity::config {

/// torch.randperm(n, generator=torch.Generator().manual_seed(seed)), seed = data_seed + epoch.
std::vector<int64_t> epoch_permutation(int64_t n, int64_t seed);

/// Accelerate's shuffled, sharded batch sampler for one rank. Every rank computes the same
/// permutation; set_epoch(e) reseeds with data_seed + e.
class DistributedBatchSampler {
 public:
  DistributedBatchSampler(int64_t dataset_size, int64_t data_seed, ShardOptions options,
                          bool shuffle = true);
  void set_epoch(int64_t epoch);
  /// This rank's batches for the current epoch.
  const std::vector<Batch>& batches() const { return batches_; }
  /// Batch count of every rank this epoch (index = rank); ranks can differ with even_batches=false.
  const std::vector<int64_t>& batches_per_rank() const { return counts_; }

 private:
  int64_t size_;
  int64_t data_seed_;
  ShardOptions options_;
  bool shuffle_;
  std::vector<Batch> batches_;
  std::vector<int64_t> counts_;
};

}  // namespace parity::config
