// shard_batches against Hugging Face Accelerate's own BatchSamplerShard: 400 random cases recorded
// from accelerate 1.15 by scripts/device/accelerate_golden.py (PyPI is not reachable here).

#include <gtest/gtest.h>
#include <parity/config/shard_plan.h>

#include <fstream>
#include <nlohmann/json.hpp>

namespace parity::config {
namespace {

TEST(AccelerateGolden, ShardBatchesMatchesBatchSamplerShard) {
  std::ifstream in(PARITY_TEST_DATA "/accelerate_shards.json");
  ASSERT_TRUE(in.good()) << PARITY_TEST_DATA "/accelerate_shards.json";
  const auto golden = nlohmann::json::parse(in);
  std::vector<int64_t> order;
  int cases = 0;
  for (const auto& c : golden["cases"]) {
    const int64_t n = c["n"];
    order.resize(static_cast<size_t>(n));
    for (int64_t i = 0; i < n; ++i) order[static_cast<size_t>(i)] = i;
    ShardOptions o;
    o.batch_size = c["batch_size"];
    o.num_replicas = c["num_replicas"];
    o.split_batches = c["split_batches"];
    o.even_batches = c["even_batches"];
    o.drop_last = c["drop_last"];
    const auto counts = batches_per_rank(n, o);
    for (int r = 0; r < o.num_replicas; ++r) {
      o.rank = r;
      const auto expected = c["ranks"][static_cast<size_t>(r)].get<std::vector<Batch>>();
      EXPECT_EQ(shard_batches(order, o), expected)
          << "N=" << n << " B=" << o.batch_size << " W=" << o.num_replicas << " rank " << r
          << " split=" << o.split_batches << " even=" << o.even_batches
          << " drop_last=" << o.drop_last;
      EXPECT_EQ(counts[static_cast<size_t>(r)], static_cast<int64_t>(expected.size()));
    }
    ++cases;
  }
  EXPECT_EQ(cases, 400);
}

}  // namespace
}  // namespace parity::config
