#pragma once
/// Keeps a copy of the runs table current while reading only what changed, so that a window on
/// 1,000 runs polls at almost no cost:
///  - the change stamp (Database::change_stamp, one PRAGMA) unchanged: nothing is read at all,
///    unless a run the copy holds as queued or running has lost its supervisor (a killed launcher
///    writes nothing, so only the process check can see it);
///  - changed: the unfinished runs and the ids after the newest known are reread, and so are the
///    ended runs whose row hash (Database::ended_run_hashes: one pass over the table, no rows
///    built) changed or vanished since the last check: another connection's edits, deletions
///    and runs that ended. While runs record steps the stamp changes every poll and each commit
///    of another connection makes SQLite drop this one's page cache, so the ended runs are
///    checked at most every kEndedCheckS then: an edit of an ended run shows within that, or at
///    the next poll when nothing is running. The whole table is read once, on the first poll.
/// Runs whose supervisor is gone are reconciled (written failed) on a writable database; on a
/// read-only one the reads show them failed (RunRow::shown_failed) and the poller rereads them
/// like unfinished runs, so a supervisor that comes back still shows.
/// Qt-free. Thread affinity: the thread that owns the Database it polls.

#include <parity/storage/database.h>

#include <cstdint>
#include <functional>
#include <map>
#include <vector>

namespace parity::storage {

/// What one poll found: rows new or changed since the previous poll, and ids gone.
struct RunsUpdate {
  std::vector<RunRow> changed;
  std::vector<int64_t> removed;
  bool empty() const { return changed.empty() && removed.empty(); }
};

/// How much a poller has read, for tests and the benchmark.
struct RunsPollerStats {
  int64_t polls = 0;
  int64_t skipped = 0;       ///< polls that found the stamp unchanged and read nothing
  int64_t full_reads = 0;    ///< polls that read every run (the first)
  int64_t ended_checks = 0;  ///< polls that took the ended runs' hashes
  int64_t rows_read = 0;     ///< RunRows read from the database, all polls together
};

class RunsPoller {
 public:
  /// Seconds between two checks of the ended runs while some run is unfinished.
  static constexpr double kEndedCheckS = 2.0;

  /// `db` must outlive the poller. The clock (unix seconds) decides when a remote supervisor's
  /// heartbeat is stale; tests inject one.
  explicit RunsPoller(Database& db, std::function<double()> now = {});

  /// Reads what changed since the last poll (everything on the first). Busy-database errors of
  /// the reconciliation are waited out to a later poll; read errors throw StorageError, and the
  /// next poll reads everything again.
  RunsUpdate poll();
  /// Every run as the last poll left it, in id order.
  std::vector<RunRow> runs() const;
  const RunsPollerStats& stats() const { return stats_; }

 private:
  bool supervisorGone() const;
  bool anyUnfinished() const;
  void reconcile();
  RunsUpdate readAll();
  RunsUpdate readChanged(std::vector<int64_t> ids);
  /// Takes the ended runs' hashes; returns the ids whose row changed or vanished since the last.
  std::vector<int64_t> checkEnded();
  void apply(std::vector<RunRow> rows, const std::vector<int64_t>& expected, RunsUpdate& update);
  /// Reread each poll: stored as queued or running (also when shown failed, read-only).
  static bool unfinished(const RunRow& r) { return is_active(r.status) || r.shown_failed; }

  Database& db_;
  std::function<double()> now_;
  std::map<int64_t, RunRow> runs_;
  bool primed_ = false;
  ChangeStamp stamp_;
  std::map<int64_t, uint64_t> ended_;  ///< the ended runs' row hashes at the last check
  double checkedAt_ = 0;               ///< when ended_ was taken (now_)
  bool checkOwed_ = false;             ///< the stamp moved since ended_ was taken
  RunsPollerStats stats_;
};

}  // namespace parity::storage
