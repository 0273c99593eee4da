#pragma once
/// The rows Parity stores, as plain structs: a run, a step, an evaluation, an imported run with
/// its rows, and the stamps a poller compares. Database (database.h) reads and writes them; the
/// storage's own helpers (the step feed) and its readers need only this header.

#include <parity/storage/run_origin.h>
#include <parity/storage/run_status.h>
#include <parity/storage/supervisor.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace parity::storage {

struct RunRow {
  int64_t id = 0;
  std::string label;
  RunStatus status = RunStatus::kQueued;
  std::string config_json;
  std::string error;        ///< why it failed, diverged or stopped
  std::string notes;        ///< the user's notes
  double created_at = 0;    ///< unix seconds
  double started_at = 0;    ///< 0 = not yet
  double finished_at = 0;   ///< 0 = not yet
  int64_t total_steps = 0;  ///< optimizer steps planned
  int64_t steps_done = 0;   ///< last global step recorded
  int64_t train_size = 0;   ///< training samples the run had (after train_samples); 0 = unknown
  double samples_per_s = 0;
  std::optional<double> final_loss;       ///< last global step loss (NaN if it was NaN)
  std::optional<double> final_eval_loss;  ///< last evaluation (NaN if it was NaN)
  std::optional<double> final_accuracy;
  SupervisorIdentity supervisor;  ///< the launcher recording it; pid 0 = none recorded
  double heartbeat_at = 0;        ///< the supervisor's last heartbeat (unix seconds), 0 = none
  std::string model_json;  ///< the model as rank 0 built it (ModelSummary JSON); "" = not known
  /// For a counterfactual run: the run it explains (0 = none, or that run was deleted), the
  /// reference it is judged against, and the cause it aligns ("global_batch", "padding", ...).
  int64_t explains_run = 0;
  int64_t explains_reference = 0;
  std::string explains_cause;
  /// Where the run came from (schema 5; stored as to_string(RunOrigin)); for an imported run
  /// the file or folder read, the identity a re-import finds it by, and its facts (RunFacts JSON;
  /// "" = an engine run, whose facts are its config's).
  RunOrigin origin = RunOrigin::kEngine;
  std::string source_path;
  std::string source_identity;
  std::string facts_json;
  /// The version of Parity that recorded the run (schema 8): the launcher that created or claimed
  /// it, or the import that read it ("0.1.0"); "" = recorded before schema 8.
  std::string parity_version;
  /// A run submitted as a batch job (schema 9): the scheduler's job id ("" = not a job), its
  /// state as last seen ("PENDING (Resources)", "RUNNING", "COMPLETED"), and the folder where
  /// the job writes the run's steps file.
  std::string job_id;
  std::string job_state;
  std::string job_folder;
  /// Stored as queued or running, but its supervisor is gone and the database is read-only: it
  /// is shown failed (launcher_gone_message) without being written. False on every other row.
  bool shown_failed = false;
};

/// Changes whenever what a reader of the database would see may have changed: another
/// connection's commit (PRAGMA data_version, which counts other processes' commits too) or one of
/// this connection's own changes (which data_version leaves out). A poller that finds the stamp
/// unchanged has nothing to read.
struct ChangeStamp {
  int64_t data_version = -1;
  int64_t own_changes = -1;
  bool operator==(const ChangeStamp& o) const {
    return data_version == o.data_version && own_changes == o.own_changes;
  }
  bool operator!=(const ChangeStamp& o) const { return !(*this == o); }
};

/// An ended run (stored status neither queued nor running) and a 64-bit hash of every column of
/// its row but config_json (which never changes once created): a changed hash means the row was
/// edited (but for a hash collision).
struct RunHash {
  int64_t id = 0;
  uint64_t hash = 0;
  bool operator==(const RunHash& o) const { return id == o.id && hash == o.hash; }
  bool operator!=(const RunHash& o) const { return !(*this == o); }
};

/// One stored step row. rank = -1 is the global mean; 0..W-1 are each rank's local loss.
/// (run_id, step, rank) is the key: appending the same key again replaces the row.
/// NaN in any floating field is stored as NULL and reads back as NaN.
struct StepRow {
  int64_t run_id = 0;
  int64_t step = 0;
  int rank = -1;
  double epoch = 0;
  int64_t samples = 0;
  double loss = 0;
  double lr = 0;
  double time_s = 0;
};

/// One evaluation. (run_id, epoch, step) is the key; loss NaN round-trips as NaN.
struct EvalRow {
  int64_t run_id = 0;
  int epoch = 0;
  int64_t step = 0;
  int64_t samples = 0;
  double loss = 0;
  std::optional<double> accuracy;
};

/// A run read from a log, with all its rows: written by Database::import_run in one
/// transaction. Rows' run_id is ignored (the run's id is used).
struct ImportedRunRecord {
  std::string label;
  std::string config_json;  ///< "" = {}
  RunOrigin origin = RunOrigin::kImported;
  std::string source_path;
  std::string source_identity;  ///< required: what a re-import finds the run by
  std::string facts_json;
  std::string notes;       ///< what the reader skipped or repaired
  int64_t train_size = 0;  ///< 0 = unknown
  std::vector<StepRow> steps;
  std::vector<EvalRow> evals;
};

struct ImportOutcome {
  int64_t run_id = 0;
  bool created = false;     ///< a new run; false: the run imported before from the same source
  int64_t steps_added = 0;  ///< global step rows written
  int64_t evals_added = 0;
};

}  // namespace parity::storage
