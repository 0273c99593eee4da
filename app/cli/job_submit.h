#pragma once
/// `parity-cli run --launcher slurm --submit`: a run handed to Slurm as a batch job that trains
/// without this process. The run's folder (on a disk the cluster shares) gets the config and
/// the job script; sbatch queues it; the run records the job and returns queued. Inside the
/// allocation the job script runs `parity-cli job-step FOLDER` (run_job_step), the run's own
/// supervisor there: the engine's ranks as one srun's tasks, or the user's command, its records
/// appended to the folder's steps file (launch/steps_file.h). `parity-cli follow RUN`
/// (job_follower.h) reads that file into the database.

#include <parity/config/run_config.h>
#include <parity/storage/database.h>

#include <atomic>
#include <cstdint>
#include <string>

namespace parity::cli {

struct SubmitOptions {
  std::string partition, time, account, gres;  ///< passed to sbatch as given
  std::string worker_path;                     ///< the rank executable, on the nodes' disk
  double hang_timeout_s = 120;                 ///< the job's supervisor's hang timeout
  std::string folder;  ///< the run's folder: config, job script, steps file, logs
  std::string sbatch = "sbatch";
};

/// Writes `folder` (0700: config.json, job.sh) and submits the job; records the job on run
/// run_id (created queued and without a supervisor: the job is). A command run is marked as
/// such with its facts, its command as it will run once the job starts. Returns the job id.
/// Throws launch::LaunchError when sbatch refuses (the run is then failed with sbatch's words).
std::string submit_run(storage::Database& db, int64_t run_id, const config::RunConfig& config,
                       const SubmitOptions& options);

struct JobStepOptions {
  std::string folder;  ///< the run's folder (config.json in, steps out)
  int64_t run_id = 0;  ///< for a command's {run_id}
  std::string worker_path;
  double hang_timeout_s = 120;
  const std::atomic<bool>* stop = nullptr;  ///< Slurm's SIGTERM (scancel, the time limit)
};

/// The job's own supervisor (`parity-cli job-step`), inside the allocation: trains the folder's
/// config and appends every record, then the end record, to its steps file. Never touches a
/// database. Returns the outcome as an exit code (0 finished, 1 otherwise); a failure to start
/// is an end record too, so a follower learns why.
int run_job_step(const JobStepOptions& options);

}  // namespace parity::cli
