#pragma once
// Evaluation on the test split, sharded over the ranks.

#include <parity/config/run_config.h>
#include <parity/launch/worker_contract.h>
#include <parity/train/datasets.h>
#include <parity/train/models.h>
#include <parity/train/process_group.h>
#include <torch/torch.h>

namespace parity::train {

struct EvalResult {
  double loss = 0;
  double accuracy = -1;  ///< -1 for regression
  int64_t samples = 0;   ///< test samples counted, over all ranks (tokens for token data)
};

/// Evaluates a model on `test`: each test sample exactly once across ranks (no even_batches padding
/// to drop) and sums all-reduced, so the numbers are those of gathering every prediction on one
/// rank. Holds references: `test` and `pg` must outlive it.
class Evaluator {
 public:
  /// batch_size: the per-rank evaluation batch. pg may be null (one process).
  Evaluator(const TensorDataset& test, const config::RunConfig& config, int64_t num_outputs,
            const launch::DistEnv& env, Collectives* pg, torch::Device device, int64_t batch_size);

  /// Leaves the model in training mode.
  EvalResult evaluate(Model& model) const;

 private:
  const TensorDataset& test_;
  config::LossKind loss_;
  config::Task task_;
  config::MixedPrecision mixed_precision_;
  config::Device device_kind_;
  int64_t num_outputs_;
  int world_size_;
  int rank_;
  Collectives* pg_;
  torch::Device device_;
  int64_t batch_size_;
};

}  // namespace parity::train
