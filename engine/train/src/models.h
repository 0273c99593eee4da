#pragma once
// The models Parity trains: linear, MLP and a small CNN, as torch::nn::Sequential.

#include <parity/config/run_config.h>
#include <torch/torch.h>

namespace parity::engine {

/// Builds the config's model for inputs shaped like `sample_shape` (one sample, no batch dim) and
/// `num_outputs` outputs. Initialisation draws from torch's default CPU generator, so call
/// set_seed first; Init::kZeros zeroes every parameter.
torch::nn::Sequential make_model(const RunConfig& config, at::IntArrayRef sample_shape,
                                 int64_t num_outputs);

}  // namespace parity::engine
