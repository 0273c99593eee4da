#pragma once
/// What a config's model is, read without training it: its parameter count and layer kinds, and
/// whether it holds dropout or batch norm (two causes of curves that differ across process
/// counts). Torch-free declaration; `parity-worker --inspect-model CONFIG.json` prints it as JSON
/// for the window, which does not load LibTorch.

#include <parity/config/model_summary.h>
#include <parity/config/run_config.h>

namespace parity::train {

/// Builds (or loads) the config's model for its dataset's input and summarises it. Throws
/// TrainError with the loader's or the model's message (not a TorchScript module, a forward that
/// does not take the data, a missing file ...).
config::ModelSummary inspect_model(const config::RunConfig& config);

}  // namespace parity::train
