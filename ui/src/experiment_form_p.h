#pragma once
// What the Experiment form's two files share: which fields apply to which choices, and the
// styles of its notes.

#include <parity/config/run_config.h>

namespace parity::ui::experiment {

inline constexpr const char* kErrorStyle = "color: #c62828;";
inline constexpr const char* kNoteStyle = "color: gray;";

inline bool fileData(engine::DatasetKind d) {
  return d == engine::DatasetKind::kCsv || d == engine::DatasetKind::kJsonl;
}

inline bool layered(engine::ModelKind m) {
  return m == engine::ModelKind::kMlp || m == engine::ModelKind::kCnn;
}

inline bool warmsUp(engine::SchedulerKind s) {
  return s == engine::SchedulerKind::kConstant || s == engine::SchedulerKind::kLinear ||
         s == engine::SchedulerKind::kCosine;
}

inline bool usesLength(engine::SchedulerKind s) {
  return s == engine::SchedulerKind::kLinear || s == engine::SchedulerKind::kCosine ||
         s == engine::SchedulerKind::kOneCycle;
}

}  // namespace parity::ui::experiment
