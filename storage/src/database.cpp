// The runs table: creating, updating, reading and reconciling runs, and what a poller reads to
// see changes (a run's steps and evals are database_steps.cpp's).
#include <parity/storage/database.h>
#include <parity/version.h>
#include <sqlite3.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>
#include <system_error>
#include <utility>

#include "database_internal.h"
#include "statement.h"

namespace parity::storage {

using detail::exec;
using detail::kSetFinals;
using detail::now_unix_seconds;
using detail::Statement;
using detail::Transaction;

namespace {

// The runs columns of schema version 1; later versions' columns follow (see run_columns()).
constexpr const char* kRunColumnsV1 =
    "SELECT id, label, status, config_json, error, notes, created_at, started_at, finished_at, "
    "total_steps, steps_done, samples_per_s, final_loss, final_eval_loss, final_accuracy";
constexpr const char* kRunColumnsV2 = ", train_size";
constexpr const char* kRunColumnsV3 =
    ", supervisor_pid, supervisor_start_time, supervisor_host, supervisor_boot_id, heartbeat_at";
constexpr const char* kRunColumnsV4 =
    ", model_json, explains_run, explains_reference, explains_cause";
constexpr const char* kRunColumnsV5 = ", origin, source_path, source_identity, facts_json";
constexpr const char* kRunColumnsV8 = ", parity_version";
constexpr const char* kRunColumnsV9 = ", job_id, job_state, job_folder";

RunStatus read_status(const Statement& st, int column, int64_t run_id) {
  const std::string text = st.column_text(column);
  if (const auto status = parse_run_status(text)) return *status;
  throw StorageError("run " + std::to_string(run_id) + " has an unknown status '" + text +
                     "' (known: queued, running, finished, failed, diverged, stopped)");
}

std::string status_text(RunStatus status) { return std::string(to_string(status)); }

// A label is one line wherever it shows (tables, CSV, legends): line breaks and tabs become spaces.
std::string one_line(std::string label) {
  for (char& c : label)
    if (c == '\n' || c == '\r' || c == '\t') c = ' ';
  return label;
}

void check_config_json(const std::string& config_json) {
  if (!config_json.empty() && !nlohmann::json::accept(config_json)) {
    throw StorageError("create_run: config_json is not valid JSON: " + config_json.substr(0, 80));
  }
}

RunOrigin read_origin(const Statement& st, int column, int64_t run_id) {
  const std::string text = st.column_text(column);
  if (const auto origin = parse_run_origin(text)) return *origin;
  throw StorageError("run " + std::to_string(run_id) + " has an unknown origin '" + text +
                     "' (known: engine, command, imported)");
}

RunRow read_run(const Statement& st, int schema) {
  RunRow r;
  r.id = st.column_int64(0);
  r.label = st.column_text(1);
  r.status = read_status(st, 2, r.id);
  r.config_json = st.column_text(3);
  r.error = st.column_text(4);
  r.notes = st.column_text(5);
  r.created_at = st.column_double(6);
  r.started_at = st.column_double(7);
  r.finished_at = st.column_double(8);
  r.total_steps = st.column_int64(9);
  r.steps_done = st.column_int64(10);
  r.samples_per_s = st.column_double(11);
  r.final_loss = st.column_optional(12);
  r.final_eval_loss = st.column_optional(13);
  r.final_accuracy = st.column_optional(14);
  if (schema >= 2) r.train_size = st.column_int64(15);
  if (schema >= 3) {
    r.supervisor.pid = st.column_int64(16);
    r.supervisor.start_time = st.column_int64(17);
    r.supervisor.host = st.column_text(18);
    r.supervisor.boot_id = st.column_text(19);
    r.heartbeat_at = st.column_double(20);
  }
  if (schema >= 4) {
    r.model_json = st.column_text(21);
    r.explains_run = st.column_int64(22);  // NULL reads as 0
    r.explains_reference = st.column_int64(23);
    r.explains_cause = st.column_text(24);
  }
  if (schema >= 5) {
    r.origin = read_origin(st, 25, r.id);
    r.source_path = st.column_text(26);
    r.source_identity = st.column_text(27);
    r.facts_json = st.column_text(28);
  }
  // Schemas 6 and 7 added tables, not runs columns: the next column is 29.
  if (schema >= 8) r.parity_version = st.column_text(29);
  if (schema >= 9) {
    r.job_id = st.column_text(30);
    r.job_state = st.column_text(31);
    r.job_folder = st.column_text(32);
  }
  return r;
}

// A finished run whose final loss column is NULL either had no rows or ended on a NaN loss (SQLite
// stored the NaN as NULL); the last row tells which, so a diverged run reads back as NaN.
void restore_nan_finals(sqlite3* db, RunRow& run) {
  if (run.finished_at <= 0) return;
  auto last_is_null = [&](const char* sql) {
    Statement st(db, sql);
    st.bind(1, run.id);
    return st.step() && st.column_int64(0) != 0;
  };
  const double nan = std::numeric_limits<double>::quiet_NaN();
  if (!run.final_loss && last_is_null("SELECT loss IS NULL FROM steps WHERE run_id = ?1 AND "
                                      "rank = -1 ORDER BY step DESC LIMIT 1")) {
    run.final_loss = nan;
  }
  if (!run.final_eval_loss && last_is_null("SELECT loss IS NULL FROM evals WHERE run_id = ?1 "
                                           "ORDER BY step DESC, epoch DESC LIMIT 1")) {
    run.final_eval_loss = nan;
  }
}

// A run a read-only reader finds orphaned, as reconcile_orphaned_runs() would have written it:
// failed at its last sign of life, with the finals of its stored rows.
void show_as_reconciled(sqlite3* db, RunRow& run) {
  run.status = RunStatus::kFailed;
  run.error = launcher_gone_message(run.steps_done);
  run.finished_at =
      std::max(run.heartbeat_at > 0 ? run.heartbeat_at : now_unix_seconds(), run.started_at);
  run.shown_failed = true;
  const double nan = std::numeric_limits<double>::quiet_NaN();
  {
    Statement st(db,
                 "SELECT loss FROM steps WHERE run_id = ?1 AND rank = -1 ORDER BY step DESC "
                 "LIMIT 1");
    st.bind(1, run.id);
    run.final_loss = st.step() ? std::optional<double>(st.column_double_or_nan(0)) : std::nullopt;
  }
  Statement st(db,
               "SELECT loss, accuracy FROM evals WHERE run_id = ?1 ORDER BY step DESC, "
               "epoch DESC LIMIT 1");
  st.bind(1, run.id);
  if (st.step()) {
    run.final_eval_loss = st.is_null(0) ? nan : st.column_double(0);
    run.final_accuracy = st.column_optional(1);
  } else {
    run.final_eval_loss.reset();
    run.final_accuracy.reset();
  }
}

}  // namespace

std::string default_database_path() {
  namespace fs = std::filesystem;
  // The XDG spec says a relative XDG_DATA_HOME is invalid and must be ignored.
  const char* xdg = std::getenv("XDG_DATA_HOME");
  if (xdg && *xdg && fs::path(xdg).is_absolute()) {
    return (fs::path(xdg) / "parity" / "parity.db").string();
  }
  const char* home = std::getenv("HOME");
  if (!home || !*home) {
    throw StorageError("no default database path: neither XDG_DATA_HOME nor HOME is set");
  }
  return (fs::path(home) / ".local" / "share" / "parity" / "parity.db").string();
}

bool StorageError::is_busy() const {
  const int primary = sqlite_code_ & 0xff;
  return primary == SQLITE_BUSY || primary == SQLITE_LOCKED;
}

std::string launcher_gone_message(int64_t step) {
  return "the launcher exited unexpectedly (killed?) at step " + std::to_string(step);
}

int64_t Database::create_run(const std::string& label, const std::string& config_json,
                             RunStatus status,
                             const std::optional<SupervisorIdentity>& supervisor) {
  check_config_json(config_json);
  Statement st(db_, supervisor ? "INSERT INTO runs (label, status, created_at, config_json, "
                                 "parity_version, supervisor_pid, supervisor_start_time, "
                                 "supervisor_host, supervisor_boot_id, heartbeat_at) "
                                 "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?3)"
                               : "INSERT INTO runs (label, status, created_at, config_json, "
                                 "parity_version) VALUES (?1, ?2, ?3, ?4, ?5)");
  st.bind(1, one_line(label)).bind(2, status_text(status)).bind(3, now_unix_seconds());
  st.bind(4, config_json.empty() ? std::string("{}") : config_json);
  st.bind(5, std::string(kVersion));
  if (supervisor) {
    st.bind(6, supervisor->pid).bind(7, supervisor->start_time).bind(8, supervisor->host);
    st.bind(9, supervisor->boot_id);
  }
  st.run();
  return sqlite3_last_insert_rowid(db_);
}

namespace {
void require_run_changed(sqlite3* db, const char* what, int64_t run_id) {
  if (sqlite3_changes(db) == 0) {
    throw StorageError(std::string(what) + ": no run with id " + std::to_string(run_id) + " in '" +
                       sqlite3_db_filename(db, "main") + "'");
  }
}
}  // namespace

void Database::set_status(int64_t run_id, RunStatus status, const std::string& error) {
  Statement st(db_, "UPDATE runs SET status = ?2, error = ?3 WHERE id = ?1");
  st.bind(1, run_id).bind(2, status_text(status)).bind(3, error).run();
  require_run_changed(db_, "set_status", run_id);
}

void Database::set_started(int64_t run_id, int64_t total_steps, int64_t train_size,
                           const std::string& model_json) {
  Statement st(db_,
               "UPDATE runs SET status = ?4, started_at = ?2, total_steps = ?3, train_size = ?5, "
               "model_json = CASE WHEN ?6 = '' THEN model_json ELSE ?6 END WHERE id = ?1");
  st.bind(1, run_id).bind(2, now_unix_seconds()).bind(3, total_steps);
  st.bind(4, status_text(RunStatus::kRunning)).bind(5, train_size).bind(6, model_json).run();
  require_run_changed(db_, "set_started", run_id);
}

void Database::finish_run(int64_t run_id, RunStatus status, const std::string& error,
                          double samples_per_s) {
  // One statement, so the finals and the status change together.
  Statement st(db_, std::string("UPDATE runs SET status = ?2, error = ?3, finished_at = ?4, "
                                "samples_per_s = ?5,") +
                        kSetFinals + " WHERE id = ?1");
  st.bind(1, run_id).bind(2, status_text(status)).bind(3, error).bind(4, now_unix_seconds());
  st.bind(5, samples_per_s).run();
  require_run_changed(db_, "finish_run", run_id);
}

void Database::set_job(int64_t run_id, const std::string& job_id, const std::string& job_folder) {
  if (schema_ < 9) throw StorageError("set_job: the database's schema has no jobs");
  Statement st(db_, "UPDATE runs SET job_id = ?2, job_folder = ?3 WHERE id = ?1");
  st.bind(1, run_id).bind(2, job_id).bind(3, job_folder).run();
  require_run_changed(db_, "set_job", run_id);
}

void Database::set_job_state(int64_t run_id, const std::string& job_state) {
  if (schema_ < 9) throw StorageError("set_job_state: the database's schema has no jobs");
  Statement st(db_, "UPDATE runs SET job_state = ?2 WHERE id = ?1");
  st.bind(1, run_id).bind(2, job_state).run();
  require_run_changed(db_, "set_job_state", run_id);
}

void Database::rename_run(int64_t run_id, const std::string& label) {
  Statement st(db_, "UPDATE runs SET label = ?2 WHERE id = ?1");
  st.bind(1, run_id).bind(2, one_line(label)).run();
  require_run_changed(db_, "rename_run", run_id);
}

void Database::set_notes(int64_t run_id, const std::string& notes) {
  Statement st(db_, "UPDATE runs SET notes = ?2 WHERE id = ?1");
  st.bind(1, run_id).bind(2, notes).run();
  require_run_changed(db_, "set_notes", run_id);
}

void Database::set_counterfactual_of(int64_t run_id, int64_t explained, int64_t reference,
                                     const std::string& cause) {
  Statement st(db_,
               "UPDATE runs SET explains_run = ?2, explains_reference = ?3, explains_cause = ?4 "
               "WHERE id = ?1");
  st.bind(1, run_id).bind(2, explained).bind(3, reference).bind(4, cause).run();
  require_run_changed(db_, "set_counterfactual_of", run_id);
}

void Database::delete_run(int64_t run_id) {
  // Steps and evals go with it: ON DELETE CASCADE, in the same implicit transaction.
  Statement st(db_, "DELETE FROM runs WHERE id = ?1");
  st.bind(1, run_id).run();
  require_run_changed(db_, "delete_run", run_id);
}

std::string Database::run_columns() const {
  std::string columns = kRunColumnsV1;
  if (schema_ >= 2) columns += kRunColumnsV2;
  if (schema_ >= 3) columns += kRunColumnsV3;
  if (schema_ >= 4) columns += kRunColumnsV4;
  if (schema_ >= 5) columns += kRunColumnsV5;
  if (schema_ >= 8) columns += kRunColumnsV8;
  if (schema_ >= 9) columns += kRunColumnsV9;
  return columns + " FROM runs";
}

void Database::claim_run(int64_t run_id, const SupervisorIdentity& who) {
  Statement st(db_,
               "UPDATE runs SET supervisor_pid = ?2, supervisor_start_time = ?3, "
               "supervisor_host = ?4, supervisor_boot_id = ?5, heartbeat_at = ?6, "
               "parity_version = ?7 WHERE id = ?1");
  st.bind(1, run_id).bind(2, who.pid).bind(3, who.start_time).bind(4, who.host);
  st.bind(5, who.boot_id).bind(6, now_unix_seconds()).bind(7, std::string(kVersion)).run();
  require_run_changed(db_, "claim_run", run_id);
}

void Database::heartbeat(int64_t run_id) {
  Statement st(db_, "UPDATE runs SET heartbeat_at = ?2 WHERE id = ?1");
  st.bind(1, run_id).bind(2, now_unix_seconds()).run();
  require_run_changed(db_, "heartbeat", run_id);
}

std::vector<int64_t> Database::reconcile_orphaned_runs() {
  std::vector<int64_t> marked;
  if (read_only_ || schema_ < 3) return marked;
  struct Candidate {
    int64_t id, steps_done;
    SupervisorIdentity who;
    double heartbeat_at;
  };
  std::vector<Candidate> candidates;
  {
    Statement st(db_,
                 "SELECT id, steps_done, supervisor_pid, supervisor_start_time, supervisor_host, "
                 "supervisor_boot_id, heartbeat_at FROM runs WHERE supervisor_pid > 0 AND "
                 "status IN (?1, ?2)");
    st.bind(1, status_text(RunStatus::kQueued)).bind(2, status_text(RunStatus::kRunning));
    while (st.step()) {
      Candidate c{st.column_int64(0), st.column_int64(1), {}, st.column_double(6)};
      c.who.pid = st.column_int64(2);
      c.who.start_time = st.column_int64(3);
      c.who.host = st.column_text(4);
      c.who.boot_id = st.column_text(5);
      candidates.push_back(std::move(c));
    }
  }
  const double now = now_unix_seconds();
  for (const auto& c : candidates) {
    if (!supervisor_gone(c.who, c.heartbeat_at, now)) continue;
    // Guarded by status and supervisor: a run that ended, or was claimed anew, since the SELECT
    // is left alone. It ended at its last sign of life.
    Statement st(db_, std::string("UPDATE runs SET status = ?2, error = ?3, "
                                  "finished_at = MAX(?4, COALESCE(started_at, 0)),") +
                          kSetFinals +
                          " WHERE id = ?1 AND status IN (?5, ?6) AND supervisor_pid = ?7 AND "
                          "supervisor_start_time = ?8");
    st.bind(1, c.id).bind(2, status_text(RunStatus::kFailed));
    st.bind(3, launcher_gone_message(c.steps_done));
    st.bind(4, c.heartbeat_at > 0 ? c.heartbeat_at : now);
    st.bind(5, status_text(RunStatus::kQueued)).bind(6, status_text(RunStatus::kRunning));
    st.bind(7, c.who.pid).bind(8, c.who.start_time).run();
    if (sqlite3_changes(db_) > 0) marked.push_back(c.id);
  }
  return marked;
}

RunRow Database::read_shown_run(const Statement& st) const {
  RunRow run = read_run(st, schema_);
  restore_nan_finals(db_, run);
  if (read_only_ && schema_ >= 3 && is_active(run.status) &&
      supervisor_gone(run.supervisor, run.heartbeat_at, now_unix_seconds())) {
    show_as_reconciled(db_, run);
  }
  return run;
}

std::vector<RunRow> Database::list_runs() const {
  std::vector<RunRow> runs;
  Statement st(db_, run_columns() + " ORDER BY id");
  while (st.step()) runs.push_back(read_shown_run(st));
  return runs;
}

std::vector<RunRow> Database::list_runs(const std::vector<int64_t>& ids, int64_t after_id) const {
  std::vector<int64_t> wanted = ids;
  std::sort(wanted.begin(), wanted.end());
  wanted.erase(std::unique(wanted.begin(), wanted.end()), wanted.end());
  std::vector<RunRow> runs;
  {
    // One primary-key seek per id.
    Statement st(db_, run_columns() + " WHERE id = ?1");
    for (int64_t id : wanted) {
      if (id > after_id) break;  // the range query below reads it
      st.bind(1, id);
      if (st.step()) runs.push_back(read_shown_run(st));
      st.reset();
    }
  }
  Statement st(db_, run_columns() + " WHERE id > ?1 ORDER BY id");
  st.bind(1, after_id);
  while (st.step()) runs.push_back(read_shown_run(st));
  return runs;
}

std::vector<RunRow> Database::counterfactuals_of(int64_t run_id) const {
  std::vector<RunRow> runs;
  if (schema_ < 4) return runs;  // a read-only file of an older schema links nothing
  Statement st(db_, run_columns() + " WHERE explains_run = ?1 ORDER BY id");
  st.bind(1, run_id);
  while (st.step()) runs.push_back(read_shown_run(st));
  return runs;
}

std::optional<RunRow> Database::get_run(int64_t run_id) const {
  Statement st(db_, run_columns() + " WHERE id = ?1");
  st.bind(1, run_id);
  if (!st.step()) return std::nullopt;
  return read_shown_run(st);
}

ChangeStamp Database::change_stamp() const {
  Statement st(db_, "PRAGMA data_version");
  st.step();
  return {st.column_int64(0), static_cast<int64_t>(sqlite3_total_changes64(db_))};
}

std::vector<RunHash> Database::ended_run_hashes() const {
  // Every column of the schema but config_json, read as SQLite stores it (no conversions), so
  // the hash sees exactly what changed.
  std::string columns =
      "id, label, status, error, notes, created_at, started_at, finished_at, "
      "total_steps, steps_done, samples_per_s, final_loss, final_eval_loss, "
      "final_accuracy";
  if (schema_ >= 2) columns += ", train_size";
  if (schema_ >= 3) {
    columns +=
        ", supervisor_pid, supervisor_start_time, supervisor_host, supervisor_boot_id, "
        "heartbeat_at";
  }
  // A deleted run's links are cleared on the ended runs that pointed at it (the trigger).
  if (schema_ >= 4) columns += ", model_json, explains_run, explains_reference, explains_cause";
  // An imported run's facts change with `parity-cli set` after it ended.
  if (schema_ >= 5) columns += ", origin, source_path, source_identity, facts_json";
  if (schema_ >= 8) columns += ", parity_version";
  // A job's state reaches its last word after the run ended (COMPLETED, CANCELLED).
  if (schema_ >= 9) columns += kRunColumnsV9;
  Statement st(db_, "SELECT " + columns + " FROM runs WHERE status NOT IN (?1, ?2) ORDER BY id");
  st.bind(1, status_text(RunStatus::kQueued)).bind(2, status_text(RunStatus::kRunning));
  std::vector<RunHash> hashes;
  uint64_t h = 0;
  auto mix = [&h](const void* data, std::size_t n) {
    const auto* p = static_cast<const unsigned char*>(data);
    for (std::size_t i = 0; i < n; ++i) h = (h ^ p[i]) * 1099511628211ull;
  };
  while (st.step()) {
    h = 14695981039346656037ull;  // FNV-1a, over (type, bytes) of every value of the row
    sqlite3_stmt* raw = st.handle();
    const int n = sqlite3_column_count(raw);
    for (int c = 0; c < n; ++c) {
      const unsigned char type = static_cast<unsigned char>(sqlite3_column_type(raw, c));
      mix(&type, 1);
      if (type == SQLITE_INTEGER) {
        const int64_t v = sqlite3_column_int64(raw, c);
        mix(&v, sizeof v);
      } else if (type == SQLITE_FLOAT) {
        const double v = sqlite3_column_double(raw, c);
        mix(&v, sizeof v);
      } else if (type != SQLITE_NULL) {
        const void* bytes = sqlite3_column_blob(raw, c);
        const int size = sqlite3_column_bytes(raw, c);
        mix(&size, sizeof size);
        if (size > 0) mix(bytes, static_cast<std::size_t>(size));
      }
    }
    hashes.push_back({sqlite3_column_int64(raw, 0), h});
  }
  return hashes;
}

}  // namespace parity::storage
