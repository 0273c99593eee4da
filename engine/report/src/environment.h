#pragma once
// Where a report is made: this Parity, the LibTorch it was built with, the machine, and each
// run's processes and threads as the run recorded them.

#include <parity/report/report.h>
#include <parity/stored_runs/compare_runs.h>

#include <string>
#include <vector>

namespace parity::report {

Environment environment_of(const std::string& database,
                           const std::vector<const stored_runs::LoadedRun*>& runs);

}  // namespace parity::report
