#pragma once
/// Runs a setup's own training command (command_template.h) and records what it prints in the
/// PARITY line protocol (parity_line.h) through the same StepSink the engine's ranks report to.
/// Torch-free, POSIX.
///
/// The command runs without a shell (execvp of the expanded words) in a process group of its
/// own, with stdin /dev/null, in `workdir` with `env` added to this process's environment. Its
/// stdout is read line by line: PARITY lines become steps, evaluations and hparams; every other
/// line, and all of stderr, goes to `log_path`. A PARITY line behind a launcher's prefix
/// (torchrun --tee's `[default0]:`, srun --label's `0: `; launcher_prefix.h) is read when the
/// prefix names process 0, and only logged when it names another.
///
/// Outcome: exit 0 with at least one step is finished; a NaN or infinite loss is diverged (the
/// group is stopped); a non-zero exit or a signal is failed, with the status and the log's
/// last line; no new step for hang_timeout_s is failed and the group is stopped; `stop` set is
/// stopped. Stopping the group is SIGTERM, then SIGKILL after term_grace_s. When run() returns,
/// no process of the group is left.

#include <parity/launch/launch_error.h>
#include <parity/launch/step_record.h>

#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace parity::launch {

struct CommandOptions {
  std::string workdir;                                   ///< empty = this process's
  std::vector<std::pair<std::string, std::string>> env;  ///< set in the command's environment
  std::string log_path;         ///< required: the command's other output (created 0600, appended)
  double hang_timeout_s = 600;  ///< no new step this long (after the first) = hung; 0 = never
  double first_step_timeout_s = 0;  ///< the same before the first step; 0 = hang_timeout_s x 3
  double term_grace_s = 30;         ///< after SIGTERM, how long the group gets before SIGKILL
  /// When a step line has no "samples": step x this (the setup's global batch); 0 = leave 0.
  int64_t samples_per_step = 0;
  const std::atomic<bool>* stop = nullptr;  ///< set to stop the run (outcome kStopped)
  /// Records read elsewhere while the command runs (the trainer_state.json or TensorBoard files
  /// it writes): asked every half second and once after the command ended, told whether PARITY
  /// step lines came on stdout; what it appends is recorded as the PARITY lines' records are
  /// (hang timeout, divergence). Called on run()'s thread. Empty = stdout only.
  std::function<void(bool parity_steps, std::vector<StepRecord>& steps,
                     std::vector<EvalRecord>& evals)>
      side_capture;
};

struct CommandResult {
  RunOutcome outcome = RunOutcome::kFinished;
  std::string message;      ///< why, for anything but kFinished
  int exit_code = -1;       ///< the command's exit status; -1 when a signal ended it
  int signal = 0;           ///< the signal that ended it, or 0
  int64_t steps = 0;        ///< step lines recorded
  int protocol_errors = 0;  ///< PARITY lines that did not parse (each logged with its reason)
  /// PARITY lines behind a launcher prefix naming another process than 0 (launcher_prefix.h):
  /// logged, not read, so every rank may print them and no step is counted twice.
  int64_t other_rank_lines = 0;
  std::map<std::string, std::string> hparams;  ///< what the command said it ran with (JSON text)
  int pid = -1;
};

class CommandSupervisor {
 public:
  /// Nothing is started before run(). `words`: the expanded command (expand_command()).
  CommandSupervisor(std::vector<std::string> words, CommandOptions options);

  /// Runs the command to its end, forwarding its records to sink on the calling thread
  /// (on_start before the first step, on_end exactly once, after the group is gone). Throws
  /// LaunchError when the command cannot be started (no such program, bad workdir, no log).
  CommandResult run(StepSink& sink);

 private:
  std::vector<std::string> words_;
  CommandOptions options_;
};

}  // namespace parity::launch
