#pragma once
/// Parity's SQLite store: runs, per-step losses, evaluations. Qt-free and torch-free.
/// One file; WAL mode so readers (the window) never block the writer; busy_timeout; the schema is
/// versioned with PRAGMA user_version and migrated forward on open.
/// Thread safety: one Database object per thread (each owns its sqlite3 connection).

#include <parity/storage/rows.h>
#include <parity/storage/run_status.h>
#include <parity/storage/storage_error.h>
#include <parity/storage/supervisor.h>

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

struct sqlite3;

namespace parity::storage {

namespace detail {
class Statement;
}

/// The default database path: $XDG_DATA_HOME/parity/parity.db (or ~/.local/share/parity/...).
/// A relative XDG_DATA_HOME is ignored, as the XDG spec says. Throws StorageError if HOME is unset.
std::string default_database_path();

/// Whether this process could write the database at path (an existing file): the file and its
/// folder (where WAL mode keeps its -wal and -shm files) are writable. False on a read-only mount
/// even for root.
bool database_writable(const std::string& path);

/// kReadOnly opens an existing database for viewing only: nothing is created, migrated or written
/// (every write throws StorageError), so a file on a read-only mount or owned by another user can
/// still be read. Its schema may be older than kSchemaVersion (columns it lacks read as defaults).
enum class OpenMode { kReadWrite, kReadOnly };

/// How to open `path` for viewing what it holds: kReadOnly when it exists and this process cannot
/// write it (a read-only mount, another user's file), so it is still viewable; else kReadWrite.
/// The window's lists and chart and parity-cli's reading verbs all open a database so.
OpenMode viewing_mode(const std::string& path);

/// The message of a reconciled run: "the launcher exited unexpectedly (killed?) at step N".
std::string launcher_gone_message(int64_t step);

class Database {
 public:
  static constexpr int kSchemaVersion = 9;

  /// Opens (creating folders and file as needed) and migrates. Throws StorageError naming the path
  /// when the folder cannot be created, the file is not a database (or an SQLite file of another
  /// program), or its schema is newer than kSchemaVersion. Settings: WAL, busy_timeout 5 s,
  /// foreign keys on, synchronous NORMAL. See OpenMode for kReadOnly.
  explicit Database(const std::string& path, OpenMode mode = OpenMode::kReadWrite);
  ~Database();
  Database(const Database&) = delete;
  Database& operator=(const Database&) = delete;
  Database(Database&&) noexcept;
  Database& operator=(Database&&) noexcept;

  const std::string& path() const { return path_; }
  bool read_only() const { return read_only_; }
  /// Opened read-only from the main file alone (immutable) while a -wal beside it holds newer
  /// commits this process cannot share (it cannot read the -shm): runs written since the last
  /// checkpoint may be missing from what it reads. Say so wherever it is shown.
  bool may_miss_recent_writes() const { return may_miss_recent_writes_; }
  int schema_version() const;

  // Runs. A stored status that is none of RunStatus's reads as a StorageError naming it.
  // Updates of a run id that does not exist throw StorageError ("no run with id N").

  /// Returns the new id (ids are never reused). config_json must be valid JSON; "" is stored as {}.
  /// A label is stored as one line: line breaks and tabs (here and in rename_run) become spaces.
  /// With `supervisor`, the row is claimed by it (claim_run) in the same statement: a launcher
  /// killed at any moment leaves no row that reconciliation cannot judge. The row records this
  /// build's version (parity::kVersion, RunRow::parity_version).
  int64_t create_run(const std::string& label, const std::string& config_json,
                     RunStatus status = RunStatus::kQueued,
                     const std::optional<SupervisorIdentity>& supervisor = std::nullopt);
  void set_status(int64_t run_id, RunStatus status, const std::string& error = "");
  /// Status running, started_at now, the plan's total steps and the training set's size.
  /// `model_json`: the model as rank 0 built it (kept as is when empty).
  void set_started(int64_t run_id, int64_t total_steps, int64_t train_size = 0,
                   const std::string& model_json = "");
  /// Marks the end: status, error, finished_at now, samples/s, and the finals from stored rows.
  void finish_run(int64_t run_id, RunStatus status, const std::string& error, double samples_per_s);
  /// Marks the run as batch job `job_id` of a scheduler, which writes its steps file in
  /// `job_folder` (schema 9). Such a run is created without a supervisor: the job is.
  void set_job(int64_t run_id, const std::string& job_id, const std::string& job_folder);
  /// The job's state as the scheduler last said it ("PENDING (Resources)", "RUNNING", ...).
  void set_job_state(int64_t run_id, const std::string& job_state);
  void rename_run(int64_t run_id, const std::string& label);
  void set_notes(int64_t run_id, const std::string& notes);
  /// Marks `run_id` as the counterfactual of `explained` against `reference`, aligning `cause`.
  void set_counterfactual_of(int64_t run_id, int64_t explained, int64_t reference,
                             const std::string& cause);
  void delete_run(int64_t run_id);  ///< with its steps and evals
  /// Records `who` as the run's supervisor, with a first heartbeat now, and this build's version
  /// as the run's (the launcher that trains a queued row is the Parity that recorded it).
  void claim_run(int64_t run_id, const SupervisorIdentity& who);
  /// The supervisor is alive: heartbeat_at = now.
  void heartbeat(int64_t run_id);
  /// Marks every queued or running run whose supervisor is gone (supervisor_gone()) as failed
  /// with launcher_gone_message(steps_done), keeping its recorded steps and setting its finals.
  /// Returns the ids it marked. A run that ends by itself meanwhile is left as it ended. Call it
  /// before showing runs; on a read-only database it does nothing (and the reads below show such
  /// runs failed instead, in memory: RunRow::shown_failed).
  std::vector<int64_t> reconcile_orphaned_runs();
  std::vector<RunRow> list_runs() const;
  /// The runs recorded as counterfactuals of `run_id` (set_counterfactual_of), in id order.
  std::vector<RunRow> counterfactuals_of(int64_t run_id) const;
  /// The runs among `ids` that exist and every run with id > after_id, in id order: what a
  /// poller rereads (its unfinished runs, and runs created since) when the stamp changed.
  std::vector<RunRow> list_runs(const std::vector<int64_t>& ids, int64_t after_id) const;
  std::optional<RunRow> get_run(int64_t run_id) const;
  /// See ChangeStamp. One PRAGMA; reads no table.
  ChangeStamp change_stamp() const;
  /// Every ended run with its RunHash, in id order: one pass over the runs table that builds no
  /// RunRow, so that a poller can tell which ended runs another connection edited, deleted or
  /// added, and reread only those (1,000 runs: 0.1 ms warm, 3 ms after another connection's
  /// commit emptied this one's page cache).
  std::vector<RunHash> ended_run_hashes() const;

