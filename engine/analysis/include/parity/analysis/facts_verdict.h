#pragma once
/// The verdict on runs known by their facts (parity_config's RunFacts), such as runs imported
/// from logs, whose setup is known only as far as the files said.
///
/// - Runs are aligned on samples seen when every run's setup (processes, per-device batch,
///   accumulation) is known or derived; otherwise on steps, and the verdict says so.
/// - Causes come only from known and derived facts: a fact unknown on either side is taken as
///   equal for the diagnosis, and named as unknown with the flag that would settle it. A pair is
///   never called "possible bug" while such a fact is unknown.
/// - Accelerate's default data order (use_seedable_sampler False: a run on several processes
///   shuffles with a fresh torch.Generator() that set_seed does not seed) is a cause when the
///   facts say so.
/// - Equal training arithmetic whose logged losses differ (accumulation: a script logs one
///   micro-batch per step) is said as such when the evaluations agree to 7 digits.
/// compare() itself is untouched: this builds its inputs and reads its rows.

#include <parity/analysis/verdict.h>
#include <parity/config/run_facts.h>

#include <vector>

namespace parity::analysis {

struct FactRun {
  CompareRun run;  ///< run.config is ignored where `facts` has a value
  config::RunFacts facts;
};

Comparison compare_with_facts(const FactRun& reference, const std::vector<FactRun>& others,
                              CompareOptions options = {});

}  // namespace parity::analysis
