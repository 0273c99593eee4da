#include <gtest/gtest.h>
#include <parity/config/sampler.h>

#include <algorithm>
#include <fstream>
#include <nlohmann/json.hpp>
#include <numeric>
#include <set>

namespace parity::config {
namespace {

TEST(EpochPermutation, IsAPermutationAndDependsOnlyOnTheSeed) {
  auto a = epoch_permutation(1000, 42);
  auto b = epoch_permutation(1000, 42);
  auto c = epoch_permutation(1000, 43);
  EXPECT_EQ(a, b);
  EXPECT_NE(a, c);
  auto sorted = a;
  std::sort(sorted.begin(), sorted.end());
  std::vector<int64_t> iota(1000);
  std::iota(iota.begin(), iota.end(), 0);
  EXPECT_EQ(sorted, iota);
}

ShardOptions opts(int64_t b, int w, int r) {
  ShardOptions o;
  o.batch_size = b;
  o.num_replicas = w;
  o.rank = r;
  return o;
}

TEST(DistributedBatchSampler, RanksShareOneOrderAndCoverTheEpochExactlyOnce) {
  const int64_t n = 96;
  const int w = 4;
  for (int epoch = 0; epoch < 3; ++epoch) {
    std::vector<int64_t> seen;
    for (int r = 0; r < w; ++r) {
      DistributedBatchSampler s(n, 5, opts(8, w, r));
      s.set_epoch(epoch);
      for (const auto& batch : s.batches()) seen.insert(seen.end(), batch.begin(), batch.end());
    }
    std::set<int64_t> unique(seen.begin(), seen.end());
    EXPECT_EQ(seen.size(), static_cast<size_t>(n));
    EXPECT_EQ(unique.size(), static_cast<size_t>(n));
  }
}

TEST(DistributedBatchSampler, RankRTakesBatchesRPlusKW) {
  const int64_t n = 64;
  const auto perm = epoch_permutation(n, 11 + 2);  // data_seed 11, epoch 2
  DistributedBatchSampler s(n, 11, opts(8, 2, 1));
  s.set_epoch(2);
  ASSERT_EQ(s.batches().size(), 4u);
  for (size_t k = 0; k < 4; ++k) {
    std::vector<int64_t> expected(perm.begin() + static_cast<long>((2 * k + 1) * 8),
                                  perm.begin() + static_cast<long>((2 * k + 2) * 8));
    EXPECT_EQ(s.batches()[k], expected) << "batch " << k;
  }
}

TEST(DistributedBatchSampler, OrderChangesEveryEpoch) {
  DistributedBatchSampler s(100, 3, opts(10, 1, 0));
  s.set_epoch(0);
  auto e0 = s.batches();
  s.set_epoch(1);
  auto e1 = s.batches();
  s.set_epoch(0);
  EXPECT_EQ(s.batches(), e0);
  EXPECT_NE(e0, e1);
}

TEST(DistributedBatchSampler, UnshuffledFollowsTheDatasetOrder) {
  DistributedBatchSampler s(10, 0, opts(3, 2, 1), SampleOrder::kSequential);
  ASSERT_EQ(s.batches().size(), 2u);
  EXPECT_EQ(s.batches()[0], (Batch{3, 4, 5}));
  EXPECT_EQ(s.batches()[1], (Batch{9, 0, 1}));
}

}  // namespace
}  // namespace parity::config

namespace parity::config {
namespace {

// Golden values from PyTorch itself (scripts/device/accelerate_golden.py): the shuffle a user's
// Python training script gets from torch.randperm with a seeded generator.
TEST(EpochPermutation, MatchesPyTorchsRandperm) {
  std::ifstream in(PARITY_TEST_DATA "/torch_randperm.json");
  ASSERT_TRUE(in.good());
  const auto golden = nlohmann::json::parse(in);
  int checked = 0;
  for (const auto& p : golden["perms"]) {
    const int64_t n = p["n"];
    const int64_t seed = p["seed"];
    const auto perm = epoch_permutation(n, seed);
    const auto head = p["head"].get<std::vector<int64_t>>();
    ASSERT_GE(perm.size(), head.size());
    EXPECT_TRUE(std::equal(head.begin(), head.end(), perm.begin()))
        << "n=" << n << " seed=" << seed;
    int64_t sum_sq = 0;
    for (size_t i = 0; i < perm.size(); ++i) sum_sq += static_cast<int64_t>(i) * perm[i];
    EXPECT_EQ(sum_sq, p["sum_sq"].get<int64_t>()) << "n=" << n << " seed=" << seed;
    ++checked;
  }
  EXPECT_EQ(checked, 30);
}

}  // namespace
}  // namespace parity::config
