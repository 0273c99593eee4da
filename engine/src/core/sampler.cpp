#include <parity/engine/sampler.h>

#include <torch/torch.h>

#include <numeric>

namespace parity::engine {

std::vector<int64_t> epoch_permutation(int64_t n, int64_t seed) {
  auto gen = at::detail::createCPUGenerator(static_cast<uint64_t>(seed));
  auto perm = torch::randperm(n, gen, torch::kInt64);
  const int64_t* p = perm.data_ptr<int64_t>();
  return std::vector<int64_t>(p, p + n);
}

DistributedBatchSampler::DistributedBatchSampler(int64_t dataset_size, int64_t data_seed,
                                                 ShardOptions options, bool shuffle)
    : size_(dataset_size), data_seed_(data_seed), options_(options), shuffle_(shuffle) {
  counts_ = parity::engine::batches_per_rank(size_, options_);
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

}  // namespace parity::engine
