#pragma once
/// The epoch's order and each rank's batches. Torch-free, yet the order is exactly PyTorch's
/// torch.randperm with a seeded generator (checked against PyTorch's own output), so the CLI can
/// print shard plans without loading LibTorch.

#include <parity/config/run_config.h>
#include <parity/config/shard_plan.h>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace parity::config {

/// torch.randperm(n, generator=torch.Generator().manual_seed(seed)), seed = data_seed + epoch.
std::vector<int64_t> epoch_permutation(int64_t n, int64_t seed);

/// torch.Generator()'s seed when nobody seeds it (c10's default_rng_seed_val).
inline constexpr uint64_t kDefaultGeneratorSeed = 67280421310721ULL;

/// A torch.Generator() on the CPU as randperm draws from it: a Mersenne Twister seeded with the
/// low 32 bits of the seed, whose state carries from one randperm to the next.
class RandpermGenerator {
 public:
  explicit RandpermGenerator(uint64_t seed = kDefaultGeneratorSeed)
      : engine_(static_cast<uint32_t>(seed)) {}
  /// torch.randperm(n, generator=this).
  std::vector<int64_t> randperm(int64_t n);

 private:
  std::mt19937 engine_;
};

/// Where the epoch's order comes from (Accelerate's use_seedable_sampler with the process count).
enum class DataOrder {
  kSeedable,          ///< use_seedable_sampler: randperm seeded data_seed + epoch
  kGlobalGenerator,   ///< default, one process: a seed drawn from the global generator per epoch
  kUnseededGenerator  ///< default, several processes: one unseeded torch.Generator() carried on
};
DataOrder data_order(const RunConfig& config);
/// "the seeded sampler (data_seed + epoch)", "the global generator's draws", ...
std::string describe(DataOrder order);

/// Whether a sampler shuffles each epoch or keeps the dataset's order (an evaluation's loader).
enum class SampleOrder { kShuffled, kSequential };

/// Accelerate's shuffled, sharded batch sampler for one rank. Every rank computes the same
/// permutation; set_epoch(e) reseeds with data_seed + e.
class DistributedBatchSampler {
 public:
  DistributedBatchSampler(int64_t dataset_size, int64_t data_seed, ShardOptions options,
                          SampleOrder order = SampleOrder::kShuffled);
  void set_epoch(int64_t epoch);
  /// This epoch's batches cut from `order` (a permutation of the dataset drawn elsewhere: the
  /// order of Accelerate's default sampler).
  void set_epoch_order(const std::vector<int64_t>& order);
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
