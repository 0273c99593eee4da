#pragma once
/// One run as a format reads it, the one shape every format's run has (TensorBoardRun,
/// TrainerStateRun, TableLogRun, MlflowFileRun, MlflowSqliteRun): it can be polled again to
/// follow a run that is still being written.

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
  /// Whether `other`, a run another format found, logs the same training as this one (the
  /// Hugging Face Trainer's own TensorBoard files under its output_dir): `other` is then not a
  /// run of its own, and this run says so in its notes. False unless a format says otherwise.
  virtual bool holds_same_training(const RunReader& other) {
    (void)other;
    return false;
  }

 protected:
  RunReader() = default;
  RunReader(const RunReader&) = default;
  RunReader(RunReader&&) = default;
  RunReader& operator=(const RunReader&) = default;
  RunReader& operator=(RunReader&&) = default;
};

using RunReaders = std::vector<std::unique_ptr<RunReader>>;

}  // namespace parity::ingest
