#pragma once
/// Keeps a copy of the runs table current while reading only what changed, so that a window on
/// 1,000 runs polls at almost no cost:
///  - the change stamp (Database::change_stamp, one PRAGMA) unchanged: nothing is read at all,
///    unless a run the copy holds as queued or running has lost its supervisor (a killed launcher
///    writes nothing, so only the process check can see it);
///  - changed: the ended runs' digest (one pass over the table, no rows built) tells whether any
///    ended run was edited, deleted or added; if not, only the unfinished runs and the ids after
///    the newest known are reread; if so, or when a run ended, the whole table is.
/// Runs whose supervisor is gone are reconciled (written failed) on a writable database; on a
/// read-only one the reads show them failed (RunRow::shown_failed) and the poller rereads them
/// like unfinished runs, so a supervisor that comes back still shows.
/// Qt-free. Thread affinity: the thread that owns the Database it polls.

#include <parity/storage/database.h>

#include <cstdint>
#include <functional>
#include <map>
#include <vector>

namespace parity::ui {

/// What one poll found: rows new or changed since the previous poll, and ids gone.
struct RunsUpdate {
  std::vector<storage::RunRow> changed;
  std::vector<int64_t> removed;
  bool empty() const { return changed.empty() && removed.empty(); }
};

/// How much a poller has read, for tests and the benchmark.
struct RunsPollerStats {
  int64_t polls = 0;
  int64_t skipped = 0;     ///< polls that found the stamp unchanged and read nothing
  int64_t full_reads = 0;  ///< polls that reread every run
  int64_t rows_read = 0;   ///< RunRows read from the database, all polls together
};

class RunsPoller {
 public:
  /// `db` must outlive the poller. The clock (unix seconds) decides when a remote supervisor's
  /// heartbeat is stale; tests inject one.
  explicit RunsPoller(storage::Database& db, std::function<double()> now = {});

  /// Reads what changed since the last poll (everything on the first). Busy-database errors of
  /// the reconciliation are waited out to a later poll; read errors throw StorageError, and the
  /// next poll reads everything again.
  RunsUpdate poll();
  /// Every run as the last poll left it, in id order.
  std::vector<storage::RunRow> runs() const;
  const RunsPollerStats& stats() const { return stats_; }

 private:
  bool supervisorGone() const;
  void reconcile();
  RunsUpdate readAll();
  RunsUpdate readUnfinished();
  void apply(std::vector<storage::RunRow> rows, const std::vector<int64_t>& expected,
             RunsUpdate& update);
  /// Reread each poll: stored as queued or running (also when shown failed, read-only).
  static bool unfinished(const storage::RunRow& r) {
    return storage::is_active(r.status) || r.shown_failed;
  }

  storage::Database& db_;
  std::function<double()> now_;
  std::map<int64_t, storage::RunRow> runs_;
  bool primed_ = false;
  storage::ChangeStamp stamp_;
  storage::EndedRunsDigest digest_;
  RunsPollerStats stats_;
};

}  // namespace parity::ui
