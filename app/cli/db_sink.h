#pragma once
/// The StepSink that records a run in the SQLite store: RunStart marks the run started, each
/// StepRecord becomes a global row (rank -1) plus one row per rank, evaluations are stored, all
/// through storage::StepWriter's background transactions (which also claim the run for this
/// process and keep its heartbeat). Also feeds the progress line.
/// Used on the launcher's calling thread only; nothing here waits for the database, so a locked
/// database never stalls the supervisor's watch over the ranks.

#include <parity/launch/step_record.h>
#include <parity/storage/database.h>
#include <parity/storage/step_writer.h>

#include <cstdint>
#include <optional>
#include <string>

#include "progress_line.h"

namespace parity::cli {

class DbSink : public launch::StepSink {
 public:
  /// Whether this process supervises the run (its launcher: the run is claimed for it and its
  /// heartbeat kept, so a killed launcher's run is reconciled as failed) or only follows one
  /// that a batch job supervises (nothing claimed: the follower may come and go).
  enum class Role { kSupervisor, kFollower };

  /// db: where the rows go (a StepWriter of its own on db.path()). progress may be null.
  /// busy_wait_s: how long a locked database is waited out before the run fails.
  DbSink(storage::Database& db, int64_t run_id, ProgressLine* progress, double busy_wait_s,
         Role role = Role::kSupervisor);

  void on_start(const launch::RunStart& start) override;
  void on_step(const launch::StepRecord& record) override;
  void on_eval(const launch::EvalRecord& record) override;
  void on_end(const launch::RunEnd& end) override;
  /// The writer's hard error (disk full, I/O error, read-only): the supervisor stops the run.
  std::optional<std::string> failure() const override;

  /// What the run ended as, recorded: the launcher's outcome, unless recording failed (then
  /// failed, with the writer's reason).
  struct Ending {
    launch::RunOutcome outcome;
    std::string message;
  };
  /// Commits every queued row, then marks the run with its outcome, message and samples/s
  /// (finals are read back from the stored rows). When the writer could not mark it (a lock held
  /// past busy_wait_s, a full disk), the mark is retried on a connection of its own, after the
  /// reserve is given back to the disk, and until a lock goes. Throws StorageError when the run
  /// cannot be marked for another reason.
  Ending finish(launch::RunOutcome outcome, const std::string& message, double samples_per_s);

  /// A change to the run's row, applied after the records queued before it (a follower's job
  /// state, notes, origin), on the writer's connection.
  void update(storage::RunUpdate change) { writer_.push(std::move(change)); }

  const std::optional<launch::StepRecord>& last_step() const { return last_step_; }
  const std::optional<launch::EvalRecord>& last_eval() const { return last_eval_; }

 private:
  void mark_directly(const Ending& ending, double samples_per_s);
  /// A small file on the database's own disk, made at the start and deleted before the run's end
  /// is written when writing failed: a disk that filled up during the run then still has room
  /// for the row that says so (a few WAL frames). `.<database>.reserve-<pid>`, beside the
  /// database; a killed launcher's is removed by the next one.
  void make_reserve();
  void release_reserve();

  int64_t run_id_;
  std::string db_path_;
  std::string reserve_path_;  ///< "" when none could be made
  double busy_wait_s_;
  storage::StepWriter writer_;
  ProgressLine* progress_;
  std::optional<launch::StepRecord> last_step_;
  std::optional<launch::EvalRecord> last_eval_;

 public:
  ~DbSink() override;
  DbSink(const DbSink&) = delete;
  DbSink& operator=(const DbSink&) = delete;
};

}  // namespace parity::cli
