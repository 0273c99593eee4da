#pragma once
/// The StepSink that records a run in the SQLite store: RunStart marks the run started, each
/// StepRecord becomes a global row (rank -1) plus one row per rank, evaluations are stored, all
/// through storage::StepWriter's background transactions. Also feeds the progress line.
/// Used on the launcher's calling thread only.

#include <parity/launch/step_record.h>
#include <parity/storage/database.h>
#include <parity/storage/step_writer.h>

#include <cstdint>
#include <optional>

#include "progress_line.h"

namespace parity::cli {

class DbSink : public engine::StepSink {
 public:
  /// db: the caller's connection for run metadata; the rows go through a StepWriter of its own on
  /// db.path(). progress may be null.
  DbSink(storage::Database& db, int64_t run_id, ProgressLine* progress);

  void on_start(const engine::RunStart& start) override;
  void on_step(const engine::StepRecord& record) override;
  void on_eval(const engine::EvalRecord& record) override;
  void on_end(const engine::RunEnd& end) override;

  /// Commits every queued row, then marks the run with its outcome, message and samples/s
  /// (finals are read back from the stored rows). Throws StorageError.
  void finish(engine::RunOutcome outcome, const std::string& message, double samples_per_s);

  const std::optional<engine::StepRecord>& last_step() const { return last_step_; }
  const std::optional<engine::EvalRecord>& last_eval() const { return last_eval_; }

 private:
  storage::Database& db_;
  int64_t run_id_;
  storage::StepWriter writer_;
  ProgressLine* progress_;
  std::optional<engine::StepRecord> last_step_;
  std::optional<engine::EvalRecord> last_eval_;
};

}  // namespace parity::cli
