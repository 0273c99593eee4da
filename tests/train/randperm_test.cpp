// epoch_permutation (parity_config, torch-free) against the randperm of the LibTorch this build
// links: the same order the trainer would get from torch itself. The torch-free half of the
// sampler's tests is tests/config/sampler_test.cpp.

#include <gtest/gtest.h>
#include <parity/config/sampler.h>
#include <torch/torch.h>

#include <algorithm>
#include <vector>

namespace parity::train {
namespace {

TEST(EpochPermutation, MatchesThisLibTorchsRandperm) {
  for (int64_t n : std::vector<int64_t>{1, 2, 3, 17, 1000, 60000}) {
    for (int64_t seed : std::vector<int64_t>{0, 1, 7, 42, 4294967297LL, -3}) {
      auto gen = at::detail::createCPUGenerator(static_cast<uint64_t>(seed));
      auto expected = torch::randperm(n, gen, torch::kInt64);
      const auto perm = config::epoch_permutation(n, seed);
      ASSERT_EQ(static_cast<int64_t>(perm.size()), n);
      EXPECT_TRUE(std::equal(perm.begin(), perm.end(), expected.data_ptr<int64_t>()))
          << "n=" << n << " seed=" << seed;
    }
  }
}

}  // namespace
}  // namespace parity::train
