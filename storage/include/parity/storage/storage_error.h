#pragma once
/// The storage library's one error type, in a header of its own so that helpers throw it
/// without including the database's main header.

#include <stdexcept>
#include <string>

namespace parity::storage {

/// Any SQLite failure, with the statement or path it concerned and SQLite's message, and
/// SQLite's extended result code when one caused it (0 otherwise).
class StorageError : public std::runtime_error {
 public:
  explicit StorageError(const std::string& what, int sqlite_code = 0)
      : std::runtime_error(what), sqlite_code_(sqlite_code) {}
  int sqlite_code() const { return sqlite_code_; }
  /// SQLITE_BUSY or SQLITE_LOCKED: another connection holds a lock; waiting may cure it.
  bool is_busy() const;

 private:
  int sqlite_code_;
};

}  // namespace parity::storage
