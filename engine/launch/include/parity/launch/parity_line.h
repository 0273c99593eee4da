#pragma once
/// The line protocol a user's own training command prints on its stdout, so Parity records its
/// losses live (version 1). One JSON object per line behind the word PARITY:
///
///   PARITY {"step": 12, "loss": 0.53, "lr": 0.05, "samples": 768, "epoch": 0.4}
///   PARITY {"step": 200, "eval_loss": 0.61, "eval_accuracy": 0.78}
///   PARITY {"hparams": {"per_device_train_batch_size": 16, "num_processes": 2}}
///
/// `step` (the optimizer step, from 1) and `loss` (the step's mean over every process) make a
/// step; `lr`, `samples` (global samples seen), `epoch` and `time_s` are optional. `eval_loss`
/// (with `eval_accuracy` optionally) makes an evaluation. `hparams` is what the command itself
/// says it ran with, checked against the setup. `"v": 1` may name the version. Python's
/// json.dumps writes a NaN loss as a bare NaN: it is read as NaN (the run is then diverged).
/// Every other line of the command's output goes to the run's log.

#include <parity/launch/step_record.h>

#include <map>
#include <optional>
#include <string>
#include <string_view>

namespace parity::launch {

constexpr int kParityLineVersion = 1;

struct ParityLine {
  std::optional<StepRecord> step;
  std::optional<EvalRecord> eval;
  /// The command's own hparams, each value as JSON text ("16", "\"bf16\"").
  std::map<std::string, std::string> hparams;
};

/// nullopt when `line` is not a PARITY line (any other output). Throws LaunchError with the
/// reason for a PARITY line that does not parse or lacks what its kind needs ("PARITY line:
/// 'loss' without 'step'"), and for a version other than 1.
std::optional<ParityLine> parse_parity_line(std::string_view line);

}  // namespace parity::launch
