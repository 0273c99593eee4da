#pragma once
/// Proving a verdict on stored runs, shared by `parity-cli explain` and the window's Prove: what
/// to train (the counterfactuals of a different run against its reference), how a counterfactual
/// is recorded (an ordinary run, labelled, noted and linked to the run it explains), and how the
/// recorded ones read now (confirmed / partly / not confirmed once finished, else their status).
/// Qt-free, torch-free: the training itself is parity-cli's.

#include <parity/analysis/counterfactual.h>
#include <parity/storage/database.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace parity::stored_runs {

/// Options the proofs judge with: no seed groups (a counterfactual that only changes the seed
/// would otherwise form a group with the run and lend it a noise floor).
analysis::CompareOptions proof_options();

struct ProofPlan {
  analysis::RunComparison original;  ///< the run against the reference, judged by proof_options()
  std::string reference_label;
  config::RunConfig reference_config;  ///< as the remedy read it (an imported run's facts applied)
  /// Empty unless the original is 'different'.
  std::vector<analysis::Counterfactual> counterfactuals;
  /// The whole setup of the run's shape with the reference's arithmetic (what `fix` and Make it
  /// equivalent train); nullopt unless the original is 'different'.
  std::optional<analysis::Remedy> remedy;
  /// Why Parity's engine cannot train these counterfactuals, when it cannot: one of the runs was
  /// imported from a log (its data and model are the user's, not Parity's). The counterfactuals
  /// are then one per cause of the verdict, with nothing to run: `why_not` holds the cause's text
  /// (what differs and what aligns it), to be done in the user's own training.
  std::string not_here;
};
/// The counterfactuals that would prove why `run` differs from `reference`. Throws
/// StoredRunError / StorageError as compare_stored().
ProofPlan plan_proof(const storage::Database& db, int64_t reference, int64_t run);

/// Creates the counterfactual's run rows, queued, and returns their ids: one for a counterfactual
/// with a config (label "cf #RUN CAUSE"), one per seed for a seed-band proof ("cf #RUN CAUSE seed
/// S", the reference under that seed), none when neither is set. Each is noted with the change,
/// holds its config and is linked to `run` and `reference` under the cause.
std::vector<int64_t> record_counterfactual(storage::Database& db,
                                           const analysis::Counterfactual& cf, int64_t run,
                                           int64_t reference);

/// A recorded counterfactual of a run and how it reads now.
struct StoredProof {
  int64_t counterfactual = 0;  ///< its run id
  std::string cause;
  storage::RunStatus status = storage::RunStatus::kQueued;
  std::optional<analysis::ProofResult>
      result;         ///< once it finished; nullopt before, or if it failed
  std::string error;  ///< when it failed, stopped or diverged
};
/// Every counterfactual of `run` recorded against `reference`, in id order, judged against
/// `original` (plan_proof()'s original, or nullopt to compute it). The runs of a seed-band proof
/// are judged together once all have finished (the run against the band they make with the
/// reference), each carrying that result.
std::vector<StoredProof> stored_proofs(const storage::Database& db, int64_t reference, int64_t run,
                                       const std::optional<analysis::RunComparison>& original = {});

}  // namespace parity::stored_runs
