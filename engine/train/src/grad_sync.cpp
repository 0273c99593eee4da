#include <parity/train/grad_sync.h>
#include <parity/train/train_error.h>
#include <torch/csrc/autograd/utils/lambda_post_hook.h>

#include <algorithm>
#include <cstdlib>
#include <limits>
#include <numeric>
#include <string>

namespace parity::train {

OverlapMode overlap_mode_from_environment() {
  const char* value = std::getenv(kEnvOverlap);
  if (!value || !*value) return OverlapMode::kAuto;
  const std::string v(value);
  if (v == "0") return OverlapMode::kOff;
  if (v == "1") return OverlapMode::kOn;
  throw TrainError(std::string(kEnvOverlap) + "='" + v + "' is not 0 or 1");
}

int64_t bucket_bytes_from_environment() {
  const char* value = std::getenv(kEnvBucketKb);
  if (!value || !*value) return kDefaultBucketBytes;
  char* end = nullptr;
  const long long kb = std::strtoll(value, &end, 10);
  if (*end != '\0' || kb <= 0) {
    throw TrainError(std::string(kEnvBucketKb) + "='" + value + "' is not a positive integer");
  }
  return static_cast<int64_t>(kb) * 1024;
}

GradientSync::GradientSync(std::vector<torch::Tensor> params, c10::intrusive_ptr<Collectives> pg,
                           int world_size, int rank, GradientSyncOptions options)
    : GradientSync(std::move(params),
                   pg ? std::make_shared<ProcessGroupTransport>(std::move(pg)) : nullptr,
                   world_size, rank, options) {}

GradientSync::GradientSync(std::vector<torch::Tensor> params,
                           std::shared_ptr<GradTransport> transport, int world_size, int rank,
                           GradientSyncOptions options)
    : params_(std::move(params)),
      transport_(std::move(transport)),
      world_size_(world_size),
      rank_(rank),
      bucket_bytes_(options.bucket_bytes) {
  if (!transport_) return;  // one process: sync() touches no buffer
  auto plan = plan_buckets(params_, bucket_bytes_);
  // Auto stays off on CUDA: there the hooks run on the autograd engine's device thread and
  // streams, which no test here covers (this build's LibTorch is CPU-only).
  const bool cuda = !params_.empty() && params_[0].is_cuda();
  overlapped_ = options.overlap == OverlapMode::kOn ||
                (options.overlap == OverlapMode::kAuto && plan.size() >= 2 && !cuda);
  if (!overlapped_) {
    lay_out(std::move(plan));
    return;
  }
  std::vector<size_t> reversed(params_.size());
  std::iota(reversed.rbegin(), reversed.rend(), size_t{0});
  lay_out(plan_buckets(params_, reversed, bucket_bytes_));
  metrics_flat_ =
      torch::zeros({metrics_slots()},
                   params_.empty() ? torch::TensorOptions(torch::kFloat32) : params_[0].options());
  register_hooks();
}

GradientSync::~GradientSync() {
  for (auto& [accumulator, key] : hooks_) accumulator->del_post_hook(key);
}

// Buffers for `plan`; after the backward, the metrics ride at the end of the last one.
void GradientSync::lay_out(std::vector<std::vector<size_t>> plan) {
  if (overlapped_) {
    // The metrics have their own bucket: an empty one (no parameters) would be a collective for
    // nothing.
    plan.erase(std::remove_if(plan.begin(), plan.end(), [](const auto& b) { return b.empty(); }),
               plan.end());
  }
  buckets_.clear();
  flat_.clear();
  where_.assign(params_.size(), {0, 0});
  for (auto& indices : plan) {
    Bucket bucket;
    for (size_t i : indices) {
      where_[i] = {buckets_.size(), bucket.offsets.size()};
      bucket.offsets.push_back(bucket.numel);
      bucket.numel += params_[i].numel();
    }
    bucket.params = std::move(indices);
    buckets_.push_back(std::move(bucket));
  }
  for (size_t b = 0; b < buckets_.size(); ++b) {
    int64_t extra = (!overlapped_ && b + 1 == buckets_.size()) ? metrics_slots() : 0;
    flat_.push_back(torch::zeros(
        {buckets_[b].numel + extra},
        params_.empty() ? torch::TensorOptions(torch::kFloat32) : params_[0].options()));
  }
  reset_step();
}

std::vector<std::vector<size_t>> GradientSync::plan_buckets(
    const std::vector<torch::Tensor>& params, int64_t bucket_bytes) {
  std::vector<size_t> order(params.size());
  std::iota(order.begin(), order.end(), size_t{0});
  return plan_buckets(params, order, bucket_bytes);
}

std::vector<std::vector<size_t>> GradientSync::plan_buckets(
    const std::vector<torch::Tensor>& params, const std::vector<size_t>& order,
    int64_t bucket_bytes) {
  std::vector<std::vector<size_t>> buckets;
  std::vector<size_t> current;
  int64_t numel = 0;
  for (size_t i : order) {
    const int64_t bytes = params[i].numel() * static_cast<int64_t>(sizeof(float));
    if (!current.empty() && (numel * 4 + bytes) > bucket_bytes) {
      buckets.push_back(std::move(current));
      current = {};
      numel = 0;
    }
    current.push_back(i);
    numel += params[i].numel();
  }
  buckets.push_back(std::move(current));  // possibly empty: it still carries the metrics
  return buckets;
}

std::vector<std::vector<size_t>> GradientSync::bucket_params() const {
  std::vector<std::vector<size_t>> out;
  for (const auto& b : buckets_) out.push_back(b.params);
  return out;
}

void broadcast_parameters(const std::vector<torch::Tensor>& params, Collectives& pg) {
  torch::NoGradGuard no_grad;
  // One flat broadcast per dtype (batch norm's num_batches_tracked is int64).
  std::vector<c10::ScalarType> dtypes;
  for (const auto& p : params) {
    if (std::find(dtypes.begin(), dtypes.end(), p.scalar_type()) == dtypes.end()) {
      dtypes.push_back(p.scalar_type());
    }
  }
  for (const auto dtype : dtypes) {
    std::vector<torch::Tensor> group;
    for (const auto& p : params)
      if (p.scalar_type() == dtype) group.push_back(p);
    std::vector<torch::Tensor> parts;
    for (const auto& p : group) parts.push_back(p.reshape({-1}));
    std::vector<torch::Tensor> flat{torch::cat(parts)};
    pg.broadcast(flat)->wait();
    int64_t offset = 0;
    for (const auto& p : group) {
      p.copy_(flat[0].narrow(0, offset, p.numel()).view(p.sizes()));
      offset += p.numel();
    }
  }
}

// A post hook on each parameter's gradient accumulator, as the Reducer's autograd_hook: it runs
// after the gradient is accumulated into .grad, so accumulated micro-batches are included. The
// accumulators are kept alive here (a parameter only holds a weak reference to its own).
void GradientSync::register_hooks() {
  hooked_.assign(params_.size(), 0);
  for (size_t i = 0; i < params_.size(); ++i) {
    if (!params_[i].requires_grad()) continue;
    auto accumulator = torch::autograd::impl::grad_accumulator(params_[i]);
    if (!accumulator) continue;
    const uintptr_t key =
        accumulator->add_post_hook(std::make_unique<torch::autograd::utils::LambdaPostHook>(
            [this, i](const torch::autograd::variable_list& outputs,
                      const torch::autograd::variable_list& /*inputs*/) {
              on_gradient_ready(i);
              return outputs;
            }));
    hooks_.emplace_back(std::move(accumulator), key);
    hooked_[i] = 1;
  }
  reset_step();
}

void GradientSync::reset_step() {
  ready_.assign(params_.size(), 0);
  for (auto& bucket : buckets_) {
    bucket.started = false;
    bucket.waiting = 0;
    for (size_t i : bucket.params) bucket.waiting += hooked_.empty() ? 0 : hooked_[i];
  }
  next_bucket_ = 0;
  started_ = 0;
  armed_ = false;
}

// Runs on the thread that runs the backward (the trainer's on the CPU).
void GradientSync::on_gradient_ready(size_t param) {
  if (!armed_) return;
  if (!rebuilt_) arrivals_.push_back(param);
  const auto [b, slot] = where_[param];
  Bucket& bucket = buckets_[b];
  if (bucket.started) {
    throw TrainError("gradient sync: parameter " + std::to_string(param) +
                     " received a second gradient after its bucket was all-reduced (a "
                     "parameter used in two backward passes of one syncing micro-batch)");
  }
  {
    torch::NoGradGuard no_grad;
    const auto& p = params_[param];
    flat_[b].narrow(0, bucket.offsets[slot], p.numel()).copy_(p.grad().reshape({-1}));
  }
  if (!ready_[param]) {
    ready_[param] = 1;
    --bucket.waiting;
  }
  // In bucket order only: a later bucket that is complete waits for the earlier ones.
  while (next_bucket_ < buckets_.size() && buckets_[next_bucket_].waiting == 0) {
    start_bucket(next_bucket_, /*participated=*/true);
  }
}

// The parameters whose gradient no hook copied: their .grad (accumulated by earlier micro-batches,
// or not hooked), or zeros on a rank without a micro-batch or for a parameter without gradient.
void GradientSync::fill_bucket(size_t b, bool participated) {
  torch::NoGradGuard no_grad;
  const Bucket& bucket = buckets_[b];
  for (size_t k = 0; k < bucket.params.size(); ++k) {
    const size_t i = bucket.params[k];
    if (!ready_.empty() && ready_[i]) continue;
    const auto& p = params_[i];
    auto view = flat_[b].narrow(0, bucket.offsets[k], p.numel());
    if (p.grad().defined() && participated) {
      view.copy_(p.grad().reshape({-1}));
    } else {
      view.zero_();
    }
  }
}

void GradientSync::start_bucket(size_t b, bool participated) {
  fill_bucket(b, participated);
  buckets_[b].started = true;
  ++started_;
  next_bucket_ = b + 1;
  transport_->start(flat_[b]);
}

GlobalStepMetrics GradientSync::sync(const LocalStepMetrics& local) {
  if (!transport_) {
    // One process: the gradients already are the global ones; no copies.
    GlobalStepMetrics out;
    out.rank_losses = {local.loss};
    out.loss = local.loss;
    out.participants = 1;
    out.samples = local.samples;
    return out;
  }
  return overlapped_ ? sync_overlapped(local) : sync_after_backward(local);
}

GlobalStepMetrics GradientSync::sync_after_backward(const LocalStepMetrics& local) {
  const int64_t metrics_at = buckets_.back().numel;
  for (size_t b = 0; b < buckets_.size(); ++b) fill_bucket(b, local.participated);
  write_metrics(flat_.back(), metrics_at, local);
  transport_->allreduce_sum(flat_);
  const GlobalStepMetrics out = read_metrics(flat_.back(), metrics_at);
  copy_back();
  return out;
}

// Every rank starts every bucket, in bucket order, then the metrics: the same collectives in the
// same order whether a bucket was started by a hook or here.
GlobalStepMetrics GradientSync::sync_overlapped(const LocalStepMetrics& local) {
  armed_ = false;
  for (size_t b = next_bucket_; b < buckets_.size(); ++b) start_bucket(b, local.participated);
  write_metrics(metrics_flat_, 0, local);
  transport_->start(metrics_flat_);
  transport_->wait_all();
  const GlobalStepMetrics out = read_metrics(metrics_flat_, 0);
  copy_back();
  if (!rebuilt_) rebuild_buckets();
  reset_step();
  return out;
}

// Metrics slots: [loss of rank 0..W-1][participation of rank 0..W-1][samples]. Losses go in as
// float32 — exact enough for a curve, and the bucket stays one dtype and one collective.
void GradientSync::write_metrics(torch::Tensor& flat, int64_t at,
                                 const LocalStepMetrics& local) const {
  // Filled on the CPU and copied in: the bucket lives on the GPU under NCCL.
  auto metrics = torch::zeros({metrics_slots()}, torch::kFloat32);
  auto* m = metrics.data_ptr<float>();
  m[rank_] = local.participated ? static_cast<float>(local.loss) : 0.0f;
  m[world_size_ + rank_] = local.participated ? 1.0f : 0.0f;
  m[samples_slot()] = static_cast<float>(local.samples);
  torch::NoGradGuard no_grad;
  flat.narrow(0, at, metrics_slots()).copy_(metrics);
}

GlobalStepMetrics GradientSync::read_metrics(const torch::Tensor& flat, int64_t at) const {
  GlobalStepMetrics out;
  const auto reduced = flat.narrow(0, at, metrics_slots()).to(torch::kCPU);
  const auto* m = reduced.data_ptr<float>();
  double loss_sum = 0;
  for (int r = 0; r < world_size_; ++r) {
    const bool took_part = m[world_size_ + r] > 0.5f;
    out.rank_losses.push_back(took_part ? m[r] : std::numeric_limits<double>::quiet_NaN());
    if (took_part) {
      ++out.participants;
      loss_sum += m[r];
    }
  }
  out.samples = static_cast<int64_t>(m[samples_slot()] + 0.5f);
  out.loss = out.participants > 0 ? loss_sum / out.participants : 0.0;
  return out;
}

// Divided by the world size even when some ranks had no micro-batch (even_batches=false): those
// ranks added zeros, as ranks that have joined do under DDP's Join (Accelerate's
// join_uneven_inputs), whose hook divides by the initial world size by default.
void GradientSync::copy_back() {
  const double divisor = world_size_;
  torch::NoGradGuard no_grad;
  for (size_t b = 0; b < buckets_.size(); ++b) {
    const Bucket& bucket = buckets_[b];
    for (size_t k = 0; k < bucket.params.size(); ++k) {
      auto& p = params_[bucket.params[k]];
      auto view = flat_[b].narrow(0, bucket.offsets[k], p.numel()).view(p.sizes());
      if (!p.grad().defined()) p.mutable_grad() = torch::zeros_like(p);
      p.mutable_grad().copy_(view).div_(divisor);
    }
  }
}

// Once, after the first step: the buckets re-planned in the order rank 0's gradients arrived
// (then those that never arrived, in reverse registration order). Rank 0's order reaches every
// rank through the transport as a sum with the others' zeros (indices + 1, exact in fp32), so
// every rank lays out the same buckets, even a rank that did no micro-batch.
void GradientSync::rebuild_buckets() {
  rebuilt_ = true;
  const auto n = static_cast<int64_t>(params_.size());
  if (n == 0) return;
  auto order = torch::zeros({n}, torch::kFloat32);
  if (rank_ == 0) {
    auto* o = order.data_ptr<float>();
    std::vector<char> seen(params_.size(), 0);
    int64_t k = 0;
    for (size_t i : arrivals_) {
      if (seen[i]) continue;
      seen[i] = 1;
      o[k++] = static_cast<float>(i + 1);
    }
  }
  arrivals_.clear();
  auto wire = order.to(flat_.empty() ? torch::TensorOptions(torch::kFloat32) : flat_[0].options());
  transport_->start(wire);
  transport_->wait_all();
  const auto agreed = wire.to(torch::kCPU);
  const auto* o = agreed.data_ptr<float>();
  std::vector<size_t> arrival_order;
  std::vector<char> placed(params_.size(), 0);
  for (int64_t k = 0; k < n && o[k] > 0.5f; ++k) {
    const auto i = static_cast<size_t>(o[k] + 0.5f) - 1;
    arrival_order.push_back(i);
    placed[i] = 1;
  }
  for (size_t i = params_.size(); i-- > 0;) {
    if (!placed[i]) arrival_order.push_back(i);
  }
  lay_out(plan_buckets(params_, arrival_order, bucket_bytes_));
}

}  // namespace parity::train
