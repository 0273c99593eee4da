#pragma once
/// Batched, background writes of step rows: push() only queues (cheap on the training thread); a
/// writer thread with its own connection commits a transaction every `batch_rows` rows or
/// `flush_interval_ms`, whichever comes first. flush() waits until everything pushed is stored.

#include <parity/storage/database.h>

#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace parity::storage {

struct StepWriterOptions {
  size_t batch_rows = 512;      ///< commit when this many rows are queued (0 counts as 1)
  int flush_interval_ms = 200;  ///< or when the oldest queued row has waited this long
};

class StepWriter {
 public:
  /// Opens the database here (so a bad path throws StorageError to the caller at once), then hands
  /// that connection to the writer thread, which alone uses it from then on.
  StepWriter(const std::string& db_path, StepWriterOptions options = {});
  /// Commits what is queued, then joins the thread. Cannot throw: call flush() first to learn about
  /// a failed write; an error flush() did not report is written as one line to stderr.
  ~StepWriter();
  StepWriter(const StepWriter&) = delete;
  StepWriter& operator=(const StepWriter&) = delete;

  /// Queues a row under a mutex; never touches the database. Safe from any thread.
  void push(StepRow row);
  void push(EvalRow row);
  /// Blocks until every row pushed so far is committed; rethrows a writer error as StorageError
  /// (once: the error is cleared when reported). A batch whose commit failed is not retried.
  void flush();

 private:
  void loop(Database& db);
  std::string path_;
  StepWriterOptions options_;
  std::mutex mutex_;
  std::condition_variable cv_;
  std::condition_variable flushed_cv_;
  std::vector<StepRow> steps_;
  std::vector<EvalRow> evals_;
  uint64_t pushed_ = 0;
  uint64_t written_ = 0;   ///< rows committed, or given up on after an error
  int flush_waiting_ = 0;  ///< callers blocked in flush(): commit now, do not wait
  bool stopping_ = false;
  std::string error_;  ///< first writer error not yet reported by flush()
  std::thread thread_;
};

}  // namespace parity::storage
