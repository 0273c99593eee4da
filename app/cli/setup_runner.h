#pragma once
/// One setup run by the launcher chosen for it (launch::choose_launcher, in LaunchOptions::
/// launcher): the engine's ranks through launch::RankSupervisor (here, or as the tasks of one
/// srun), or the user's own command through run_command_setup(). The one place that tells them
/// apart when a setup runs: run_recorded() (run, run-set, demo, the window) and a Slurm job's
/// own supervisor (job-step) both come here.

#include <parity/config/run_config.h>
#include <parity/launch/launch_options.h>
#include <parity/launch/step_record.h>

#include <string>

#include "command_runner.h"

namespace parity::cli {

/// What a setup ran to, whoever ran it.
struct SetupResult {
  launch::RunOutcome outcome = launch::RunOutcome::kFailed;
  std::string message;
  double samples_per_s = 0;
  std::string log_dir;   ///< where its logs were kept; empty = removed with the run
  std::string mismatch;  ///< a command's hparams against the setup (hparams_mismatch), else ""
};

/// Runs `config` as run `run_id` by `launch.launcher`, its records going to `sink`. A command
/// runs in `launch.log_dir` (its {run_dir}, made private) with `command`'s hang timeout, stop and
/// on_command. Throws launch::LaunchError and config::ConfigError as RankSupervisor does.
SetupResult run_setup(int64_t run_id, const config::RunConfig& config,
                      const launch::LaunchOptions& launch, const CommandRunOptions& command,
                      launch::StepSink& sink);

}  // namespace parity::cli
