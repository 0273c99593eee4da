#pragma once
/// Every run under a path, whatever wrote it: a TensorBoard logdir (or run folder, or event
/// file), a Hugging Face output_dir or trainer_state.json, an MLflow store (`mlruns/` or
/// `mlflow.db`), a CSV export. Each run is a reader that can be polled again to follow a run that
/// is still being written.

#include <parity/ingest/imported_run.h>

#include <memory>
#include <string>
#include <vector>

namespace parity::ingest {

class RunReader {
 public:
  virtual ~RunReader() = default;
  virtual std::string name() const = 0;
  /// Reads what is new since the last call; true when something was. Throws IngestError when a
  /// file cannot be read.
  virtual bool poll() = 0;
  virtual ImportedRun run(const ImportOptions& options) const = 0;
};

/// The runs under `path`, in path order. Empty when the path holds none. Throws IngestError when
/// the path does not exist or cannot be listed.
std::vector<std::unique_ptr<RunReader>> find_runs(const std::string& path);

}  // namespace parity::ingest
