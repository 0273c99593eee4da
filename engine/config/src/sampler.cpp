#include <parity/config/sampler.h>

#include <limits>
#include <numeric>
#include <random>
#include <utility>

namespace parity::config {

// PyTorch's CPU randperm, without LibTorch: torch's CPU generator is a standard 32-bit Mersenne
// Twister seeded with the low 32 bits of the seed, and randperm_cpu is a forward Fisher-Yates that
// draws random() % (n - i) (random64() for n >= 2^32 / 20). tests/data/torch_randperm.json holds
// PyTorch's own output, which the tests compare against.
std::vector<int64_t> epoch_permutation(int64_t n, int64_t seed) {
  return RandpermGenerator(static_cast<uint64_t>(seed)).randperm(n);
}

std::vector<int64_t> RandpermGenerator::randperm(int64_t n) {
  std::vector<int64_t> r(static_cast<size_t>(std::max<int64_t>(0, n)));
  std::iota(r.begin(), r.end(), 0);
  std::mt19937& engine = engine_;
  const bool small = n < static_cast<int64_t>(std::numeric_limits<uint32_t>::max() / 20);
  for (int64_t i = 0; i + 1 < n; ++i) {
    uint64_t draw;
    if (small) {
      draw = engine();
    } else {
      const uint64_t hi = engine(), lo = engine();
      draw = (hi << 32) | lo;
    }
    const auto z = static_cast<int64_t>(draw % static_cast<uint64_t>(n - i));
    std::swap(r[static_cast<size_t>(i)], r[static_cast<size_t>(z + i)]);
  }
  return r;
}

DataOrder data_order(const RunConfig& config) {
  if (config.use_seedable_sampler) return DataOrder::kSeedable;
  return config.num_processes == 1 ? DataOrder::kGlobalGenerator : DataOrder::kUnseededGenerator;
}

std::string describe(DataOrder order) {
  switch (order) {
    case DataOrder::kSeedable:
      break;
    case DataOrder::kGlobalGenerator:
      return "Accelerate's default sampler (one process: the global generator's draws)";
    case DataOrder::kUnseededGenerator:
      return "Accelerate's default sampler (an unseeded torch.Generator())";
  }
  return "the seeded sampler (data_seed + epoch)";
}

DistributedBatchSampler::DistributedBatchSampler(int64_t dataset_size, int64_t data_seed,
                                                 ShardOptions options, SampleOrder order)
    : size_(dataset_size),
      data_seed_(data_seed),
      options_(options),
      shuffle_(order == SampleOrder::kShuffled) {
  counts_ = parity::config::batches_per_rank(size_, options_);
  set_epoch(0);
}

void DistributedBatchSampler::set_epoch(int64_t epoch) {
  std::vector<int64_t> order;
  if (shuffle_) {
    order = epoch_permutation(size_, data_seed_ + epoch);
  } else {
    order.resize(static_cast<size_t>(size_));
    std::iota(order.begin(), order.end(), 0);
  }
  batches_ = shard_batches(order, options_);
}

void DistributedBatchSampler::set_epoch_order(const std::vector<int64_t>& order) {
  batches_ = shard_batches(order, options_);
}

}  // namespace parity::config