  /// An imported run: created with every row in ONE transaction (an import that fails leaves no
  /// half run), status finished; or, when a run of the same source_identity exists, only its
  /// rows past that run's last stored step (and evaluations past its last) are appended, so
  /// importing the same files again doubles nothing. Facts and notes are kept as they are on a
  /// re-import (set_facts changes them). Throws StorageError; on error nothing is written.
  ImportOutcome import_run(const ImportedRunRecord& run);
  /// The same, with the step rows drawn from `next_step` (after run.steps) until it returns
  /// false, so a run of millions of steps is written without a second copy of its rows.
  ImportOutcome import_run(const ImportedRunRecord& run,
                           const std::function<bool(StepRow&)>& next_step);
  /// The run imported from `source_identity`, if any.
  std::optional<int64_t> find_run_by_source(const std::string& source_identity) const;
  /// Marks where a run came from and its source (an imported
  /// run's path; a command run's command as it ran).
  void set_origin(int64_t run_id, RunOrigin origin, const std::string& source_path);
  /// Replaces a run's facts (RunFacts JSON) and its config_json (as the facts now imply).
  void set_facts(int64_t run_id, const std::string& facts_json, const std::string& config_json);

  // The window's chart: which runs the user chose to draw (schema 6).

  /// Records that the user chose to draw (`shown`) or hide each of `run_ids`, in one
  /// transaction; ids of runs that no longer exist are skipped. Throws StorageError.
  void set_shown_choices(const std::vector<int64_t>& run_ids, bool shown);
  /// Each run's recorded choice (run id -> shown); runs the user never chose for are absent.
  /// Empty for a database older than schema 6 (opened read-only).
  std::map<int64_t, bool> shown_choices() const;

  // The window's setups and experiment (schema 7).

  /// Keeps the window's setups JSON, replacing what was saved. Throws StorageError.
  void save_setups(const std::string& json);
  /// The setups JSON saved last; nullopt when none was saved (or the database is older than
  /// schema 7, opened read-only).
  std::optional<std::string> saved_setups() const;

  // Steps and evals. Each append is one transaction; updates runs.steps_done for global rows.
  void append_steps(const std::vector<StepRow>& rows);
  void append_evals(const std::vector<EvalRow>& rows);
  /// Steps of a run for one rank (-1 = global), with step > after_step, in step order.
  std::vector<StepRow> steps(int64_t run_id, int rank = -1, int64_t after_step = 0) const;
  /// The ranks stored for a run (-1 first).
  std::vector<int> ranks(int64_t run_id) const;
  std::vector<EvalRow> evals(int64_t run_id) const;

  sqlite3* handle() const { return db_; }

 private:
  void open_read_write();
  void open_read_only();
  void refuse_foreign_file();  ///< throws, before anything is written, on another program's file
  void migrate();
  std::string run_columns() const;
  /// read_run plus what a reader shows beyond the stored row (NaN finals, orphans when read-only).
  RunRow read_shown_run(const detail::Statement& st) const;
  std::string path_;
  sqlite3* db_ = nullptr;
  bool read_only_ = false;
  bool may_miss_recent_writes_ = false;
  int schema_ = 0;  ///< the file's schema version once open
};

}  // namespace parity::storage
