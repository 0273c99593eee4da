#pragma once
// The training and evaluation loss.

#include <parity/config/run_config.h>
#include <torch/torch.h>

namespace parity::train {

/// How a loss reduces over its samples (or counted labels).
enum class Reduction {
  kMean,  ///< the batch mean: a training step's loss
  kSum,   ///< the sum: evaluation, and global loss normalisation, so ranks' shares add up exactly
};

/// The loss in fp32 whatever the forward ran in, reduced as `reduction` says. MSE against integer
/// targets compares with their one-hot encoding over num_outputs.
torch::Tensor compute_loss(config::LossKind loss, const torch::Tensor& output,
                           const torch::Tensor& target, int64_t num_outputs,
                           Reduction reduction = Reduction::kMean);

/// A causal LM's loss on token data: output [B, L, V] at position t against label t + 1, labels of
/// kIgnoreIndex not counted (Hugging Face's shift). The mean over the counted labels, or their sum
/// (0 when none is counted).
torch::Tensor compute_token_loss(const torch::Tensor& output, const torch::Tensor& target,
                                 Reduction reduction = Reduction::kMean);

}  // namespace parity::train
