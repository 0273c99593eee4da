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
#include <parity/launch/launch_options.h>
#include <parity/launch/step_record.h>

#include <atomic>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace parity::launch {

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
