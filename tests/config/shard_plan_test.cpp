#include <gtest/gtest.h>
#include <parity/config/run_config.h>
#include <parity/config/shard_plan.h>

#include <algorithm>
#include <numeric>
#include <random>
#include <set>
#include <string>

namespace parity::config {
namespace {

std::vector<int64_t> iota(int64_t n) {
  std::vector<int64_t> v(static_cast<size_t>(n));
  std::iota(v.begin(), v.end(), 0);
  return v;
}

ShardOptions opts(int64_t b, int w, int r, bool split, bool even, bool drop_last) {
  ShardOptions o;
  o.batch_size = b;
  o.num_replicas = w;
  o.rank = r;
  o.split_batches = split;
  o.even_batches = even;
  o.drop_last = drop_last;
  return o;
}

// A line-by-line transcription of Accelerate's BatchSamplerShard (torch BatchSampler underneath),
// kept deliberately naive: Python lists, Python slicing, the same variable names.
std::vector<Batch> torch_batch_sampler(const std::vector<int64_t>& order, int64_t b,
                                       bool drop_last) {
  std::vector<Batch> batches;
  Batch batch;
  for (int64_t idx : order) {
    batch.push_back(idx);
    if (static_cast<int64_t>(batch.size()) == b) {
      batches.push_back(batch);
      batch.clear();
    }
  }
  if (!batch.empty() && !drop_last) batches.push_back(batch);
  return batches;
}

Batch py_slice(const Batch& v, int64_t begin, int64_t end) {
  const int64_t n = static_cast<int64_t>(v.size());
  begin = std::min(begin, n);
  end = std::max(begin, std::min(end, n));
  return Batch(v.begin() + begin, v.begin() + end);
}

std::vector<Batch> reference(const std::vector<int64_t>& order, const ShardOptions& o) {
  const int64_t batch_size = o.batch_size, num_processes = o.num_replicas;
  const int64_t process_index = o.rank;
  std::vector<Batch> out;
  const std::vector<Batch> sampler = torch_batch_sampler(order, batch_size, o.drop_last);
  if (o.split_batches) {  // _iter_with_split
    Batch initial_data, batch;
    const int64_t batch_length = batch_size / num_processes;
    for (size_t idx = 0; idx < sampler.size(); ++idx) {
      batch = sampler[idx];
      if (idx == 0) initial_data = batch;
      if (static_cast<int64_t>(batch.size()) == batch_size) {
        out.push_back(
            py_slice(batch, batch_length * process_index, batch_length * (process_index + 1)));
      }
    }
    if (!o.drop_last && !initial_data.empty() && static_cast<int64_t>(batch.size()) < batch_size) {
      if (!o.even_batches) {
        if (static_cast<int64_t>(batch.size()) > batch_length * process_index) {
          out.push_back(
              py_slice(batch, batch_length * process_index, batch_length * (process_index + 1)));
        }
      } else {
        while (static_cast<int64_t>(initial_data.size()) < batch_size) {
          Batch copy = initial_data;
          initial_data.insert(initial_data.end(), copy.begin(), copy.end());
        }
        batch.insert(batch.end(), initial_data.begin(), initial_data.end());
        out.push_back(
            py_slice(batch, batch_length * process_index, batch_length * (process_index + 1)));
      }
    }
    return out;
  }
  // _iter_with_no_split
  Batch initial_data, batch_to_yield, batch;
  int64_t idx = 0;
  for (size_t i = 0; i < sampler.size(); ++i) {
    idx = static_cast<int64_t>(i);
    batch = sampler[i];
    if (!o.drop_last && idx < num_processes)
      initial_data.insert(initial_data.end(), batch.begin(), batch.end());
    if (idx % num_processes == process_index) batch_to_yield = batch;
    if (idx % num_processes == num_processes - 1 &&
        static_cast<int64_t>(batch.size()) == batch_size) {
      out.push_back(batch_to_yield);
      batch_to_yield.clear();
    }
  }
  if (!o.drop_last && !initial_data.empty()) {
    if (!o.even_batches) {
      if (!batch_to_yield.empty()) out.push_back(batch_to_yield);
    } else {
      if (static_cast<int64_t>(batch_to_yield.size()) == batch_size) out.push_back(batch_to_yield);
      while (static_cast<int64_t>(initial_data.size()) < num_processes * batch_size) {
        Batch copy = initial_data;
        initial_data.insert(initial_data.end(), copy.begin(), copy.end());
      }
      if (static_cast<int64_t>(batch.size()) == batch_size) {
        batch.clear();
        idx += 1;
      }
      int64_t cycle_index = 0;
      while (idx % num_processes != 0 || !batch.empty()) {
        const int64_t end_index = cycle_index + batch_size - static_cast<int64_t>(batch.size());
        Batch extra = py_slice(initial_data, cycle_index, end_index);
        batch.insert(batch.end(), extra.begin(), extra.end());
        if (idx % num_processes == process_index) out.push_back(batch);
        cycle_index = end_index;
        batch.clear();
        idx += 1;
      }
    }
  }
  return out;
}

using Table = std::vector<std::vector<Batch>>;  // [rank][batch]

Table shard_all(int64_t n, int64_t b, int w, bool split, bool even, bool drop_last) {
  Table t;
  for (int r = 0; r < w; ++r)
    t.push_back(shard_batches(iota(n), opts(b, w, r, split, even, drop_last)));
  return t;
}

TEST(ShardPlan, DesignTableNoSplit) {
  EXPECT_EQ(shard_all(10, 3, 2, false, true, false),
            (Table{{{0, 1, 2}, {6, 7, 8}}, {{3, 4, 5}, {9, 0, 1}}}));
  EXPECT_EQ(shard_all(10, 3, 2, false, false, false),
            (Table{{{0, 1, 2}, {6, 7, 8}}, {{3, 4, 5}, {9}}}));
  EXPECT_EQ(shard_all(10, 3, 2, false, true, true), (Table{{{0, 1, 2}}, {{3, 4, 5}}}));
  EXPECT_EQ(shard_all(10, 3, 2, false, false, true), (Table{{{0, 1, 2}}, {{3, 4, 5}}}));
}

TEST(ShardPlan, DesignTableSplit) {
  EXPECT_EQ(shard_all(10, 4, 2, true, true, false),
            (Table{{{0, 1}, {4, 5}, {8, 9}}, {{2, 3}, {6, 7}, {0, 1}}}));
  EXPECT_EQ(shard_all(10, 4, 2, true, false, false),
            (Table{{{0, 1}, {4, 5}, {8, 9}}, {{2, 3}, {6, 7}}}));
  EXPECT_EQ(shard_all(10, 4, 2, true, true, true), (Table{{{0, 1}, {4, 5}}, {{2, 3}, {6, 7}}}));
}

TEST(ShardPlan, SplitRefusesBatchThatDoesNotDivide) {
  try {
    shard_batches(iota(10), opts(3, 2, 0, true, true, false));
    FAIL() << "expected ConfigError";
  } catch (const ConfigError& e) {
    EXPECT_EQ(e.field(), "per_device_batch_size");
    EXPECT_NE(std::string(e.what()).find("3 does not divide by 2"), std::string::npos) << e.what();
  }
  EXPECT_THROW(batches_per_rank(10, opts(3, 2, 0, true, true, false)), ConfigError);
}

TEST(ShardPlan, RefusesBadOptions) {
  EXPECT_THROW(shard_batches(iota(4), opts(0, 1, 0, false, true, false)), ConfigError);
  EXPECT_THROW(shard_batches(iota(4), opts(2, 0, 0, false, true, false)), ConfigError);
  EXPECT_THROW(shard_batches(iota(4), opts(2, 2, 2, false, true, false)), ConfigError);
  EXPECT_THROW(shard_batches(iota(4), opts(2, 2, -1, false, true, false)), ConfigError);
}

TEST(ShardPlan, UsesTheOrderNotThePositions) {
  const std::vector<int64_t> order{7, 3, 9, 1, 0};
  EXPECT_EQ(shard_batches(order, opts(2, 2, 1, false, true, false)),
            (std::vector<Batch>{{9, 1}, {3, 9}}));
  EXPECT_EQ(shard_batches(order, opts(2, 2, 0, false, true, false)),
            (std::vector<Batch>{{7, 3}, {0, 7}}));
}

TEST(ShardPlan, TinyDatasetsCycleThroughTheOrder) {
  // Fewer samples than one global batch: Accelerate doubles its initial data until it is long
  // enough, which is the same as cycling through the order.
  EXPECT_EQ(shard_all(2, 3, 3, false, true, false), (Table{{{0, 1, 0}}, {{1, 0, 1}}, {{0, 1, 0}}}));
  EXPECT_EQ(shard_all(3, 4, 2, true, true, false), (Table{{{0, 1}}, {{2, 0}}}));
  EXPECT_EQ(shard_all(3, 4, 2, true, false, false), (Table{{{0, 1}}, {{2}}}));
  EXPECT_EQ(shard_all(1, 4, 4, true, false, false), (Table{{{0}}, {}, {}, {}}));
  EXPECT_EQ(shard_all(0, 4, 2, false, true, false), (Table{{}, {}}));
  EXPECT_EQ(shard_all(0, 4, 2, true, true, false), (Table{{}, {}}));
}

struct Case {
  int64_t n, b;
  int w;
  bool split, even, drop_last;
  std::string str() const {
    return "N=" + std::to_string(n) + " B=" + std::to_string(b) + " W=" + std::to_string(w) +
           (split ? " split" : "") + (even ? " even" : " not-even") +
           (drop_last ? " drop_last" : "");
  }
};

std::vector<Case> random_cases(int count) {
  std::mt19937_64 rng(20240611);
  auto pick = [&](int64_t lo, int64_t hi) {
    return std::uniform_int_distribution<int64_t>(lo, hi)(rng);
  };
  std::vector<Case> cases;
  while (static_cast<int>(cases.size()) < count) {
    Case c;
    // W >= 2: a single process is not sharded (OneProcessIsNotShardedNorPadded).
    c.w = static_cast<int>(pick(2, 9));
    c.split = pick(0, 1) == 1;
    c.b = c.split ? c.w * pick(1, 6) : pick(1, 12);
    c.n = pick(0, 3) == 0 ? pick(0, c.b * c.w) : pick(0, 200);  // many tiny datasets too
    c.even = pick(0, 1) == 1;
    c.drop_last = pick(0, 2) == 0;
    cases.push_back(c);
  }
  return cases;
}

TEST(ShardPlan, MatchesAccelerateTranscriptionOnRandomCases) {
  std::mt19937_64 rng(7);
  for (const Case& c : random_cases(3000)) {
    std::vector<int64_t> order = iota(c.n);
    std::shuffle(order.begin(), order.end(), rng);
    std::vector<int64_t> expected_counts;
    for (int r = 0; r < c.w; ++r) {
      const ShardOptions o = opts(c.b, c.w, r, c.split, c.even, c.drop_last);
      const std::vector<Batch> expected = reference(order, o);
      ASSERT_EQ(shard_batches(order, o), expected) << c.str() << " rank " << r;
      expected_counts.push_back(static_cast<int64_t>(expected.size()));
    }
    ASSERT_EQ(batches_per_rank(c.n, opts(c.b, c.w, 0, c.split, c.even, c.drop_last)),
              expected_counts)
        << c.str();
  }
}

TEST(ShardPlan, PropertiesOnRandomCases) {
  for (const Case& c : random_cases(2000)) {
    const Table t = shard_all(c.n, c.b, c.w, c.split, c.even, c.drop_last);
    const int64_t slice = c.split ? c.b / c.w : c.b;
    std::multiset<int64_t> seen;
    for (const auto& rank : t) {
      for (const Batch& batch : rank) {
        seen.insert(batch.begin(), batch.end());
        ASSERT_LE(static_cast<int64_t>(batch.size()), slice) << c.str();
        ASSERT_FALSE(batch.empty()) << c.str();
      }
    }
    if (c.even || c.drop_last) {
      // Every rank takes the same number of full batches: no collective can hang.
      for (const auto& rank : t) {
        ASSERT_EQ(rank.size(), t[0].size()) << c.str();
        for (const Batch& batch : rank)
          ASSERT_EQ(static_cast<int64_t>(batch.size()), slice) << c.str();
      }
    }
    if (c.even && !c.drop_last) {
      // Nothing is lost: the union covers every index.
      for (int64_t i = 0; i < c.n; ++i)
        ASSERT_EQ(seen.count(i) > 0, true) << c.str() << " index " << i;
    }
    if (!c.even && !c.drop_last) {
      // Without padding nothing repeats and nothing is lost.
      ASSERT_EQ(static_cast<int64_t>(seen.size()), c.n) << c.str();
      ASSERT_EQ(std::set<int64_t>(seen.begin(), seen.end()).size(), seen.size()) << c.str();
    }
    for (int64_t i : seen) ASSERT_TRUE(i >= 0 && i < c.n) << c.str();
  }
}

TEST(ShardBatches, OneProcessIsNotShardedNorPadded) {
  std::vector<int64_t> order(10);
  for (int64_t i = 0; i < 10; ++i) order[static_cast<size_t>(i)] = i;
  ShardOptions o;
  o.batch_size = 4;
  o.num_replicas = 1;
  for (bool split : {false, true}) {
    o.split_batches = split;
    o.drop_last = false;
    EXPECT_EQ(shard_batches(order, o), (std::vector<Batch>{{0, 1, 2, 3}, {4, 5, 6, 7}, {8, 9}}));
    EXPECT_EQ(batches_per_rank(10, o), (std::vector<int64_t>{3}));
    o.drop_last = true;
    EXPECT_EQ(shard_batches(order, o), (std::vector<Batch>{{0, 1, 2, 3}, {4, 5, 6, 7}}));
    EXPECT_EQ(batches_per_rank(10, o), (std::vector<int64_t>{2}));
  }
}

}  // namespace
}  // namespace parity::config
