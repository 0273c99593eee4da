#include "grad_sync.h"

#include <algorithm>
#include <limits>

namespace parity::train {

GradientSync::GradientSync(std::vector<torch::Tensor> params, c10::intrusive_ptr<Collectives> pg,
                           int world_size, int rank, int64_t bucket_bytes)
    : GradientSync(std::move(params),
                   pg ? std::make_shared<ProcessGroupTransport>(std::move(pg)) : nullptr,
                   world_size, rank, bucket_bytes) {}

GradientSync::GradientSync(std::vector<torch::Tensor> params,
                           std::shared_ptr<GradTransport> transport, int world_size, int rank,
                           int64_t bucket_bytes)
    : params_(std::move(params)),
      transport_(std::move(transport)),
      world_size_(world_size),
      rank_(rank) {
  if (!transport_) return;  // one process: sync() touches no buffer
  for (auto& indices : plan_buckets(params_, bucket_bytes)) {
    Bucket bucket;
    for (size_t i : indices) bucket.numel += params_[i].numel();
    bucket.params = std::move(indices);
    buckets_.push_back(std::move(bucket));
  }
  for (size_t b = 0; b < buckets_.size(); ++b) {
    int64_t extra = (b + 1 == buckets_.size()) ? 2 * world_size_ + 1 : 0;
    flat_.push_back(torch::zeros(
        {buckets_[b].numel + extra},
        params_.empty() ? torch::TensorOptions(torch::kFloat32) : params_[0].options()));
  }
}

std::vector<std::vector<size_t>> GradientSync::plan_buckets(
    const std::vector<torch::Tensor>& params, int64_t bucket_bytes) {
  std::vector<std::vector<size_t>> buckets;
  std::vector<size_t> current;
  int64_t numel = 0;
  for (size_t i = 0; i < params.size(); ++i) {
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
  const int64_t metrics_at = buckets_.back().numel;
  // Metrics slots: [loss of rank 0..W-1][participation of rank 0..W-1][samples]. Losses go in as
  // float32 — exact enough for a curve, and the bucket stays one dtype and one collective.
  {
    torch::NoGradGuard no_grad;
    for (size_t b = 0; b < buckets_.size(); ++b) {
      auto& flat = flat_[b];
      int64_t offset = 0;
      for (size_t i : buckets_[b].params) {
        auto& p = params_[i];
        auto view = flat.narrow(0, offset, p.numel());
        if (p.grad().defined() && local.participated) {
          view.copy_(p.grad().reshape({-1}));
        } else {
          view.zero_();
        }
        offset += p.numel();
      }
    }
    // Filled on the CPU and copied in: the bucket lives on the GPU under NCCL.
    auto metrics = torch::zeros({2 * world_size_ + 1}, torch::kFloat32);
    auto* m = metrics.data_ptr<float>();
    m[rank_] = local.participated ? static_cast<float>(local.loss) : 0.0f;
    m[world_size_ + rank_] = local.participated ? 1.0f : 0.0f;
    m[2 * world_size_] = static_cast<float>(local.samples);
    flat_.back().narrow(0, metrics_at, 2 * world_size_ + 1).copy_(metrics);
  }
  transport_->allreduce_sum(flat_);
  GlobalStepMetrics out;
  const auto reduced = flat_.back().narrow(0, metrics_at, 2 * world_size_ + 1).to(torch::kCPU);
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
  out.samples = static_cast<int64_t>(m[2 * world_size_] + 0.5f);
  out.loss = out.participants > 0 ? loss_sum / out.participants : 0.0;
  // Divided by the world size even when some ranks had no micro-batch (even_batches=false): those
  // ranks added zeros, as ranks that have joined do under DDP's Join (Accelerate's
  // join_uneven_inputs), whose hook divides by the initial world size by default.
  const double divisor = world_size_;
  torch::NoGradGuard no_grad;
  for (size_t b = 0; b < buckets_.size(); ++b) {
    int64_t offset = 0;
    for (size_t i : buckets_[b].params) {
      auto& p = params_[i];
      auto view = flat_[b].narrow(0, offset, p.numel()).view(p.sizes());
      if (!p.grad().defined()) p.mutable_grad() = torch::zeros_like(p);
      p.mutable_grad().copy_(view).div_(divisor);
      offset += p.numel();
    }
  }
  return out;
}

}  // namespace parity::train
