#pragma once
// The cause registry's entries with their rules (internal to parity_analysis): how each cause is
// diagnosed (a rule over both setups, or the reading of one config key) and how a counterfactual
// aligns it. cause.h is the public view of the same entries.

#include <parity/analysis/cause.h>

#include <string_view>
#include <vector>

#include "alignments.h"
#include "diagnosis_rules.h"

namespace parity::analysis::verdict_detail {

struct CauseEntry {
  CauseInfo info;
  Diagnose diagnose = nullptr;  ///< a derived cause: reads both setups, pushes its reasons
  ReadKey read_key = nullptr;   ///< a config key: how its difference reads
  Align align = nullptr;        ///< nullptr: no counterfactual (info.aligned says why)
};

/// Every entry, in the diagnosis's order.
const std::vector<CauseEntry>& cause_entries();
/// The entry of `key`, or nullptr (an experiment key, or a key nothing registered).
const CauseEntry* find_entry(std::string_view key);

}  // namespace parity::analysis::verdict_detail
