#pragma once
/// What a config's model is, read without training it: its parameter count and layer kinds, and
/// whether it holds dropout or batch norm (two causes of curves that differ across process
/// counts). Torch-free declaration; `parity-worker --inspect-model CONFIG.json` prints it as JSON
/// for the window, which does not load LibTorch.

#include <parity/config/run_config.h>

#include <cstdint>
#include <string>
#include <vector>

namespace parity::engine {

struct ModelSummary {
  int64_t parameters = 0;                ///< scalars
  std::vector<std::string> layer_kinds;  ///< distinct kinds: Linear, BatchNorm1d, Dropout, ...
  bool dropout = false;
  bool batch_norm = false;
};

/// Builds (or loads) the config's model for its dataset's input and summarises it. Throws
/// TrainError with the loader's or the model's message (not a TorchScript module, a forward that
/// does not take the data, a missing file ...).
ModelSummary inspect_model(const RunConfig& config);

/// {"parameters": N, "layer_kinds": [...], "dropout": b, "batch_norm": b}
std::string to_json(const ModelSummary& summary);
ModelSummary model_summary_from_json(const std::string& text);

}  // namespace parity::engine
