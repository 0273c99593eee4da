#pragma once
// Private to parity_storage: step rows fed to one SQL statement instead of one statement per row.
//
// `parity_step_feed` is an eponymous virtual table (the carray extension's shape): its rows are
// drawn from a StepFeed passed as a pointer parameter, so an import writes millions of rows with
//   INSERT ... SELECT ... FROM parity_step_feed(?)
// in one sqlite3_step: no bind, step and reset per row (a 2 M-row import takes half the time,
// bench/results.md). Rows at or below `after_step` are skipped (stored by an earlier import).
#include <parity/storage/rows.h>
#include <sqlite3.h>

#include <cstdint>
#include <exception>
#include <functional>
#include <vector>

namespace parity::storage::detail {

/// Where the rows come from: `first` (a run's rows in memory), then `next` until it says false.
struct StepFeed {
  const std::vector<StepRow>* first = nullptr;
  const std::function<bool(StepRow&)>* next = nullptr;
  int64_t after_step = -1;
  /// Out: rows of rank -1 (the global series) that were fed.
  int64_t global_rows = 0;
  /// Out: what `next` threw; SQLite only sees an error, the caller rethrows this.
  std::exception_ptr error;
};

/// The pointer type name bound with sqlite3_bind_pointer.
inline constexpr const char* kStepFeedPointer = "parity_step_feed";

/// Registers the `parity_step_feed` module on `db` (once per connection).
void register_step_feed(sqlite3* db);

}  // namespace parity::storage::detail
