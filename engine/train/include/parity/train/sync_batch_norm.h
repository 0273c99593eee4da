#pragma once
// Batch norm whose statistics are taken over every rank's batch, as PyTorch's SyncBatchNorm
// (torch.nn.SyncBatchNorm, torch/nn/modules/_functions.py): in training the forward all-reduces
// each channel's sum, sum of squares and count, so the mean and variance are those of the
// concatenated batch; the backward all-reduces sum(dy) and sum(dy * (x - mean)) for the input's
// gradient, while the weight's and bias's gradients stay local (the gradient sync averages them,
// as DDP does). Running statistics are updated from the global ones, with the unbiased variance
// over the global count. In evaluation, or without a process group, it is plain batch norm.
// Every rank must run every training forward and backward in the same order (a collective each).

#include <parity/train/process_group.h>
#include <torch/torch.h>

namespace parity::train {

struct SyncBatchNormOptions {
  int64_t num_features = 0;
  double eps = 1e-5;      ///< torch's BatchNorm default
  double momentum = 0.1;  ///< torch's BatchNorm default
};

class SyncBatchNormImpl : public torch::nn::Cloneable<SyncBatchNormImpl> {
 public:
  /// group: the ranks to synchronise over; null = one process (plain batch norm).
  SyncBatchNormImpl(SyncBatchNormOptions options, Collectives* group);
  void reset() override;
  /// x: [N, C] or [N, C, *].
  torch::Tensor forward(const torch::Tensor& x);

  SyncBatchNormOptions options;
  Collectives* group = nullptr;
  // Registered in BatchNorm's order, with its names, so models and checkpoints line up.
  torch::Tensor weight, bias, running_mean, running_var, num_batches_tracked;
};
TORCH_MODULE(SyncBatchNorm);

}  // namespace parity::train
