#pragma once
/// A run submitted to Slurm as a batch job (`parity-cli run --launcher slurm --submit`), and what
/// Slurm's own tools say of it afterwards (torch-free, POSIX; each tool run without a shell):
/// - the job script: one `exec` of the run's supervisor inside the allocation (parity-cli
///   job-step, which starts the ranks with srun, or the user's command), its resources given to
///   sbatch on its command line and repeated in the script's header;
/// - `sbatch --parsable` for the job id; `squeue -h -j ID -t all -o %T/%r` for its state and
///   Slurm's reason while it waits ("PENDING/Resources") and, for a while, how it ended;
///   `sacct` for how it ended where the cluster keeps accounting; `scancel` to cancel it.

#include <optional>
#include <string>
#include <vector>

namespace parity::launch {

/// sbatch's options for one run: the setup's resources and the user's Slurm flags.
struct SbatchOptions {
  std::string sbatch = "sbatch";  ///< the program (a path, or found on PATH)
  std::string job_name;           ///< --job-name
  int ntasks = 1;                 ///< --ntasks: one per rank (a command: its processes)
  int nodes = 0;                  ///< --nodes; 0 = Slurm's choice
  int cpus_per_task = 0;          ///< --cpus-per-task; 0 = Slurm's default
  std::string partition;          ///< --partition; empty = the default partition
  std::string time;               ///< --time; empty = the partition's limit
  std::string account;            ///< --account; empty = the user's default
  std::string gres;               ///< --gres ("gpu:2"); empty = none
  std::string output;             ///< --output: the job's own stdout and stderr
  std::string workdir;            ///< --chdir
};

/// sbatch's arguments for `script` (the program first): --parsable, --no-requeue (a job that
/// ran once is not run again over the same steps file), --export=ALL and the options set.
/// Throws LaunchError for a value Slurm could not take as one word (partition, time, account,
/// gres: empty of spaces and control characters).
std::vector<std::string> sbatch_argv(const SbatchOptions& options, const std::string& script);

/// The job script: `#!/bin/sh`, a header of comments (`comment`'s lines, then the sbatch line
/// that submits it), and `exec` of `command` (each word quoted for sh).
std::string job_script(const SbatchOptions& options, const std::string& script_path,
                       const std::vector<std::string>& command, const std::string& comment);

/// Submits with sbatch_argv(); returns the job id ("1234"; a federation's "1234;cluster" is cut
/// at the ';'). Throws LaunchError with sbatch's own words when it refuses.
std::string submit_job(const SbatchOptions& options, const std::string& script_path);

/// What squeue says of a job: in the queue (pending, running, completing, or ended within
/// Slurm's MinJobAge), its state and reason; or gone from it.
struct JobState {
  bool in_queue = false;
  std::string state;   ///< PENDING, RUNNING, COMPLETING, COMPLETED, CANCELLED, TIMEOUT, ...
  std::string reason;  ///< Resources, Priority, ... ("None" becomes "")
  /// Whether the state is an end (COMPLETED, FAILED, CANCELLED, TIMEOUT, NODE_FAIL, ...).
  bool ended() const;
  /// "PENDING (Resources)", "RUNNING".
  std::string text() const;
};

/// `squeue -h -j ID -t all -o %T/%r`: every state, so an ended job stays listed with how it
/// ended for Slurm's MinJobAge (300 s by default). A job squeue no longer knows ("Invalid job
/// id", or no line) is gone. Throws LaunchError when squeue cannot run or fails otherwise (the
/// controller unreachable), so that a follower does not take a network fault for the job's end.
JobState query_job(const std::string& id, const std::string& squeue = "squeue");

/// How accounting recorded the job's end: its state ("COMPLETED", "CANCELLED by 0", "TIMEOUT",
/// "FAILED", "OUT_OF_MEMORY") and exit code ("1:0"), or nullopt where there is no accounting
/// (sacct fails: "Slurm accounting storage is disabled") or it has no record of the job yet.
struct JobAccounting {
  std::string state;
  std::string exit_code;
};
std::optional<JobAccounting> job_accounting(const std::string& id,
                                            const std::string& sacct = "sacct");

/// `scancel ID`. Throws LaunchError with scancel's words when it fails.
void cancel_job(const std::string& id, const std::string& scancel = "scancel");

}  // namespace parity::launch
