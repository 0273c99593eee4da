// What the window keeps with the database: which runs the user chose to draw (run_shown) and the
// setups and experiment it configured (window_setups).
#include <parity/storage/database.h>
#include <sqlite3.h>

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "statement.h"

namespace parity::storage {

using detail::Statement;
using detail::Transaction;

void Database::set_shown_choices(const std::vector<int64_t>& run_ids, bool shown) {
  if (run_ids.empty()) return;
  Transaction tx(db_);
  // Only runs that exist: a run deleted by another process meanwhile leaves no orphan row.
  Statement upsert(db_,
                   "INSERT INTO run_shown (run_id, shown) SELECT id, ?2 FROM runs WHERE id = ?1 "
                   "ON CONFLICT(run_id) DO UPDATE SET shown = excluded.shown");
  for (const int64_t id : run_ids) {
    upsert.bind(1, id).bind(2, shown ? 1 : 0).run();
    upsert.reset();
  }
  tx.commit();
}

std::map<int64_t, bool> Database::shown_choices() const {
  std::map<int64_t, bool> choices;
  if (schema_ < 6) return choices;
  Statement st(db_, "SELECT run_id, shown FROM run_shown");
  while (st.step()) choices[st.column_int64(0)] = st.column_int64(1) != 0;
  return choices;
}

void Database::save_setups(const std::string& json) {
  Statement st(db_,
               "INSERT INTO window_setups (id, json, saved_at) VALUES (1, ?1, "
               "(julianday('now') - 2440587.5) * 86400.0) "
               "ON CONFLICT(id) DO UPDATE SET json = excluded.json, saved_at = excluded.saved_at");
  st.bind(1, json).run();
}

std::optional<std::string> Database::saved_setups() const {
  if (schema_ < 7) return std::nullopt;
  Statement st(db_, "SELECT json FROM window_setups WHERE id = 1");
  if (!st.step()) return std::nullopt;
  return st.column_text(0);
}

}  // namespace parity::storage
