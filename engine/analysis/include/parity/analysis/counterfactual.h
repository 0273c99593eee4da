#pragma once
/// Proving a diagnosis: for each cause the verdict names, the run's config made to match the
/// reference on that cause alone (the counterfactual), and how a counterfactual run's verdict
/// reads against the original's: confirmed (aligning the cause closes the gap), partly (the gap
/// shrinks by a stated factor) or not confirmed. Torch-free: the CLI's `explain` and the window's
/// "Prove" train the counterfactuals as ordinary runs and judge them with compare().

#include <parity/analysis/verdict.h>
#include <parity/config/run_config.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace parity::analysis {

struct Counterfactual {
  std::string cause;   ///< the Reason key it tests ("padding", "global_batch", ...)
  std::string change;  ///< what was changed, in words ("per-device batch 16 -> 8")
  std::optional<config::RunConfig>
      config;           ///< nullopt: no change of this run alone isolates the cause
  std::string why_not;  ///< when config is nullopt: why, and what would
  /// A cause proved against noise (CauseInfo::seed_band): the reference under these seeds; the
  /// run is judged by judge_seed_band() against the band they make with the reference.
  std::vector<config::RunConfig> seeds;
};

/// Extra seeds of the reference a seed-band proof trains.
inline constexpr int kBandSeeds = 2;

/// One counterfactual per cause of `causes` (the verdict's reasons for run vs reference), in
/// their order, then "all" (every change at once) when more than one applies. Train sizes as
/// diagnose() takes them (needed for the schedule's length).
std::vector<Counterfactual> counterfactuals(
    const config::RunConfig& run, const config::RunConfig& reference,
    const std::vector<Reason>& causes, std::optional<int64_t> train_size = std::nullopt,
    std::optional<int64_t> reference_train_size = std::nullopt);

enum class Proof { kConfirmed, kPartly, kNotConfirmed };
/// "confirmed", "partly", "not confirmed".
std::string to_string(Proof proof);

struct ProofResult {
  Proof proof = Proof::kNotConfirmed;
  double shrink = 1;  ///< original worst ratio / counterfactual's (how much the gap shrank)
  std::string text;   ///< "confirmed: equivalent now (worst gap 0.4x the allowed, was 470x)"
};

/// A counterfactual's row against the original's (both compared to the same reference):
/// confirmed when it is equivalent now; partly when its worst ratio shrank by at least
/// kPartlyFactor; else not confirmed.
inline constexpr double kPartlyFactor = 2.0;
ProofResult judge_counterfactual(const RunComparison& original,
                                 const RunComparison& counterfactual);

/// A seed-band proof: the run's row compared with seed groups against the reference and its
/// extra seeds. Confirmed when it is equivalent within their band (the gap is that noise), else
/// not confirmed.
ProofResult judge_seed_band(const RunComparison& run_against_band);

}  // namespace parity::analysis
