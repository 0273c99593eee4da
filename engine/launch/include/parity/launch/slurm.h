#pragma once
/// Slurm, as Parity's engine meets it (torch-free):
/// - where a task started by `srun` stands: SLURM_PROCID, SLURM_NTASKS, SLURM_LOCALID,
///   SLURM_NODEID, the tasks on its node and the first host of the step's node list, mapped to
///   torchrun's rank, world size, local rank, local world size and master as PyTorch Lightning's
///   SLURMEnvironment and submitit map them (MASTER_ADDR and MASTER_PORT, when set, win; the port
///   otherwise 15000 + the job id's last four digits, Lightning's default);
/// - Slurm's compressed host lists ("node[01-03,7],login") and task counts ("2(x3),1");
/// - the `srun` line that starts one parity-worker task per rank.

#include <parity/launch/worker_contract.h>

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace parity::launch {

/// Every host of a Slurm host list, in order: "node[01-03,7],login" is node01, node02, node03,
/// node7, login (zero padding kept). Throws LaunchError naming the list when it is malformed.
std::vector<std::string> expand_hostlist(const std::string& list);

/// The tasks on node `node_id` of a SLURM_TASKS_PER_NODE value ("2(x3),1": nodes 0-2 run 2,
/// node 3 runs 1). Throws LaunchError when the value is malformed or has no such node.
int tasks_on_node(const std::string& tasks_per_node, int node_id);

/// Reads one environment variable (nullptr when unset); std::getenv by default.
using EnvLookup = std::function<const char*(const char*)>;

/// The task's place from Slurm's variables, or nullopt when SLURM_PROCID is unset (not a Slurm
/// task). store_path, threads and force_process_group are left as DistEnv's defaults. Throws
/// std::runtime_error naming a variable that is missing or malformed.
std::optional<DistEnv> dist_env_from_slurm(const EnvLookup& get);

/// How `parity-cli run --launcher slurm` submits the ranks.
struct SrunOptions {
  std::string srun = "srun";  ///< the program (a path, or found on PATH)
  int tasks = 1;              ///< one task per rank
  std::string partition;      ///< --partition; empty = Slurm's default
  std::string time;           ///< --time (Slurm's formats: "10", "1:00:00", "1-0"); empty = none
  std::string job_name;       ///< --job-name, which Stop cancels by (scancel --name)
};

/// srun's arguments for one task per rank of `worker`, labelled output (each task's status lines
/// come back prefixed "RANK: "), the whole step killed when a task fails, the caller's
/// environment exported to the tasks.
std::vector<std::string> srun_argv(const SrunOptions& options, const std::string& worker);

}  // namespace parity::launch
