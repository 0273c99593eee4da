// A run's curve: its step rows (the global mean and each rank's loss) and its evaluations, the
// two tables that grow while it trains. The runs table is database.cpp's.
#include <parity/storage/database.h>
#include <sqlite3.h>

#include <algorithm>
#include <limits>
#include <map>
#include <string>
#include <vector>

#include "database_internal.h"
#include "statement.h"

namespace parity::storage {

using detail::Statement;
using detail::Transaction;

void Database::append_steps(const std::vector<StepRow>& rows) {
  if (rows.empty()) return;
  Transaction tx(db_);
  Statement insert(db_,
                   "INSERT OR REPLACE INTO steps (run_id, step, rank, epoch, samples, loss, lr, "
                   "time_s) VALUES (?,?,?,?,?,?,?,?)");
  std::map<int64_t, int64_t> last_global_step;
  for (const auto& row : rows) {
    if (row.rank < -1) {
      throw StorageError("append_steps: rank " + std::to_string(row.rank) + " of run " +
                         std::to_string(row.run_id) + " (must be -1 for global, or >= 0)");
    }
    insert.bind(1, row.run_id).bind(2, row.step).bind(3, row.rank).bind(4, row.epoch);
    insert.bind(5, row.samples).bind(6, row.loss).bind(7, row.lr).bind(8, row.time_s);
    try {
      insert.run();
    } catch (const StorageError& e) {
      throw StorageError("append_steps: run " + std::to_string(row.run_id) + " step " +
                         std::to_string(row.step) + " rank " + std::to_string(row.rank) + ": " +
                         e.what());
    }
    insert.reset();
    if (row.rank == -1) {
      auto [it, inserted] = last_global_step.emplace(row.run_id, row.step);
      if (!inserted) it->second = std::max(it->second, row.step);
    }
  }
  Statement update(db_, "UPDATE runs SET steps_done = MAX(steps_done, ?2) WHERE id = ?1");
  for (const auto& [run_id, step] : last_global_step) {
    update.bind(1, run_id).bind(2, step).run();
    update.reset();
  }
  tx.commit();
}

void Database::append_evals(const std::vector<EvalRow>& rows) {
  if (rows.empty()) return;
  Transaction tx(db_);
  Statement insert(db_,
                   "INSERT OR REPLACE INTO evals (run_id, epoch, step, samples, loss, accuracy) "
                   "VALUES (?,?,?,?,?,?)");
  for (const auto& row : rows) {
    insert.bind(1, row.run_id).bind(2, row.epoch).bind(3, row.step).bind(4, row.samples);
    insert.bind(5, row.loss).bind(6, row.accuracy);
    try {
      insert.run();
    } catch (const StorageError& e) {
      throw StorageError("append_evals: run " + std::to_string(row.run_id) + " epoch " +
                         std::to_string(row.epoch) + " step " + std::to_string(row.step) + ": " +
                         e.what());
    }
    insert.reset();
  }
  tx.commit();
}

std::vector<StepRow> Database::steps(int64_t run_id, int rank, int64_t after_step) const {
  Statement st(db_,
               "SELECT run_id, step, rank, epoch, samples, loss, lr, time_s FROM steps "
               "WHERE run_id = ?1 AND rank = ?2 AND step > ?3 ORDER BY step");
  st.bind(1, run_id).bind(2, rank).bind(3, after_step);
  std::vector<StepRow> rows;
  while (st.step()) {
    StepRow r;
    r.run_id = st.column_int64(0);
    r.step = st.column_int64(1);
    r.rank = static_cast<int>(st.column_int64(2));
    r.epoch = st.column_double_or_nan(3);
    r.samples = st.column_int64(4);
    r.loss = st.column_double_or_nan(5);
    r.lr = st.column_double_or_nan(6);
    r.time_s = st.column_double_or_nan(7);
    rows.push_back(r);
  }
  return rows;
}

std::vector<int> Database::ranks(int64_t run_id) const {
  // One index seek per rank (min/max optimisation on steps_by_rank) instead of a DISTINCT scan
  // over every row of a long run.
  Statement st(db_, "SELECT MIN(rank) FROM steps WHERE run_id = ?1 AND rank > ?2");
  std::vector<int> result;
  int64_t after = std::numeric_limits<int64_t>::min();
  while (true) {
    st.bind(1, run_id).bind(2, after);
    if (!st.step() || st.is_null(0)) break;
    after = st.column_int64(0);
    result.push_back(static_cast<int>(after));
    st.reset();
  }
  return result;
}

std::vector<EvalRow> Database::evals(int64_t run_id) const {
  Statement st(db_,
               "SELECT run_id, epoch, step, samples, loss, accuracy FROM evals WHERE run_id = ?1 "
               "ORDER BY step, epoch");
  st.bind(1, run_id);
  std::vector<EvalRow> rows;
  while (st.step()) {
    EvalRow r;
    r.run_id = st.column_int64(0);
    r.epoch = static_cast<int>(st.column_int64(1));
    r.step = st.column_int64(2);
    r.samples = st.column_int64(3);
    r.loss = st.column_double_or_nan(4);
    r.accuracy = st.column_optional(5);
    rows.push_back(r);
  }
  return rows;
}

}  // namespace parity::storage
