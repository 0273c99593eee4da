// Runs read from logs (TensorBoard, trainer_state.json, MLflow, CSV): created with all their
// rows in one transaction, re-imported by appending only what is new, their facts edited later.
#include <parity/storage/database.h>
#include <parity/version.h>
#include <sqlite3.h>

#include <nlohmann/json.hpp>

#include "database_internal.h"
#include "statement.h"
#include "step_feed.h"

namespace parity::storage {

using detail::Statement;
using detail::Transaction;

namespace {

constexpr const char* kInsertSteps =
    "INSERT OR REPLACE INTO steps (run_id, step, rank, epoch, samples, loss, lr, time_s) "
    "SELECT ?1, step, rank, epoch, samples, loss, lr, time_s FROM parity_step_feed(?2)";
constexpr const char* kInsertEval =
    "INSERT OR REPLACE INTO evals (run_id, epoch, step, samples, loss, accuracy) "
    "VALUES (?,?,?,?,?,?)";

int64_t last_value(sqlite3* db, const char* sql, int64_t run_id) {
  Statement st(db, sql);
  st.bind(1, run_id);
  return st.step() ? st.column_int64(0) : 0;
}

/// The page cache of `db` at `kib` KiB while it lives, its earlier size after.
class LargerCache {
 public:
  LargerCache(sqlite3* db, int kib) : db_(db) {
    Statement st(db, "PRAGMA cache_size");
    pages_ = st.step() ? st.column_int64(0) : -2000;
    detail::exec(db, "PRAGMA cache_size = -" + std::to_string(kib));
  }
  ~LargerCache() {
    const std::string sql = "PRAGMA cache_size = " + std::to_string(pages_);
    sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, nullptr);  // a destructor does not throw
  }
  LargerCache(const LargerCache&) = delete;
  LargerCache& operator=(const LargerCache&) = delete;

 private:
  sqlite3* db_;
  int64_t pages_ = -2000;
};

/// 32 MiB: a 2 M-step import then writes each page about once (16 MiB did not help, 64 MiB added
/// 36 MB of memory for nothing more; bench/results.md).
constexpr int kImportCacheKiB = 32 * 1024;

}  // namespace

std::optional<int64_t> Database::find_run_by_source(const std::string& source_identity) const {
  if (schema_ < 5 || source_identity.empty()) return std::nullopt;
  Statement st(db_, "SELECT id FROM runs WHERE source_identity = ?1");
  st.bind(1, source_identity);
  if (!st.step()) return std::nullopt;
  return st.column_int64(0);
}

ImportOutcome Database::import_run(const ImportedRunRecord& run) {
  return import_run(run, [](StepRow&) { return false; });
}

