#include "setup_runner.h"

#include <parity/launch/rank_supervisor.h>
#include <parity/launch/run_folders.h>

namespace parity::cli {

SetupResult run_setup(int64_t run_id, const config::RunConfig& config,
                      const launch::LaunchOptions& launch, const CommandRunOptions& command,
                      launch::StepSink& sink) {
  SetupResult out;
  if (launch.launcher == launch::Launcher::kCommand) {
    // The user's own command: {run_dir} is the run's log folder, kept with its outputs.
    launch::make_private_folder(launch.log_dir);
    CommandRunOptions in_folder = command;
    in_folder.run_dir = launch.log_dir;
    const CommandRunResult result = run_command_setup(run_id, config, in_folder, sink);
    out.outcome = result.outcome;
    out.message = result.message;
    out.samples_per_s = result.samples_per_s;
    out.log_dir = launch.log_dir;
    out.mismatch = result.mismatch;
    return out;
  }
  const launch::LaunchResult result = launch::RankSupervisor(config, launch).run(sink);
  out.outcome = result.outcome;
  out.message = result.message;
  out.samples_per_s = result.samples_per_s;
  out.log_dir = result.log_dir;
  return out;
}

}  // namespace parity::cli
