// MLflow's SQLite store (its tables in mlflow/store/tracking/dbmodels/models.py), read-only: the
// file is opened with SQLite's mode=ro (never written, no journal made), or immutable=1 where
// mode=ro cannot read it (a hot journal left by an MLflow killed mid-commit, which a read-only
// connection may not roll back; a WAL database in a folder Parity cannot write).
#include <parity/ingest/ingest_error.h>
#include <parity/ingest/mlflow.h>
#include <sqlite3.h>

#include <limits>
#include <unordered_map>

#include "mlflow_stores.h"

namespace parity::ingest {

namespace {

struct CloseDb {
  void operator()(sqlite3* db) const { sqlite3_close_v2(db); }
};
using Db = std::unique_ptr<sqlite3, CloseDb>;

class Statement {
 public:
  Statement(sqlite3* db, const char* sql) : db_(db) {
    if (sqlite3_prepare_v2(db, sql, -1, &stmt_, nullptr) != SQLITE_OK) {
      const std::string why = sqlite3_errmsg(db);
      sqlite3_finalize(stmt_);
      throw IngestError(std::string(sqlite3_db_filename(db, "main")) + ": " + why);
    }
  }
  ~Statement() { sqlite3_finalize(stmt_); }
  Statement(const Statement&) = delete;
  Statement& operator=(const Statement&) = delete;
  sqlite3_stmt* get() const { return stmt_; }
  /// SQLITE_ROW, SQLITE_DONE, or SQLITE_BUSY while MLflow commits; throws for anything else.
  int step() {
    const int rc = sqlite3_step(stmt_);
    if (rc == SQLITE_ROW || rc == SQLITE_DONE || rc == SQLITE_BUSY || rc == SQLITE_LOCKED)
      return rc;
    throw IngestError(std::string(sqlite3_db_filename(db_, "main")) + ": " + sqlite3_errmsg(db_));
  }
  std::string text(int col) const {
    const auto* t = sqlite3_column_text(stmt_, col);
    return t ? reinterpret_cast<const char*>(t) : "";
  }
  int64_t int64(int col) const { return sqlite3_column_int64(stmt_, col); }
  double real(int col) const { return sqlite3_column_double(stmt_, col); }

 private:
  sqlite3* db_;
  sqlite3_stmt* stmt_ = nullptr;
};

// A path as an SQLite URI's path: the characters a URI gives meaning to escaped.
std::string uri_path(const std::string& file) {
  std::string out;
  for (const char c : file) {
    if (c == '%')
      out += "%25";
    else if (c == '?')
      out += "%3f";
    else if (c == '#')
      out += "%23";
    else
      out += c;
  }
  return out;
}

// The file opened read-only, or nothing when it is no SQLite database or cannot be read.
Db open_read_only(const std::string& file, bool* immutable) {
  for (const char* mode : {"mode=ro", "immutable=1"}) {
    sqlite3* raw = nullptr;
    const std::string uri = "file:" + uri_path(file) + "?" + mode;
    const int rc =
        sqlite3_open_v2(uri.c_str(), &raw, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, nullptr);
    Db db(raw);
    if (rc != SQLITE_OK) continue;
    // Opening reads nothing: the first query says whether the file can be read.
    const int probe =
        sqlite3_exec(raw, "SELECT count(*) FROM sqlite_master", nullptr, nullptr, nullptr);
    if (probe == SQLITE_NOTADB) return nullptr;  // not SQLite: left alone
    if (probe != SQLITE_OK) continue;
    sqlite3_busy_timeout(raw, 1000);  // MLflow may be committing
    *immutable = std::string(mode) == "immutable=1";
    return db;
  }
  return nullptr;
}

// MLflow's tables with the columns read (a prepared SELECT fails on any that is missing).
bool has_mlflow_tables(sqlite3* db) {
  for (const char* sql :
       {"SELECT rowid, run_uuid, key, value, timestamp, step, is_nan FROM metrics",
        "SELECT rowid, run_uuid, key, value FROM params", "SELECT run_uuid, key, value FROM tags",
        "SELECT run_uuid, name, experiment_id, lifecycle_stage FROM runs",
        "SELECT experiment_id, name, lifecycle_stage FROM experiments"}) {
    sqlite3_stmt* stmt = nullptr;
    const int rc = sqlite3_prepare_v2(db, sql, -1, &stmt, nullptr);
    sqlite3_finalize(stmt);
    if (rc != SQLITE_OK) return false;
  }
  return true;
}

}  // namespace

/// One SQLite store and what its runs logged, read past the last rowid of metrics and params
/// (MLflow only inserts them: params are immutable, metrics appended).
class MlflowSqliteStore {
 public:
  MlflowSqliteStore(std::string file, Db db, bool immutable)
      : file_(std::move(file)), db_(std::move(db)), immutable_(immutable) {}
  sqlite3* db() const { return db_.get(); }
  const std::string& file() const { return file_; }
  bool immutable() const { return immutable_; }
  void track(const std::string& run_id, const std::string& experiment,
             const std::string& run_name) {
    Tracked& t = runs_[run_id];
    t.data.run_id = run_id;
    t.data.experiment = experiment;
    t.data.run_name = run_name;
  }
  /// Reads the rows added since the last call, for every run tracked.
  void refresh();
  const MlflowRunData& data(const std::string& run_id) const { return runs_.at(run_id).data; }
  int64_t version(const std::string& run_id) const { return runs_.at(run_id).version; }

