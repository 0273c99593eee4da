#pragma once
/// What one rank of a setup needs in memory, estimated from the config alone, so that a setup
/// that cannot fit (a per-device batch of 10^12, hidden layers of 10^9) is refused before any
/// process starts, naming the setting, instead of being killed by the kernel. Torch-free.

#include <parity/config/run_config.h>

#include <cstdint>
#include <optional>

namespace parity::config {

struct MemoryEstimate {
  double parameter_bytes = 0;   ///< weights, gradients, the gradient-sync buckets, optimizer state
  double activation_bytes = 0;  ///< one micro-batch's inputs, activations and their gradients
  double total() const { return parameter_bytes + activation_bytes; }
};

/// A lower bound for one rank of the built-in models (linear, mlp, cnn) where the input's width
/// is known without reading a file (Fashion-MNIST, the synthetic regression, a csv with its
/// features listed); nullopt otherwise (a TorchScript module, token data, unknown widths).
std::optional<MemoryEstimate> estimate_rank_memory(const RunConfig& config);

}  // namespace parity::config
