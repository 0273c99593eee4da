#pragma once
/// How a run's ranks are launched and what the launch came to: the options and the result of
/// RankSupervisor (<parity/launch/rank_supervisor.h>), shared with the Slurm launch and the rank
/// monitor, which need the types and not the supervisor.

#include <parity/config/run_config.h>
#include <parity/launch/step_record.h>

#include <atomic>
#include <string>
#include <vector>

namespace parity::launch {

/// Who runs a setup: this process (one child per rank), Slurm (one `srun` whose tasks are the
/// ranks, <parity/launch/slurm.h>), or the user's own command (RunConfig::command, run by
/// CommandSupervisor), which starts its own processes.
enum class Launcher { kLocal, kSlurm, kCommand };

/// The one choice of who runs `config`: its command when it has one (wherever that runs, it
/// starts its own processes), else the engine's ranks, started by `ranks_by` (kLocal, or kSlurm
/// when Slurm was asked for).
inline Launcher choose_launcher(const config::RunConfig& config,
                                Launcher ranks_by = Launcher::kLocal) {
  return config.command.empty() ? ranks_by : Launcher::kCommand;
}

struct LaunchOptions {
  Launcher launcher =
      Launcher::kLocal;         ///< choose_launcher()'s; RankSupervisor runs kLocal, kSlurm
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

}  // namespace parity::launch
