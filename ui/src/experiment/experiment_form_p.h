#pragma once
// What the Experiment form's two files share: which fields apply to which choices, and the
// styles of its notes.

#include <parity/config/data_format.h>
#include <parity/config/run_config.h>

namespace parity::ui::experiment {

inline constexpr const char* kErrorStyle = "color: #c62828;";
inline constexpr const char* kNoteStyle = "color: gray;";

/// A format that may name its own test file.
inline bool fileData(config::DatasetKind d) { return config::data_format(d).test_file; }

inline bool layered(config::ModelKind m) {
  return m == config::ModelKind::kMlp || m == config::ModelKind::kCnn;
}

inline bool warmsUp(config::SchedulerKind s) {
  return s == config::SchedulerKind::kConstant || s == config::SchedulerKind::kLinear ||
         s == config::SchedulerKind::kCosine;
}

inline bool usesLength(config::SchedulerKind s) {
  return s == config::SchedulerKind::kLinear || s == config::SchedulerKind::kCosine ||
         s == config::SchedulerKind::kOneCycle;
}

}  // namespace parity::ui::experiment
