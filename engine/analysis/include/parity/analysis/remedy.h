#pragma once
/// The remedy: the whole setup that gives the reference's arithmetic on the run's shape (its
/// number of processes), computed in one place. Where the verdict says a run "would match", this
/// is the setup it means, every part of it: the run's processes; a per-device batch and
/// accumulation that give the reference's global batch (and its batch-norm batch, through sync
/// batch norm where every rank's batch together is the reference's); the lr after scaling equal
/// to the reference's; the reference's sampler, precision, seeds and tail handling (even_batches
/// off with global loss normalisation where only the run repeats samples); the reference's
/// schedule in this run's scheduler steps. `explain`'s combined proof and `fix` train exactly it.
///
/// A command run (the user's own training command) keeps its template: only the values its
/// placeholders carry can move. What the script decides itself (its sampler, schedule, data) is
/// left as it is, and a data order that may differ between process counts is then noise, judged
/// like dropout masks against the band of the reference under more seeds. Torch-free.

#include <parity/analysis/verdict_types.h>
#include <parity/config/model_summary.h>
#include <parity/config/run_config.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace parity::analysis {

/// One field the remedy changes.
struct RemedyChange {
  std::string key;       ///< the config field ("per_device_batch_size")
  std::string from, to;  ///< config::field_text() before and after
  std::string words;     ///< "per-device batch 64 -> 32"
};

struct Remedy {
  config::RunConfig config;           ///< the setup to train (the run's, when nothing changes)
  std::vector<RemedyChange> changes;  ///< empty: the run has the reference's arithmetic already
  /// Causes no setup of this shape removes (dropout masks, a data order the run's processes
  /// never draw, a command's own sampler): the remedy is judged against the band of the
  /// reference under kBandSeeds more seeds, not the tolerance.
  std::vector<Reason> noise;
  /// What no setup of this shape aligns (batch-norm statistics over another batch, the
  /// reference's own repeated samples, a schedule that is not a whole number of this run's
  /// steps); empty when the remedy is exact.
  std::vector<Reason> left;

  bool needed() const { return !changes.empty(); }
  bool exact() const { return left.empty(); }
  /// The whole setup in words, every part named (the lr as the number it steps with):
  /// "2 processes x 32 per device, accumulation 1 (global batch 64), lr 0.05 after scaling,
  /// the seeded sampler (data_seed + epoch), fp32, sync batch norm off, schedule constant".
  std::string setup_text() const;
  /// What changes, in words: "per-device batch 64 -> 32; lr 0.1 -> 0.05 after scaling (...)".
  std::string changes_text() const;
  /// The command-line flags that train it: "--per-device-batch-size 32 --lr 0.05 --lr-scaling
  /// none" (for a run trained elsewhere, the values to give its own script).
  std::string flags() const;
};

/// The remedy of `run` against `reference`. Train sizes and recorded models as diagnose() takes
/// them (a size <= 0 is the run's own data, unknown).
Remedy remedy(const config::RunConfig& run, const config::RunConfig& reference,
              std::optional<int64_t> train_size = std::nullopt,
              std::optional<int64_t> reference_train_size = std::nullopt,
              const std::optional<config::ModelSummary>& model = std::nullopt,
              const std::optional<config::ModelSummary>& reference_model = std::nullopt);

/// Whether the user's command template carries `field` (its placeholder appears: {learning_rate}
/// for lr and lr_scaling, {per_device_batch_size}, ...); every field when `config` runs the
/// engine (no command).
bool template_moves(const config::RunConfig& config, const std::string& field);

}  // namespace parity::analysis
