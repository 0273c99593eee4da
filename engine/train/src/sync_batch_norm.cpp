#include <parity/train/sync_batch_norm.h>

#include <cstdint>
#include <vector>

namespace parity::train {
namespace {

using torch::autograd::AutogradContext;
using torch::autograd::variable_list;

// Every dimension but the channels' (1).
std::vector<int64_t> reduce_dims(const torch::Tensor& x) {
  std::vector<int64_t> dims{0};
  for (int64_t d = 2; d < x.dim(); ++d) dims.push_back(d);
  return dims;
}

// A per-channel vector shaped to broadcast over x: [1, C, 1, ...].
torch::Tensor per_channel(const torch::Tensor& v, const torch::Tensor& x) {
  std::vector<int64_t> shape(static_cast<size_t>(x.dim()), 1);
  shape[1] = v.size(0);
  return v.reshape(shape);
}

void all_reduce_sum(Collectives& group, torch::Tensor& t) {
  std::vector<torch::Tensor> tensors{t};
  group.allreduce(tensors)->wait();
}

struct SyncBatchNormFunction : public torch::autograd::Function<SyncBatchNormFunction> {
  static torch::Tensor forward(AutogradContext* ctx, const torch::Tensor& x,
                               const torch::Tensor& weight, const torch::Tensor& bias,
                               torch::Tensor running_mean, torch::Tensor running_var,
                               double momentum, double eps, int64_t group_address) {
    auto& group = *reinterpret_cast<Collectives*>(static_cast<intptr_t>(group_address));
    const int64_t channels = x.size(1);
    const auto dims = reduce_dims(x);
    // Sums in double: the variance is sum(x^2)/n - mean^2, which float32 would cancel.
    const auto xd = x.to(torch::kFloat64);
    auto stats =
        torch::cat({xd.sum(dims), xd.square().sum(dims),
                    torch::full({1}, static_cast<double>(x.numel() / channels), xd.options())});
    all_reduce_sum(group, stats);
    const auto count = stats[2 * channels];
    const auto mean = stats.narrow(0, 0, channels) / count;
    const auto var = (stats.narrow(0, channels, channels) / count - mean.square()).clamp_min(0);
    const auto invstd = (var + eps).rsqrt();
    {
      torch::NoGradGuard no_grad;
      const double n = count.item<double>();
      running_mean.mul_(1 - momentum).add_(mean.to(running_mean.dtype()), momentum);
      running_var.mul_(1 - momentum)
          .add_((var * (n / std::max(1.0, n - 1))).to(running_var.dtype()), momentum);
    }
    const auto mean_f = mean.to(x.scalar_type()), invstd_f = invstd.to(x.scalar_type());
    ctx->save_for_backward({x, weight, mean_f, invstd_f, count.to(x.scalar_type())});
    ctx->saved_data["group"] = group_address;
    return (x - per_channel(mean_f, x)) * per_channel(invstd_f * weight, x) + per_channel(bias, x);
  }

  static variable_list backward(AutogradContext* ctx, variable_list grad_outputs) {
    const auto saved = ctx->get_saved_variables();
    const auto &x = saved[0], &weight = saved[1], &mean = saved[2], &invstd = saved[3],
               &count = saved[4];
    auto& group =
        *reinterpret_cast<Collectives*>(static_cast<intptr_t>(ctx->saved_data["group"].toInt()));
    const auto& dy = grad_outputs[0];
    const auto dims = reduce_dims(x);
    const int64_t channels = x.size(1);
    const auto xmu = x - per_channel(mean, x);
    const auto sum_dy = dy.sum(dims);
    const auto sum_dy_xmu = (dy * xmu).sum(dims);
    // The weight's and bias's gradients are this rank's own: the gradient sync averages them.
    const auto grad_weight = sum_dy_xmu * invstd;
    const auto grad_bias = sum_dy;
    auto combined = torch::cat({sum_dy, sum_dy_xmu});
    all_reduce_sum(group, combined);
    const auto mean_dy = combined.narrow(0, 0, channels) / count;
    const auto mean_dy_xmu = combined.narrow(0, channels, channels) / count;
    const auto grad_input =
        (dy - per_channel(mean_dy, x) - xmu * per_channel(invstd.square() * mean_dy_xmu, x)) *
        per_channel(invstd * weight, x);
    return {grad_input,      grad_weight,     grad_bias,       torch::Tensor(),
            torch::Tensor(), torch::Tensor(), torch::Tensor(), torch::Tensor()};
  }
};

}  // namespace

SyncBatchNormImpl::SyncBatchNormImpl(SyncBatchNormOptions options_, Collectives* group_)
    : options(options_), group(group_) {
  reset();
}

void SyncBatchNormImpl::reset() {
  const int64_t c = options.num_features;
  weight = register_parameter("weight", torch::ones({c}));
  bias = register_parameter("bias", torch::zeros({c}));
  running_mean = register_buffer("running_mean", torch::zeros({c}));
  running_var = register_buffer("running_var", torch::ones({c}));
  num_batches_tracked = register_buffer("num_batches_tracked", torch::zeros({}, torch::kLong));
}

torch::Tensor SyncBatchNormImpl::forward(const torch::Tensor& x) {
  TORCH_CHECK(x.dim() >= 2 && x.size(1) == options.num_features, "SyncBatchNorm: expected [N, ",
              options.num_features, ", *], got ", x.sizes());
  if (is_training()) {
    torch::NoGradGuard no_grad;
    num_batches_tracked.add_(1);
  }
  if (!is_training() || group == nullptr) {
    return torch::batch_norm(x, weight, bias, running_mean, running_var, is_training(),
                             options.momentum, options.eps, at::globalContext().userEnabledCuDNN());
  }
  return SyncBatchNormFunction::apply(x, weight, bias, running_mean, running_var, options.momentum,
                                      options.eps,
                                      static_cast<int64_t>(reinterpret_cast<intptr_t>(group)));
}

}  // namespace parity::train
