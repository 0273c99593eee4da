#pragma once
/// Following a run that a Slurm batch job trains (`parity-cli follow RUN`, job_submit.h): the
/// job's steps file is read into the database as it grows, and the job's state from Slurm.
///
/// - Resumes from what is stored: the file is read from its start and records already stored
///   are skipped (steps before the last stored one, evaluations stored, a start already
///   recorded); the last stored step is written again, whole (its rank rows may have been cut
///   off), which replaces rather than doubles it. A follower killed at any moment, or several at
///   once, leave every step stored once.
/// - While the job waits the run is queued and its job state says why ("PENDING (Resources)");
///   running once Slurm runs it (or its start record comes).
/// - Its end: the end record of the steps file (the job's own supervisor's outcome), else,
///   once the job is gone from the queue and its file has had time to show its last lines on
///   this machine, what squeue last said of it (CANCELLED, TIMEOUT, FAILED), accounting's
///   record (sacct) where there is accounting, or a cancel this user asked for (parity-cli
///   stop); failing those, failed: "left the queue without its end record".
/// - Nothing here stops the job: a stop asked of the follower (Ctrl+C) only stops following.
/// Runs on the calling thread; the rows go through a DbSink that does not claim the run.

#include <parity/launch/step_record.h>
#include <parity/storage/database.h>

#include <atomic>
#include <cstdint>
#include <string>

namespace parity::cli {

/// What `parity-cli stop` leaves before it cancels a submitted run's job: the job state it
/// records (until a follower's next word on the job), and a file in the run's folder, which no
/// follower overwrites. A follower that then finds the job ended says it was cancelled by stop,
/// and records a job gone without its end record as stopped, not failed.
inline constexpr const char* kJobCancelRequested = "cancel requested (parity-cli stop)";
inline constexpr const char* kCancelRequestFile = "cancel-requested";

struct FollowOptions {
  double busy_wait_s = 120;
  bool quiet = false;                       ///< no progress line
  const std::atomic<bool>* stop = nullptr;  ///< set: stop following; the job goes on
  double poll_s = 0.5;                      ///< how often the steps file is read
  double squeue_every_s = 2;                ///< how often Slurm is asked about the job
  /// After the job left the queue, how long its end record is still looked for: a shared disk
  /// may show a file's last lines on another machine a little later (the job syncs them).
  double end_grace_s = 5;
};

struct FollowReport {
  bool ended = false;  ///< false: following stopped with the job still queued or running
  launch::RunOutcome outcome = launch::RunOutcome::kFailed;
  std::string message;
  int64_t steps_read = 0;  ///< step records written to the database by this follower
};

/// Follows run run_id of db to its end, or until options.stop. Throws UsageError for a run that
/// is not a submitted job; StorageError propagates.
FollowReport follow_job(storage::Database& db, int64_t run_id, const FollowOptions& options);

}  // namespace parity::cli