ImportOutcome Database::import_run(const ImportedRunRecord& run,
                                   const std::function<bool(StepRow&)>& next_step) {
  if (run.source_identity.empty()) throw StorageError("import_run: the run has no source identity");
  if (!run.config_json.empty() && !nlohmann::json::accept(run.config_json)) {
    throw StorageError("import_run: config_json is not valid JSON");
  }
  // A big import is one transaction of millions of rows: with SQLite's default 2 MB page cache
  // the B-trees' right edges spill to the WAL again and again (pwrite took half the import's
  // time). A larger cache for the import alone; the connection's own is restored after.
  const LargerCache cache(db_, kImportCacheKiB);
  Transaction tx(db_);
  ImportOutcome out;
  int64_t after_step = -1, after_eval_step = -1;
  if (const auto existing = find_run_by_source(run.source_identity)) {
    out.run_id = *existing;
    after_step =
        last_value(db_, "SELECT MAX(step) FROM steps WHERE run_id = ?1 AND rank = -1", out.run_id);
    after_eval_step = last_value(db_, "SELECT MAX(step) FROM evals WHERE run_id = ?1", out.run_id);
  } else {
    std::string label = run.label;
    for (char& c : label)
      if (c == '\n' || c == '\r' || c == '\t') c = ' ';
    Statement st(db_,
                 "INSERT INTO runs (label, status, created_at, started_at, config_json, notes, "
                 "train_size, origin, source_path, source_identity, facts_json, parity_version) "
                 "VALUES (?,?,?,?,?,?,?,?,?,?,?,?)");
    const double now = detail::now_unix_seconds();
    st.bind(1, label).bind(2, std::string(to_string(RunStatus::kFinished))).bind(3, now);
    st.bind(4, now).bind(5, run.config_json.empty() ? std::string("{}") : run.config_json);
    st.bind(6, run.notes).bind(7, run.train_size);
    st.bind(8, std::string(to_string(run.origin))).bind(9, run.source_path);
    st.bind(10, run.source_identity).bind(11, run.facts_json).bind(12, std::string(kVersion));
    st.run();
    out.run_id = sqlite3_last_insert_rowid(db_);
    out.created = true;
  }
  // One statement for all the rows (step_feed.h), not one per row.
  detail::StepFeed feed;
  feed.first = &run.steps;
  feed.next = &next_step;
  feed.after_step = after_step;
  Statement insert(db_, kInsertSteps);
  insert.bind(1, out.run_id);
  if (sqlite3_bind_pointer(insert.handle(), 2, &feed, detail::kStepFeedPointer, nullptr) !=
      SQLITE_OK) {
    detail::throw_sqlite(db_, "cannot bind the step feed");
  }
  try {
    insert.run();
  } catch (const StorageError&) {
    if (feed.error) std::rethrow_exception(feed.error);  // the source's own error, not SQLite's
    throw;
  }
  out.steps_added = feed.global_rows;
  Statement eval(db_, kInsertEval);
  for (const EvalRow& row : run.evals) {
    if (row.step <= after_eval_step) continue;
    eval.bind(1, out.run_id).bind(2, row.epoch).bind(3, row.step).bind(4, row.samples);
    eval.bind(5, row.loss).bind(6, row.accuracy).run();
    eval.reset();
    ++out.evals_added;
  }
  // Its samples/s as Compare reads it (the last logged point's samples over its time), so the
  // Runs table shows what Compare does; 0 (blank) where the log has no time or no samples.
  static const std::string kImportedSpeed =
      "COALESCE((SELECT CASE WHEN time_s > 0 THEN samples / time_s ELSE 0 END FROM steps "
      "WHERE run_id = ?1 AND rank = -1 ORDER BY step DESC LIMIT 1), 0)";
  // The steps it ran as far as the log knows: its last logged step (a log every 10 steps has a
  // tenth as many rows), for steps_done and total_steps alike.
  Statement finals(db_, std::string("UPDATE runs SET finished_at = ?2, steps_done = "
                                    "(SELECT COALESCE(MAX(step), 0) FROM steps WHERE run_id = ?1 "
                                    "AND rank = -1), total_steps = (SELECT COALESCE(MAX(step), 0) "
                                    "FROM steps WHERE run_id = ?1 AND rank = -1), "
                                    "samples_per_s = " + kImportedSpeed + ",") +
                            detail::kSetFinals + " WHERE id = ?1");
  finals.bind(1, out.run_id).bind(2, detail::now_unix_seconds()).run();
  tx.commit();
  return out;
}

void Database::set_origin(int64_t run_id, RunOrigin origin, const std::string& source_path) {
  if (schema_ < 5) throw StorageError("set_origin: the database's schema has no origin");
  Statement st(db_, "UPDATE runs SET origin = ?2, source_path = ?3 WHERE id = ?1");
  st.bind(1, run_id).bind(2, std::string(to_string(origin))).bind(3, source_path).run();
  if (sqlite3_changes(db_) == 0) {
    throw StorageError("set_origin: no run with id " + std::to_string(run_id));
  }
}

void Database::set_facts(int64_t run_id, const std::string& facts_json,
                         const std::string& config_json) {
  if (schema_ < 5) throw StorageError("set_facts: the database's schema has no facts");
  if (!config_json.empty() && !nlohmann::json::accept(config_json)) {
    throw StorageError("set_facts: config_json is not valid JSON");
  }
  Statement st(db_,
               "UPDATE runs SET facts_json = ?2, config_json = CASE WHEN ?3 = '' THEN "
               "config_json ELSE ?3 END WHERE id = ?1");
  st.bind(1, run_id).bind(2, facts_json).bind(3, config_json).run();
  if (sqlite3_changes(db_) == 0) {
    throw StorageError("set_facts: no run with id " + std::to_string(run_id));
  }
}

}  // namespace parity::storage