 private:
  struct Tracked {
    MlflowRunData data;
    int64_t version = 0;  ///< rows read for it
  };
  std::string file_;
  Db db_;
  bool immutable_;
  std::unordered_map<std::string, Tracked> runs_;
  int64_t metrics_rowid_ = 0, params_rowid_ = 0;
};

void MlflowSqliteStore::refresh() {
  // rowid > ? walks the table's own b-tree from the last row read: a poll with nothing new is
  // one look-up. The rows read before a BUSY are kept: the next poll goes on after them.
  Statement m(db_.get(),
              "SELECT rowid, run_uuid, key, value, timestamp, step, is_nan FROM metrics "
              "WHERE rowid > ? ORDER BY rowid");
  sqlite3_bind_int64(m.get(), 1, metrics_rowid_);
  while (m.step() == SQLITE_ROW) {
    metrics_rowid_ = m.int64(0);
    const auto it = runs_.find(m.text(1));
    if (it == runs_.end()) continue;
    TagSeries& s = it->second.data.metrics[m.text(2)];
    s.values.push_back(m.int64(6) != 0 ? std::numeric_limits<double>::quiet_NaN() : m.real(3));
    s.wall_times.push_back(static_cast<double>(m.int64(4)) / 1000.0);
    s.steps.push_back(m.int64(5));
    ++it->second.version;
  }
  Statement p(db_.get(), "SELECT rowid, run_uuid, key, value FROM params WHERE rowid > ?");
  sqlite3_bind_int64(p.get(), 1, params_rowid_);
  while (p.step() == SQLITE_ROW) {
    params_rowid_ = std::max(params_rowid_, p.int64(0));
    const auto it = runs_.find(p.text(1));
    if (it == runs_.end()) continue;
    it->second.data.params[p.text(2)] = p.text(3);
    ++it->second.version;
  }
}

MlflowSqliteRun::MlflowSqliteRun(std::string name, std::shared_ptr<MlflowSqliteStore> store,
                                 std::string run_id)
    : name_(std::move(name)), run_id_(std::move(run_id)), store_(std::move(store)) {}

bool MlflowSqliteRun::poll() {
  store_->refresh();
  const int64_t v = store_->version(run_id_);
  if (v == seen_) return false;
  seen_ = v;
  return true;
}

ImportedRun MlflowSqliteRun::run(const ImportOptions& options) const {
  ImportedRun run = mlflow_imported_run(store_->data(run_id_), store_->file(), options);
  run.name = name_;
  if (store_->immutable()) {
    run.notes.push_back(store_->file() +
                        " could only be opened immutable (mode=ro failed): rows written while "
                        "following are not seen");
  }
  return run;
}

bool is_mlflow_sqlite(const std::string& file) {
  bool immutable = false;
  const Db db = open_read_only(file, &immutable);
  return db && has_mlflow_tables(db.get());
}

namespace detail {

void find_sqlite_runs(const std::string& file, std::vector<MlflowFound>& out) {
  bool immutable = false;
  Db db = open_read_only(file, &immutable);
  if (!db || !has_mlflow_tables(db.get())) return;
  auto store = std::make_shared<MlflowSqliteStore>(file, std::move(db), immutable);
  // The run name is runs.name, else the tag mlflow.runName (SqlRun.to_mlflow_entity's rule).
  Statement s(store->db(),
              "SELECT r.run_uuid, COALESCE(r.name, ''), COALESCE(e.name, ''), "
              "COALESCE((SELECT t.value FROM tags t WHERE t.run_uuid = r.run_uuid AND "
              "t.key = 'mlflow.runName'), '') "
              "FROM runs r LEFT JOIN experiments e ON e.experiment_id = r.experiment_id "
              "WHERE COALESCE(r.lifecycle_stage, '') != 'deleted' "
              "AND COALESCE(e.lifecycle_stage, '') != 'deleted' "
              "ORDER BY r.experiment_id, r.start_time, r.run_uuid");
  int rc = 0;
  while ((rc = s.step()) == SQLITE_ROW) {
    MlflowFound f;
    f.run_id = s.text(0);
    f.run_name = s.text(1).empty() ? s.text(3) : s.text(1);
    if (f.run_name.empty()) f.run_name = f.run_id;
    f.experiment = s.text(2);
    store->track(f.run_id, f.experiment, f.run_name);
    f.make = [store, id = f.run_id](std::string name) {
      return std::make_unique<MlflowSqliteRun>(std::move(name), store, id);
    };
    out.push_back(std::move(f));
  }
  if (rc != SQLITE_DONE) throw IngestError(file + ": busy (MLflow is writing); try again");
}

}  // namespace detail

}  // namespace parity::ingest
