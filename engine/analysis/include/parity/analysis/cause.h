#pragma once
/// The verdict's causes as one registry: each cause once, with its key (the stored spelling of
/// Reason::key, of a proof's cause column and of a counterfactual's label "cf #RUN KEY"), its
/// label in words, how the diagnosis finds it and how a counterfactual aligns it, or why none can.
/// The diagnosis's rules, the counterfactual planner, the stored proofs, `explain` and the
/// window's Proof column all read these entries; adding a cause is one entry (in
/// src/cause_registry.cpp) plus its tests. Torch-free.

#include <string>
#include <string_view>
#include <vector>

namespace parity::analysis {

struct CauseInfo {
  std::string_view key;        ///< stored spelling: "global_batch", "seed", "threads_per_rank"
  std::string_view label;      ///< in words: "global batch", "summation order (threads)"
  std::string_view diagnosed;  ///< how the diagnosis finds it
  std::string_view aligned;    ///< how a counterfactual aligns it, or why none can
  bool alignable = true;       ///< false: no change of the run alone removes it
  /// Noise no single change removes (dropout masks cut differently): proved against the band of
  /// the reference under more seeds instead of by a counterfactual.
  bool seed_band = false;
};

/// Every registered cause, in the order the diagnosis lists them.
const std::vector<CauseInfo>& cause_registry();

/// The entry of `key`. A config key without an entry of its own (an experiment key: dataset,
/// hidden, optimizer ...) reads as the generic "experiment" entry, whose counterfactual sets
/// that key to the reference's; "all" and "all but ..." as the combined proof.
const CauseInfo& cause_info(std::string_view key);

/// The label of a stored cause key, for tables ("global batch"; an experiment key as itself).
std::string cause_label(std::string_view key);

}  // namespace parity::analysis
