#pragma once
/// Runs one config as a recorded run: launches the ranks, stores every record through DbSink,
/// marks the run with its outcome. Shared by `run`, `run-set` and `demo`.

#include <parity/config/run_config.h>
#include <parity/config/setup_text.h>
#include <parity/launch/rank_supervisor.h>
#include <parity/storage/database.h>

#include <atomic>
#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace parity::cli {

/// SIGINT, SIGTERM and SIGHUP (a closed terminal) set a stop flag while this object lives, so the
/// run stops cleanly: ranks stopped, run recorded as stopped, its private folder removed. A second
/// signal kills as usual (the next start cleans what that leaves).
class SignalStop {
 public:
  SignalStop();
  ~SignalStop();
  SignalStop(const SignalStop&) = delete;
  SignalStop& operator=(const SignalStop&) = delete;
  const std::atomic<bool>* flag() const;
  bool stopped() const;
};

struct RunnerOptions {
  launch::LaunchOptions launch;  ///< worker path resolved; stop is set by the caller
  std::string log_dir;           ///< empty = default_log_dir()
  bool quiet = false;            ///< no progress line
  double busy_wait_s = 120;      ///< how long a locked database is waited out before failing
};

/// What a recorded run ended as.
struct RunReport {
  int64_t run_id = 0;
  config::RunConfig config;
  launch::RunOutcome outcome = launch::RunOutcome::kFailed;
  std::string message;
  double samples_per_s = 0;
  std::optional<double> final_loss, final_eval_loss, final_accuracy;
  std::string log_dir;
};

/// Where a run's rank logs go by default: <database file name>.logs/run-<id> beside the database
/// (runs.db -> runs.db.logs/run-7), so two databases in one folder never share a log folder. Both
/// folders are private (0700) and the logs 0600.
std::string default_log_dir(const std::string& db_path, int64_t run_id);

/// Throws UsageError when this machine cannot host its share of config's ranks (num_processes /
/// machines; launch::rank_capacity()), or the ranks do not split equally over the machines,
/// naming the limit and its numbers, or they would not fit (require_fits). Call it before
/// anything is written or started.
void require_hostable(const config::RunConfig& config, int machines);

/// Throws UsageError naming the flag when `ranks_here` ranks of config cannot fit this machine:
/// more threads per rank than 4 x its cores, or more memory (config::estimate_rank_memory) than
/// it has.
void require_fits(const config::RunConfig& config, int ranks_here);

/// Runs config as the existing (queued) run run_id. The config must be valid. Launch failures
/// (no worker, cannot fork) end the run as failed rather than throwing; StorageError propagates.
/// First removes the private run folders that killed launchers left in TMPDIR.
RunReport run_recorded(storage::Database& db, int64_t run_id, const config::RunConfig& config,
                       const RunnerOptions& options);

/// The summary table: id, label, status, global batch, effective lr, final loss, eval loss,
/// accuracy, samples/s, and the message of runs that did not finish.
void print_summary(std::ostream& out, const std::vector<RunReport>& reports);

}  // namespace parity::cli
