#pragma once
// Datasets decoded once into contiguous tensors; batches are gathered by index.

#include <parity/config/run_config.h>
#include <torch/torch.h>

#include <string>

namespace parity::engine {

struct TensorDataset {
  torch::Tensor inputs;   // [N, ...] float32
  torch::Tensor targets;  // [N] int64 (classification) or [N, 1] float32 (regression)
  int64_t size() const { return inputs.defined() ? inputs.size(0) : 0; }
};

struct DataSplit {
  TensorDataset train;
  TensorDataset test;
  int64_t num_outputs = 1;  // classes, or regression outputs
};

/// Thrown when a dataset cannot be read: names the file and what was wrong with it.
class DatasetError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// Debian's dataset-fashion-mnist folder.
inline constexpr const char* kFashionMnistDir = "/usr/share/datasets/fashion-mnist";

/// Reads one IDX file (gzip-compressed or not) into a uint8 tensor of its dimensions.
torch::Tensor read_idx(const std::string& path);

/// Loads the config's dataset (train split truncated to train_samples when set).
DataSplit load_dataset(const RunConfig& config);

/// The rows of `dataset` at `indices`, as one batch.
std::pair<torch::Tensor, torch::Tensor> gather_batch(const TensorDataset& dataset,
                                                     const std::vector<int64_t>& indices);

}  // namespace parity::engine
