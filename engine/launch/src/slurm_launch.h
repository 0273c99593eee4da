#pragma once
// Private to parity_launch: the ranks of a run as the tasks of one srun (LaunchOptions::launcher
// kSlurm), watched by the rank monitor like local ranks.
#include <parity/config/run_config.h>
#include <parity/launch/launch_options.h>
#include <parity/launch/step_record.h>

#include <string>

namespace parity::launch::rank_monitor {

// Under Slurm the ranks are the tasks of one `srun`, which may run on other machines: the config
// and srun's log live in the run's log folder (beside the database: a shared disk on a cluster),
// the rendezvous is a TCPStore on the first host of the step (rank 0's), and the status lines
// come back through srun's stdout. Stop signals srun, which passes it to every task; a task
// left after the grace period is cancelled with the step (scancel --name).
LaunchResult run_slurm(const config::RunConfig& config, const LaunchOptions& options,
                       const std::string& worker, StepSink& sink);

}  // namespace parity::launch::rank_monitor
