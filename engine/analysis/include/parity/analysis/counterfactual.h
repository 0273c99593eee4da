#pragma once
/// Proving a diagnosis: for each cause the verdict names, the run's config made to match the
/// reference on that cause alone (the counterfactual), and how a counterfactual run's verdict
/// reads against the original's: confirmed (aligning the cause closes the gap), partly (the gap
/// shrinks by a stated factor) or not confirmed. Torch-free: the CLI's `explain` and the window's
/// "Prove" train the counterfactuals as ordinary runs and judge them with compare().

#include <parity/analysis/remedy.h>
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
  /// run (or, with a config, the counterfactual) is judged by judge_seed_band() against the
  /// band they make with the reference.
  std::vector<config::RunConfig> seeds;
};

/// Extra seeds of the reference a seed-band proof trains.
inline constexpr int kBandSeeds = 2;

/// One counterfactual per cause of `causes` (the verdict's reasons for run vs reference), in
/// their order, then "all": the remedy (remedy.h), the whole setup of the run's shape with the
/// reference's arithmetic, unless one cause's counterfactual is that setup already. Noise no
/// change removes (dropout masks, a data order the run's processes never draw) is proved by the
/// band of the reference under kBandSeeds more seeds: the run's own (a seed-band counterfactual)
/// when nothing else differs, else the remedy's ("all" then carries those seeds too). Train sizes
/// and models as diagnose() takes them.
std::vector<Counterfactual> counterfactuals(
    const config::RunConfig& run, const config::RunConfig& reference,
    const std::vector<Reason>& causes, std::optional<int64_t> train_size = std::nullopt,
    std::optional<int64_t> reference_train_size = std::nullopt,
    const std::optional<config::ModelSummary>& model = std::nullopt,
    const std::optional<config::ModelSummary>& reference_model = std::nullopt);

/// The remedy as the counterfactual that trains it: "all" (or "all but KEY, ..." for what no
/// setup of the run's shape aligns), with the reference's band seeds when noise is left.
Counterfactual remedy_counterfactual(const Remedy& remedy, const config::RunConfig& reference);

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

/// A noise proof (dropout masks, a data order no setting aligns): `with_band` compares the
/// reference's other seeds, then the judged run (last), with the reference. Confirmed when the
/// run is no further from the reference than its own seeds are (mean |delta loss| over the
/// common range at most the largest seed's): the gap is that noise. A pointwise "inside the
/// band" test would fail a fresh draw of the same noise about half the time with three seeds.
ProofResult judge_seed_band(const Comparison& with_band);

}  // namespace parity::analysis
