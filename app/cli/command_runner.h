#pragma once
/// A setup that is the user's own command (RunConfig::command): expanded with the setup's values,
/// run by launch::CommandSupervisor with its PARITY lines recorded through the run's sink, the
/// run marked as a command run with its facts (the setup's values, known) and the command as it
/// ran. run_setup() (setup_runner.h) runs command setups through it, so `run`, `run-set`, the
/// window, Prove and a Slurm job's supervisor all take this path.

#include <parity/config/run_config.h>
#include <parity/config/run_facts.h>
#include <parity/launch/step_record.h>
#include <parity/storage/database.h>

#include <atomic>
#include <functional>
#include <map>
#include <string>

namespace parity::cli {

struct CommandRunOptions {
  std::string run_dir;  ///< {run_dir}: the run's private folder (its log folder), kept after
  double hang_timeout_s = 600;
  const std::atomic<bool>* stop = nullptr;
  /// Told the command as it will run (quoted as a shell reads it back), before it starts.
  std::function<void(const std::string& command)> on_command;
};

struct CommandRunResult {
  launch::RunOutcome outcome = launch::RunOutcome::kFailed;
  std::string message;
  double samples_per_s = 0;
  std::string command;   ///< as it ran; empty when the template could not be expanded
  std::string mismatch;  ///< hparams_mismatch() of what the command logged, "" when it agrees
};

/// Runs config's command as run run_id, its records going to sink, with no database: what
/// the command ran as and what it logged against the setup are in the result (said on stderr
/// too). A Slurm job's own supervisor runs it so (`parity-cli job-step`). Never throws for the
/// command's own failures (they are the result).
CommandRunResult run_command_setup(int64_t run_id, const config::RunConfig& config,
                                   const CommandRunOptions& options, launch::StepSink& sink);

/// Run run_id of db marked a command run: its facts (command_facts) and the command as it runs.
/// StorageError propagates.
void mark_command_run(storage::Database& db, int64_t run_id, const config::RunConfig& config,
                      const std::string& command);

/// The disagreements of a command's hparams (hparams_mismatch) kept in run run_id's notes;
/// nothing when `mismatch` is empty. StorageError propagates.
void note_mismatch(storage::Database& db, int64_t run_id, const std::string& mismatch);

/// A command run's facts: the setup's values it hands its command (processes, per-device batch,
/// accumulation, lr and its scaling, seed, precision, epochs), known; the rest unknown.
config::RunFacts command_facts(const config::RunConfig& config);

/// What the command said it ran with (its "hparams" PARITY line) against the setup: one
/// sentence per disagreement ("the command logged per_device_train_batch_size 16, the setup says
/// 32"); empty when they agree or it said nothing Parity knows.
std::string hparams_mismatch(const std::map<std::string, std::string>& hparams,
                             const config::RunConfig& config);

/// Throws UsageError when a command setup's template cannot be expanded (an unknown placeholder,
/// an unterminated quote), naming the problem; nothing for an engine setup. Before anything is
/// written.
void require_command(const config::RunConfig& config);

/// The command the setup would run as run `run_id` in `run_dir`, quoted as a shell would read
/// it back (plan --command, the window's preview). Throws launch::LaunchError for a bad template.
std::string preview_command(const config::RunConfig& config, const std::string& run_dir,
                            int64_t run_id);

}  // namespace parity::cli
