#pragma once
/// Batched, background writes of step rows: push() only queues (cheap on the training thread); a
/// writer thread with its own connection commits a transaction every `batch_rows` rows or
/// `flush_interval_ms`, whichever comes first. flush() waits until everything pushed is stored.

#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include <parity/storage/database.h>

namespace parity::storage {

struct StepWriterOptions {
  size_t batch_rows = 512;
  int flush_interval_ms = 200;
};

class StepWriter {
 public:
  StepWriter(const std::string& db_path, StepWriterOptions options = {});
  ~StepWriter();  ///< flushes, then joins the thread
  StepWriter(const StepWriter&) = delete;
  StepWriter& operator=(const StepWriter&) = delete;

  void push(StepRow row);
  void push(EvalRow row);
  /// Blocks until every row pushed so far is committed; rethrows a writer error as StorageError.
  void flush();

 private:
  void loop();
  // implementation detail members are up to the .cpp
  std::string path_;
  StepWriterOptions options_;
  std::mutex mutex_;
  std::condition_variable cv_;
  std::condition_variable flushed_cv_;
  std::vector<StepRow> steps_;
  std::vector<EvalRow> evals_;
  uint64_t pushed_ = 0;
  uint64_t written_ = 0;
  bool stopping_ = false;
  std::string error_;
  std::thread thread_;
};

}  // namespace parity::storage
