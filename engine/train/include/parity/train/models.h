#pragma once
// The models Parity trains: the built-ins (linear, MLP and a small CNN, with optional dropout and
// batch norm; a bigram for token data) and a user's TorchScript module, behind one interface.

#include <parity/config/model_summary.h>
#include <parity/config/run_config.h>
#include <parity/train/process_group.h>
#include <torch/torch.h>

#include <memory>
#include <string>
#include <vector>

namespace parity::train {

/// What the trainer needs of a model, whichever kind it is.
class Model {
 public:
  virtual ~Model() = default;
  virtual torch::Tensor forward(const torch::Tensor& x) = 0;
  virtual std::vector<torch::Tensor> parameters() = 0;
  /// Buffers (batch norm's running statistics): DDP broadcasts rank 0's before every forward.
  virtual std::vector<torch::Tensor> buffers() = 0;
  virtual void train(bool on) = 0;
  virtual void to(torch::Device device) = 0;
};

/// A model's layers as the verdict reads them: does it hold dropout (at what rate) or batch norm?
config::ModelSummary traits_of(const config::RunConfig& config, Model& model);

/// Builds the config's built-in model for inputs shaped like `sample_shape` (one sample, no batch
/// dim) and `num_outputs` outputs (the vocabulary for bigram). Initialisation draws from torch's
/// default CPU generator, so call set_seed first; Init::kZeros zeroes every parameter. With
/// sync_batch_norm its batch norm layers synchronise over `group` (null: one process).
torch::nn::Sequential make_builtin(const config::RunConfig& config, at::IntArrayRef sample_shape,
                                   int64_t num_outputs, Collectives* group = nullptr);

/// The config's model: a built-in, or the TorchScript module in model_file (loaded on the CPU).
/// Throws std::runtime_error when the file is not a TorchScript module.
std::unique_ptr<Model> make_model(const config::RunConfig& config, at::IntArrayRef sample_shape,
                                  int64_t num_outputs, Collectives* group = nullptr);

/// Runs the model on `sample` (a small batch of the dataset's input) and checks its output's shape
/// against the task: [B, num_outputs] (classification, regression) or [B, L, V >= num_outputs]
/// (token data). Throws std::runtime_error saying what the forward took and what went wrong.
void check_forward(Model& model, const config::RunConfig& config, const torch::Tensor& sample,
                   int64_t num_outputs);

}  // namespace parity::train
