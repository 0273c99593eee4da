#include "loss.h"

#include <parity/train/datasets.h>

namespace parity::train {

torch::Tensor compute_loss(config::LossKind loss, const torch::Tensor& output,
                           const torch::Tensor& target, int64_t num_outputs, Reduction reduction) {
  const bool sum = reduction == Reduction::kSum;
  namespace F = torch::nn::functional;
  auto out = output.to(torch::kFloat32);
  if (loss == config::LossKind::kCrossEntropy) {
    // Reduced inside nll_loss, as F.cross_entropy(out, y) (mean) / reduction="sum" does in Python:
    // nll_loss sums the picked log-probabilities in its own order, so reduction kNone followed by
    // Tensor::mean()/sum() gives a different last bit for some batches.
    if (sum) {
      return F::cross_entropy(out, target, F::CrossEntropyFuncOptions().reduction(torch::kSum));
    }
    return F::cross_entropy(out, target, F::CrossEntropyFuncOptions().reduction(torch::kMean));
  }
  auto t = target.scalar_type() == torch::kInt64
               ? torch::one_hot(target, num_outputs).to(torch::kFloat32)
               : target;
  auto per_sample = F::mse_loss(out, t, F::MSELossFuncOptions(torch::kNone)).mean(1);
  return sum ? per_sample.sum() : per_sample.mean();
}

torch::Tensor compute_token_loss(const torch::Tensor& output, const torch::Tensor& target,
                                 Reduction reduction) {
  namespace F = torch::nn::functional;
  const int64_t len = output.size(1);
  if (len < 2) return torch::zeros({}, output.options().dtype(torch::kFloat32));
  auto logits = output.narrow(1, 0, len - 1).to(torch::kFloat32).reshape({-1, output.size(2)});
  auto labels = target.narrow(1, 1, len - 1).reshape({-1});
  auto l = F::cross_entropy(
      logits, labels,
      F::CrossEntropyFuncOptions().reduction(torch::kSum).ignore_index(kIgnoreIndex));
  if (reduction == Reduction::kSum) return l;
  const auto items = labels.ne(kIgnoreIndex).sum();
  return l / items.clamp_min(1).to(torch::kFloat32);
}

}  // namespace parity::train
