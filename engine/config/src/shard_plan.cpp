#include <parity/config/run_config.h>
#include <parity/config/shard_plan.h>

#include <algorithm>
#include <string>

namespace parity::config {
namespace {

void check_options(const ShardOptions& o) {
  if (o.batch_size < 1) {
    throw ConfigError("per_device_batch_size", std::to_string(o.batch_size), "must be at least 1");
  }
  if (o.num_replicas < 1) {
    throw ConfigError("num_processes", std::to_string(o.num_replicas), "must be at least 1");
  }
  if (o.rank < 0 || o.rank >= o.num_replicas) {
    throw ConfigError("rank", std::to_string(o.rank),
                      "must be in [0, " + std::to_string(o.num_replicas) + ")");
  }
  if (o.split_batches && o.batch_size % o.num_replicas != 0) {
    const std::string b = std::to_string(o.batch_size), w = std::to_string(o.num_replicas);
    throw ConfigError("per_device_batch_size", b,
                      "with split_batches it is the global batch and must divide by "
                      "num_processes (" +
                          b + " does not divide by " + w + ")");
  }
}

// Padding for even_batches: indices cycle from the start of the epoch's order, the counter running
// on across every padded batch (Accelerate's `initial_data`, repeated when the data is tiny).
class Cycle {
 public:
  explicit Cycle(const std::vector<int64_t>& order) : order_(order) {}
  int64_t next() { return order_[static_cast<size_t>(i_++ % static_cast<int64_t>(order_.size()))]; }

 private:
  const std::vector<int64_t>& order_;
  int64_t i_ = 0;
};

Batch slice(const std::vector<int64_t>& order, int64_t begin, int64_t end) {
  const int64_t n = static_cast<int64_t>(order.size());
  begin = std::min(begin, n);
  end = std::min(end, n);
  return Batch(order.begin() + begin, order.begin() + end);
}

// split_batches=false: rank r takes batches r, r+W, ...; only groups of W full batches are used,
// then the tail per even_batches / drop_last.
std::vector<Batch> shard_no_split(const std::vector<int64_t>& order, const ShardOptions& o) {
  const int64_t n = static_cast<int64_t>(order.size()), b = o.batch_size, w = o.num_replicas;
  const int64_t full_groups = n / (b * w);
  std::vector<Batch> out;
  for (int64_t g = 0; g < full_groups; ++g) {
    const int64_t begin = (g * w + o.rank) * b;
    out.push_back(slice(order, begin, begin + b));
  }
  // The tail: the batches of the incomplete group (the last one possibly short), or, when the
  // batch count divides by W but the last batch is short, that whole last group.
  const int64_t tail_start = full_groups * w * b;
  if (o.drop_last || tail_start == n) return out;
  const int64_t tail_batches = (n - tail_start + b - 1) / b;  // 1..W
  const int64_t mine = tail_start + o.rank * b;
  if (!o.even_batches) {
    if (o.rank < tail_batches) out.push_back(slice(order, mine, mine + b));
    return out;
  }
  // even_batches: every rank gets a full batch from the tail; the short batch and the missing
  // batches of the group are completed by cycling from the start of the order, in rank order.
  Cycle cycle(order);
  for (int64_t r = 0; r < w; ++r) {
    const int64_t begin = tail_start + r * b;
    Batch batch = slice(order, begin, begin + b);
    while (static_cast<int64_t>(batch.size()) < b) batch.push_back(cycle.next());
    if (r == o.rank) out.push_back(std::move(batch));
  }
  return out;
}

// split_batches=true: each batch of B is cut in W slices of B/W; rank r takes slice r.
std::vector<Batch> shard_split(const std::vector<int64_t>& order, const ShardOptions& o) {
  const int64_t n = static_cast<int64_t>(order.size()), b = o.batch_size;
  const int64_t part = b / o.num_replicas, offset = o.rank * part;
  std::vector<Batch> out;
  const int64_t full = n / b;
  for (int64_t i = 0; i < full; ++i)
    out.push_back(slice(order, i * b + offset, i * b + offset + part));
  if (o.drop_last || full * b == n) return out;
  const int64_t last = full * b;
  if (!o.even_batches) {
    // Sliced as far as it goes: a short slice, or nothing for ranks past the data.
    if (n - last > offset) out.push_back(slice(order, last + offset, last + offset + part));
    return out;
  }
  Batch batch = slice(order, last, n);
  Cycle cycle(order);
  while (static_cast<int64_t>(batch.size()) < b) batch.push_back(cycle.next());
  out.emplace_back(batch.begin() + offset, batch.begin() + offset + part);
  return out;
}

// One process: Accelerate does not shard at all (prepare_data_loader uses BatchSamplerShard only
// when num_processes != 1), so the last batch is just short unless drop_last drops it.
std::vector<Batch> plain_batches(const std::vector<int64_t>& order, const ShardOptions& o) {
  const int64_t n = static_cast<int64_t>(order.size()), b = o.batch_size;
  std::vector<Batch> out;
  for (int64_t begin = 0; begin < n; begin += b) {
    if (o.drop_last && begin + b > n) break;
    out.push_back(slice(order, begin, begin + b));
  }
  return out;
}

}  // namespace

std::vector<Batch> shard_batches(const std::vector<int64_t>& order, const ShardOptions& options) {
  check_options(options);
  if (options.num_replicas == 1) return plain_batches(order, options);
  return options.split_batches ? shard_split(order, options) : shard_no_split(order, options);
}

std::vector<int64_t> batches_per_rank(int64_t n, const ShardOptions& options) {
  ShardOptions o = options;
  o.rank = 0;
  check_options(o);
  const int64_t b = o.batch_size, w = o.num_replicas;
  std::vector<int64_t> counts(static_cast<size_t>(w), 0);
  if (n <= 0) return counts;
  for (int64_t r = 0; r < w; ++r) {
    int64_t count = 0;
    if (o.split_batches) {
      const int64_t part = b / w;
      count = n / b;
      if (!o.drop_last && n % b != 0 && (o.even_batches || n % b > r * part)) ++count;
    } else {
      const int64_t batches = o.drop_last ? n / b : (n + b - 1) / b;
      count = batches / w;
      // A short last batch closing an otherwise complete group stays with its rank (even) or
      // is completed (even_batches), so only an incomplete group changes the count.
      if (!o.drop_last && batches % w != 0 && (o.even_batches || r < batches % w)) ++count;
    }
    counts[static_cast<size_t>(r)] = count;
  }
  return counts;
}

}  // namespace parity::config
