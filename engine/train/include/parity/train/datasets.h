#pragma once
// Datasets decoded once into contiguous tensors; batches are gathered by index. IDX images stay
// uint8 (mapped from the decoded-file cache) and become float32 a batch at a time.

#include <parity/config/data_sizes.h>
#include <parity/config/run_config.h>
#include <parity/train/idx_cache.h>
#include <torch/torch.h>

#include <optional>
#include <string>

namespace parity::train {

/// The label that no loss counts (a padded or masked token), as torch's ignore_index and
/// Hugging Face's tokenised datasets use it.
inline constexpr int64_t kIgnoreIndex = -100;

/// How uint8 pixels become a model's inputs: x / 255, then (x - mean) / stddev, in float32.
struct PixelNormalization {
  float mean = 0;
  float stddev = 1;
};

struct TensorDataset {
  /// [N, ...] float32; IDX images: [N, 1, H, W] uint8 pixels (see `pixels`), possibly a
  /// read-only mapping; token data: [N, L] int64 ids padded with pad_id to the longest sequence.
  torch::Tensor inputs;
  /// [N] int64 (classification) or [N, 1] float32 (regression); token data: [N, L] int64 labels
  /// padded with kIgnoreIndex.
  torch::Tensor targets;
  /// Token data only: each sequence's length, so a batch is cut to its own longest.
  torch::Tensor lengths;
  /// Set when `inputs` holds uint8 pixels: how gather_batch() converts a batch's rows.
  std::optional<PixelNormalization> pixels;
  int64_t size() const { return inputs.defined() ? inputs.size(0) : 0; }
  bool tokens() const { return lengths.defined(); }
};

struct DataSplit {
  TensorDataset train;
  TensorDataset test;       // empty when there is no test data (no evaluation)
  int64_t num_outputs = 1;  // classes (the vocabulary for token data), or regression outputs
};

/// Loads the config's dataset: the training data whole, the test data from its own file (or the
/// t10k files, or the last validation_split of the data), then the first train_samples. Splits as
/// read_data_sizes() counts. IDX files are read through the decoded-file cache.
DataSplit load_dataset(const config::RunConfig& config,
                       const IdxCacheOptions& cache = IdxCacheOptions::from_environment());

/// `pixels` as float32 model inputs: the same element-wise ops on a batch as on the whole set.
torch::Tensor normalize_pixels(const torch::Tensor& pixels, const PixelNormalization& n);

/// The whole dataset's inputs as float32 (IDX pixels converted; others as they are).
torch::Tensor float_inputs(const TensorDataset& dataset);

/// The rows of `dataset` at `indices`, as one batch (token data cut to the batch's longest).
std::pair<torch::Tensor, torch::Tensor> gather_batch(const TensorDataset& dataset,
                                                     const std::vector<int64_t>& indices);

/// Items the loss counts in a batch's targets: samples, or labels other than kIgnoreIndex.
int64_t count_items(const torch::Tensor& targets, bool tokens);

}  // namespace parity::train
