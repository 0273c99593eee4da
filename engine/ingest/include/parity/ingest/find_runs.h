#pragma once
/// Every run under a path, whatever wrote it: each format of the registry (formats.h) is asked
/// in turn — a TensorBoard logdir (or run folder, or event file), a Hugging Face output_dir or
/// trainer_state.json, a CSV export, an MLflow store (`mlruns/` or `mlflow.db`). Each run is a
/// reader that can be polled again to follow a run that is still being written.

#include <parity/ingest/formats.h>
#include <parity/ingest/run_reader.h>

#include <string>

namespace parity::ingest {

/// The runs under `path`, format by format in the registry's order, each format's in path
/// order. A run that another holds (holds_same_training) is left out. Empty when the path holds
/// none. Throws IngestError when the path does not exist or cannot be listed.
RunReaders find_runs(const std::string& path);

}  // namespace parity::ingest
