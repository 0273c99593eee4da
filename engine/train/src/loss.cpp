#include "loss.h"

namespace parity::engine {

torch::Tensor compute_loss(LossKind loss, const torch::Tensor& output, const torch::Tensor& target,
                           int64_t num_outputs, bool sum) {
  namespace F = torch::nn::functional;
  auto out = output.to(torch::kFloat32);
  if (loss == LossKind::kCrossEntropy) {
    auto l = F::cross_entropy(out, target, F::CrossEntropyFuncOptions().reduction(torch::kNone));
    return sum ? l.sum() : l.mean();
  }
  auto t = target.scalar_type() == torch::kInt64
               ? torch::one_hot(target, num_outputs).to(torch::kFloat32)
               : target;
  auto per_sample = F::mse_loss(out, t, F::MSELossFuncOptions(torch::kNone)).mean(1);
  return sum ? per_sample.sum() : per_sample.mean();
}

}  // namespace parity::engine
