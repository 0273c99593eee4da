#pragma once
/// Sharding of one epoch's order across ranks, exactly as Hugging Face Accelerate's
/// `BatchSamplerShard` (accelerate/data_loader.py: `split_batches`, `even_batches`, `drop_last`),
/// checked against 400 cases recorded from Accelerate itself
/// (tests/config/accelerate_golden_test.cpp). Torch-free: the order is any index vector.

#include <cstdint>
#include <vector>

namespace parity::config {

struct ShardOptions {
  int64_t batch_size = 1;  ///< per-device batch; with split_batches the global batch
  int num_replicas = 1;
  int rank = 0;
  bool split_batches = false;
  bool even_batches = true;
  bool drop_last = false;
};

using Batch = std::vector<int64_t>;

/// The batches rank `options.rank` takes from `order`, in order. With one process nothing is
/// sharded or padded (as Accelerate, which uses BatchSamplerShard only when num_processes != 1).
/// Throws ConfigError when split_batches is set and batch_size does not divide by num_replicas.
std::vector<Batch> shard_batches(const std::vector<int64_t>& order, const ShardOptions& options);

/// Number of batches each rank gets (index = rank) for a dataset of n samples.
std::vector<int64_t> batches_per_rank(int64_t n, const ShardOptions& options);

}  // namespace parity::config
