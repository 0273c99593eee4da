#pragma once
/// What a run's model is, as its workers built it: parameter count, layer kinds, and whether it
/// holds dropout (with its largest rate) or batch norm, two causes of curves that differ across
/// process counts. Built by parity_train (inspect_model, and rank 0 at a run's start), stored with
/// the run, read by the verdict for models whose config does not say (a TorchScript module's
/// submodules). Torch-free.

#include <cstdint>
#include <string>
#include <vector>

namespace parity::config {

struct ModelSummary {
  int64_t parameters = 0;                ///< scalars
  std::vector<std::string> layer_kinds;  ///< distinct kinds: Linear, BatchNorm1d, Dropout, ...
  bool dropout = false;
  double dropout_p = 0;  ///< the largest dropout rate found; 0 when unknown or none
  bool batch_norm = false;
};

/// {"parameters": N, "layer_kinds": [...], "dropout": b, "dropout_p": p, "batch_norm": b}
std::string to_json(const ModelSummary& summary);
/// Throws std::invalid_argument naming what is missing or malformed. "dropout_p" may be absent.
ModelSummary model_summary_from_json(const std::string& text);

}  // namespace parity::config
