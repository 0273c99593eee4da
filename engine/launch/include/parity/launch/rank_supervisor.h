#pragma once
/// The rank supervisor: starts W rank processes of the worker executable with the worker contract
/// in their environment (<parity/launch/worker_contract.h>) and watches them to the end. Torch-free
/// (POSIX processes and pipes). Single node: ranks rendezvous through a c10d FileStore in a private
/// per-run folder, so nothing listens on the network.
///
/// Each rank runs in its own process group with PR_SET_PDEATHSIG(SIGKILL), its stdin is /dev/null
/// and its stdout and stderr go to <log_dir>/rank<RANK>.log (0600, in a folder created 0700; see
/// <parity/launch/run_folders.h>). Only the status pipe is inherited. The sink's failure() stops
/// the run as failed, as a dead rank does.
/// A rank exits 0 when the run ended normally (finished or diverged: rank 0 says which in its
/// RunEnd line), non-zero with one clear stderr line otherwise.

#include <parity/config/run_config.h>
#include <parity/launch/launch_error.h>
#include <parity/launch/step_record.h>

#include <atomic>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace parity::launch {

/// Who starts the ranks: this process (one child per rank), or Slurm (one `srun` whose tasks are
/// the ranks, <parity/launch/slurm.h>).
enum class Launcher { kLocal, kSlurm };

struct LaunchOptions {
  Launcher launcher = Launcher::kLocal;
  std::string slurm_partition;  ///< kSlurm: srun --partition; empty = Slurm's default
  std::string slurm_time;       ///< kSlurm: srun --time; empty = the partition's limit
  std::string srun = "srun";    ///< kSlurm: the srun program
  std::string worker_path;      ///< the rank executable; empty = parity-worker beside this one
  std::string master_addr = "127.0.0.1";
  int master_port = 0;  ///< 0 = a free port
  /// > 1: TCPStore rendezvous on master_addr:master_port. As in Accelerate, the config's
  /// num_processes is the total over all nodes; each node runs num_processes / nnodes ranks.
  int nnodes = 1;
  int node_rank = 0;
  /// Multi-node: the network interface the ranks bind Gloo to (passed as GLOO_SOCKET_IFNAME,
  /// over the user's own); empty = GLOO_SOCKET_IFNAME if set, else the route to master_addr.
  std::string network_interface;
  double hang_timeout_s = 120;  ///< a rank without progress this long is hung; 0 = never
  int threads_per_rank = 0;     ///< 0 = cores / local ranks (at least 1)
  std::string log_dir;          ///< where rank stderr logs go; empty = the private run folder
  const std::atomic<bool>* stop = nullptr;  ///< set to stop the run (outcome kStopped)
  double term_grace_s = 3;                  ///< after SIGTERM, how long ranks get before SIGKILL
  /// Written to the private run folder's `owner` file, so a later start can tell the folder of a
  /// supervisor that was killed (see remove_stale_run_folders); empty = no owner file.
  std::string run_folder_owner;
};

/// Result of a launched run.
struct LaunchResult {
  RunOutcome outcome = RunOutcome::kFinished;
  int failed_rank = -1;      ///< the first rank that failed, or -1
  std::string message;       ///< "rank 1 was killed by signal 9 (SIGKILL)", ...
  double samples_per_s = 0;  ///< from rank 0's RunEnd, 0 when it sent none
  std::vector<int> pids;     ///< the rank processes (all reaped when run() returns)
  std::string log_dir;       ///< where the rank logs were kept; empty = removed with the run
};

/// Supervises the ranks of one run on this node: W = config.num_processes / options.nnodes.
class RankSupervisor {
 public:
  /// Nothing is checked or started before run().
  explicit RankSupervisor(config::RunConfig config, LaunchOptions options = {});

  /// Runs the config to the end, forwarding rank 0's records to sink (on the calling thread).
  /// When any rank exits non-zero, is killed or hangs, the others are stopped (SIGTERM, then
  /// SIGKILL) and the result names the rank and the reason. sink.on_end is called exactly once,
  /// after every rank has been reaped, with the run's final outcome (not necessarily rank 0's).
  /// Throws ConfigError for an invalid config and LaunchError when the ranks cannot be started;
  /// an exception from the sink kills and reaps every rank, then propagates. Each call is a new
  /// run with its own private folder.
  LaunchResult run(StepSink& sink);

 private:
  config::RunConfig config_;
  LaunchOptions options_;
};

/// The intra-op threads each rank of `config` gets on this machine: config.threads_per_rank when
/// set, else options.threads_per_rank, else cores / local ranks (at least 1). Recorded with the
/// run: with the ranks in the allreduce it sets the summation order.
int resolved_threads_per_rank(const config::RunConfig& config, const LaunchOptions& options = {});

/// Path of the running executable's folder, read from the link self_link (/proc/self/exe).
/// Throws LaunchError naming the link when it cannot be read.
std::string executable_dir(const std::string& self_link = "/proc/self/exe");

/// A free TCP port on 127.0.0.1 (bind to port 0, read it back, close).
int free_port();

}  // namespace parity::launch
