#pragma once
/// Batched, background writes of a run's records: push() only queues (cheap on the training
/// thread); a writer thread with its own connection commits a transaction every `batch_rows` rows
/// or `flush_interval_ms`, whichever comes first. flush() waits until everything pushed is stored.
///
/// Nothing is dropped and nothing is stored out of order, so what is stored is always a prefix of
/// what was pushed:
/// - a busy or locked database (another connection's write lock, BEGIN EXCLUSIVE) is waited out
///   for up to `busy_wait_s` while new rows keep queuing in memory; the batch is then retried
///   whole;
/// - a hard error (disk full, I/O error, read-only file, a lock held past busy_wait_s) makes the
///   writer *failed*: failure() says why from then on (poll it to stop the run), the rows pushed
///   after it are not stored, and run updates are still attempted (so the run can be marked
///   failed);
/// - the database file deleted, renamed or replaced under its name (checked before each commit and
///   heartbeat by device and inode, as a connection would otherwise go on committing to an
///   unlinked inode, or to a -wal under the old name) is a hard error too; the connection's WAL is
///   checkpointed into the file it has, so a renamed database keeps the rows committed so far.
/// Thread contract: push(), flush() and failure() from any thread; the connection is the writer
/// thread's alone.

#include <parity/storage/database.h>
#include <parity/storage/supervisor.h>

#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace parity::storage {

struct StepWriterOptions {
  size_t batch_rows = 512;      ///< commit when this many rows are queued (0 counts as 1)
  int flush_interval_ms = 200;  ///< or when the oldest queued row has waited this long
  /// How long a busy or locked database is waited out (from a batch's first attempt, to within
  /// 250 ms) before the writer gives up and fails. Below kStaleHeartbeatS, so a run waiting out a
  /// lock never looks abandoned.
  double busy_wait_s = 120;
  /// > 0: refresh this run's heartbeat (Database::heartbeat) every heartbeat_interval_s.
  int64_t heartbeat_run_id = 0;
  double heartbeat_interval_s = kHeartbeatIntervalS;
};

/// A change to a run's row (started, finished), applied on the writer thread after the rows
/// queued before it.
using RunUpdate = std::function<void(Database&)>;

class StepWriter {
 public:
  /// Opens the database here (so a bad path throws StorageError to the caller at once), then hands
  /// that connection to the writer thread, which alone uses it from then on.
  StepWriter(const std::string& db_path, StepWriterOptions options = {});
  /// Commits what is queued (waiting out a lock as usual), then joins the thread. Cannot throw:
  /// call flush() first to learn about a failed write; an error flush() did not report is written
  /// as one line to stderr.
  ~StepWriter();
  StepWriter(const StepWriter&) = delete;
  StepWriter& operator=(const StepWriter&) = delete;

  /// Queues a row under a mutex; never touches the database. Safe from any thread. Once the
  /// writer has failed, rows are not queued (they could only be stored after a gap).
  void push(StepRow row);
  void push(EvalRow row);
  void push(RunUpdate update);
  /// Blocks until everything pushed so far is committed or given up on; rethrows a writer error
  /// as StorageError (once: the error is cleared when reported).
  void flush();
  /// The hard error that stopped the writer, if any (sticky; cheap, for polling).
  std::optional<std::string> failure() const;

 private:
  struct Batch {
    std::vector<StepRow> steps;
    std::vector<EvalRow> evals;
    std::vector<RunUpdate> updates;
    size_t size() const { return steps.size() + evals.size() + updates.size(); }
  };
  void loop(Database& db);
  void queued(size_t before);
  /// Writes the batch, waiting out busy refusals; returns a hard error's message or "".
  std::string write(Database& db, Batch& batch);
  std::string beat(Database& db);
  /// "" while path_ still names the file opened at construction, else what became of it.
  std::string file_lost(Database& db);
  void keep_in_file(Database& db);
  std::string path_;
  StepWriterOptions options_;
  uint64_t device_ = 0, inode_ = 0;  ///< the file path_ named when the writer opened it
  bool file_gone_ = false;           ///< path_ no longer names it (writer thread only)
  mutable std::mutex mutex_;
  std::condition_variable cv_;
  std::condition_variable flushed_cv_;
  Batch queue_;
  uint64_t pushed_ = 0;
  uint64_t written_ = 0;   ///< items committed, or given up on after an error
  int flush_waiting_ = 0;  ///< callers blocked in flush(): commit now, do not wait
  bool stopping_ = false;
  std::string error_;   ///< first writer error not yet reported by flush()
  std::string failed_;  ///< the hard error that stopped the rows, "" while healthy
  std::thread thread_;
};

}  // namespace parity::storage
