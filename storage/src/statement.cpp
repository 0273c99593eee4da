#include "statement.h"

#include <chrono>
#include <cmath>
#include <limits>

namespace parity::storage::detail {

namespace {

// SQL as one line for a message: a statement written over several lines would otherwise print
// over as many (an error is one line wherever it is shown).
std::string one_line_sql(const std::string& sql) {
  std::string out;
  for (char c : sql) {
    const bool space = c == ' ' || c == '\n' || c == '\t' || c == '\r';
    if (space && (out.empty() || out.back() == ' ')) continue;
    out += space ? ' ' : c;
  }
  while (!out.empty() && out.back() == ' ') out.pop_back();
  return out;
}

}  // namespace

void throw_sqlite(sqlite3* db, const std::string& what) {
  std::string message = what + ": " + (db ? sqlite3_errmsg(db) : "out of memory");
  const char* file = db ? sqlite3_db_filename(db, "main") : nullptr;
  if (file && *file) message += std::string(" (database '") + file + "')";
  throw StorageError(message, db ? sqlite3_extended_errcode(db) : SQLITE_NOMEM);
}

void exec(sqlite3* db, const std::string& sql) {
  if (!db) throw StorageError("no open database connection (the Database was moved from)");
  if (sqlite3_exec(db, sql.c_str(), nullptr, nullptr, nullptr) != SQLITE_OK) {
    throw_sqlite(db, "SQL failed [" + one_line_sql(sql) + "]");
  }
}

double now_unix_seconds() {
  using namespace std::chrono;
  return duration<double>(system_clock::now().time_since_epoch()).count();
}

Statement::Statement(sqlite3* db, const std::string& sql) : db_(db), sql_(one_line_sql(sql)) {
  if (!db_) throw StorageError("no open database connection (the Database was moved from)");
  if (sqlite3_prepare_v2(db_, sql.c_str(), static_cast<int>(sql.size() + 1), &stmt_, nullptr) !=
      SQLITE_OK) {
    throw_sqlite(db_, "cannot prepare [" + sql_ + "]");
  }
}

Statement::~Statement() { sqlite3_finalize(stmt_); }

Statement& Statement::bind(int index, int64_t value) {
  if (sqlite3_bind_int64(stmt_, index, value) != SQLITE_OK) {
    throw_sqlite(db_, "cannot bind parameter " + std::to_string(index) + " of [" + sql_ + "]");
  }
  return *this;
}

Statement& Statement::bind(int index, double value) {
  if (std::isnan(value)) return bind_null(index);
  if (sqlite3_bind_double(stmt_, index, value) != SQLITE_OK) {
    throw_sqlite(db_, "cannot bind parameter " + std::to_string(index) + " of [" + sql_ + "]");
  }
  return *this;
}

Statement& Statement::bind(int index, const std::optional<double>& value) {
  return value ? bind(index, *value) : bind_null(index);
}

Statement& Statement::bind(int index, const std::string& value) {
  if (sqlite3_bind_text(stmt_, index, value.data(), static_cast<int>(value.size()),
                        SQLITE_TRANSIENT) != SQLITE_OK) {
    throw_sqlite(db_, "cannot bind parameter " + std::to_string(index) + " of [" + sql_ + "]");
  }
  return *this;
}

Statement& Statement::bind_null(int index) {
  if (sqlite3_bind_null(stmt_, index) != SQLITE_OK) {
    throw_sqlite(db_, "cannot bind parameter " + std::to_string(index) + " of [" + sql_ + "]");
  }
  return *this;
}

bool Statement::step() {
  const int rc = sqlite3_step(stmt_);
  if (rc == SQLITE_ROW) return true;
  if (rc == SQLITE_DONE) return false;
  // Reset so the statement releases its read snapshot or write lock before the error propagates.
  std::string what = "SQL failed [" + sql_ + "]";
  std::string message = sqlite3_errmsg(db_);
  const int code = sqlite3_extended_errcode(db_);
  sqlite3_reset(stmt_);
  const char* file = sqlite3_db_filename(db_, "main");
  if (file && *file) message += std::string(" (database '") + file + "')";
  throw StorageError(what + ": " + message, code);
}

void Statement::run() {
  while (step()) {
  }
}

void Statement::reset() {
  sqlite3_reset(stmt_);
  sqlite3_clear_bindings(stmt_);
}

bool Statement::is_null(int column) const {
  return sqlite3_column_type(stmt_, column) == SQLITE_NULL;
}

int64_t Statement::column_int64(int column) const { return sqlite3_column_int64(stmt_, column); }

double Statement::column_double(int column) const { return sqlite3_column_double(stmt_, column); }

double Statement::column_double_or_nan(int column) const {
  return is_null(column) ? std::numeric_limits<double>::quiet_NaN() : column_double(column);
}

std::optional<double> Statement::column_optional(int column) const {
  if (is_null(column)) return std::nullopt;
  return column_double(column);
}

std::string Statement::column_text(int column) const {
  const auto* text = sqlite3_column_text(stmt_, column);
  if (!text) return {};
  return std::string(reinterpret_cast<const char*>(text),
                     static_cast<size_t>(sqlite3_column_bytes(stmt_, column)));
}

Transaction::Transaction(sqlite3* db) : db_(db) {
  exec(db_, "BEGIN IMMEDIATE");
  open_ = true;
}

Transaction::~Transaction() {
  // Nothing useful to do if the rollback itself fails; the connection closes the transaction
  // anyway.
  if (open_) sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr);
}

void Transaction::commit() {
  exec(db_, "COMMIT");
  open_ = false;
}

}  // namespace parity::storage::detail
