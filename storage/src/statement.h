#pragma once
// Private to parity_storage: small RAII wrappers over sqlite3 statements and transactions. Every
// failure throws StorageError naming the database file, the SQL and SQLite's own message.

#include <parity/storage/storage_error.h>
#include <sqlite3.h>

#include <cstdint>
#include <optional>
#include <string>

namespace parity::storage::detail {

/// Throws StorageError: "<what>: <sqlite message> (database '<file>')".
[[noreturn]] void throw_sqlite(sqlite3* db, const std::string& what);

/// Runs one or more SQL statements that return no rows we need.
void exec(sqlite3* db, const std::string& sql);

/// Unix time in seconds, with sub-second precision.
double now_unix_seconds();

/// A prepared statement. Bind indexes are 1-based, column indexes 0-based, as in SQLite.
class Statement {
 public:
  Statement(sqlite3* db, const std::string& sql);
  ~Statement();
  Statement(const Statement&) = delete;
  Statement& operator=(const Statement&) = delete;

  Statement& bind(int index, int64_t value);
  Statement& bind(int index, int value) { return bind(index, static_cast<int64_t>(value)); }
  /// NaN is bound as NULL (SQLite would do the same silently; here it is explicit).
  Statement& bind(int index, double value);
  Statement& bind(int index, const std::optional<double>& value);
  Statement& bind(int index, const std::string& value);
  Statement& bind_null(int index);

  /// Steps once: true when a row is available, false when done.
  bool step();
  /// Steps to completion, for statements that return no rows.
  void run();
  /// Resets for reuse, keeping nothing bound.
  void reset();

  bool is_null(int column) const;
  int64_t column_int64(int column) const;
  /// NULL reads as 0.
  double column_double(int column) const;
  /// NULL reads as a quiet NaN: how NaN losses come back out of SQLite.
  double column_double_or_nan(int column) const;
  std::optional<double> column_optional(int column) const;
  std::string column_text(int column) const;
  /// For reading values as SQLite stores them (sqlite3_column_type and friends).
  sqlite3_stmt* handle() const { return stmt_; }

 private:
  sqlite3* db_;
  sqlite3_stmt* stmt_ = nullptr;
  std::string sql_;
};

/// BEGIN IMMEDIATE on construction (taking the write lock up front, so busy_timeout applies and a
/// deferred read-to-write upgrade cannot fail mid-way); ROLLBACK on destruction unless committed.
class Transaction {
 public:
  explicit Transaction(sqlite3* db);
  ~Transaction();
  Transaction(const Transaction&) = delete;
  Transaction& operator=(const Transaction&) = delete;
  void commit();

 private:
  sqlite3* db_;
  bool open_ = false;
};

}  // namespace parity::storage::detail
