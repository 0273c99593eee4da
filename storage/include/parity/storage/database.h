#pragma once
/// Parity's SQLite store: runs, per-step losses, evaluations. Qt-free and torch-free.
/// One file; WAL mode so readers (the window) never block the writer; busy_timeout; the schema is
/// versioned with PRAGMA user_version and migrated forward on open.
/// Thread safety: one Database object per thread (each owns its sqlite3 connection).

#include <parity/storage/run_status.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

struct sqlite3;

namespace parity::storage {

/// Any SQLite failure, with the statement or path it concerned and SQLite's message.
class StorageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

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

/// The default database path: $XDG_DATA_HOME/parity/parity.db (or ~/.local/share/parity/...).
/// A relative XDG_DATA_HOME is ignored, as the XDG spec says. Throws StorageError if HOME is unset.
std::string default_database_path();

class Database {
 public:
  static constexpr int kSchemaVersion = 2;

  /// Opens (creating folders and file as needed) and migrates. Throws StorageError naming the path
  /// when the folder cannot be created, the file is not a database, or its schema is newer than
  /// kSchemaVersion. Settings: WAL, busy_timeout 5 s, foreign keys on, synchronous NORMAL.
  explicit Database(const std::string& path);
  ~Database();
  Database(const Database&) = delete;
  Database& operator=(const Database&) = delete;
  Database(Database&&) noexcept;
  Database& operator=(Database&&) noexcept;

  const std::string& path() const { return path_; }
  int schema_version() const;

  // Runs. A stored status that is none of RunStatus's reads as a StorageError naming it.
  // Updates of a run id that does not exist throw StorageError ("no run with id N").

  /// Returns the new id (ids are never reused). config_json must be valid JSON; "" is stored as {}.
  int64_t create_run(const std::string& label, const std::string& config_json,
                     RunStatus status = RunStatus::kQueued);
  void set_status(int64_t run_id, RunStatus status, const std::string& error = "");
  /// Status running, started_at now, the plan's total steps and the training set's size.
  void set_started(int64_t run_id, int64_t total_steps, int64_t train_size = 0);
  /// Marks the end: status, error, finished_at now, samples/s, and the finals from stored rows.
  void finish_run(int64_t run_id, RunStatus status, const std::string& error, double samples_per_s);
  void rename_run(int64_t run_id, const std::string& label);
  void set_notes(int64_t run_id, const std::string& notes);
  void delete_run(int64_t run_id);  ///< with its steps and evals
  std::vector<RunRow> list_runs() const;
  std::optional<RunRow> get_run(int64_t run_id) const;

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
  void migrate();
  std::string path_;
  sqlite3* db_ = nullptr;
};

}  // namespace parity::storage
