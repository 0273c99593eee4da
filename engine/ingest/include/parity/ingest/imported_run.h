#pragma once
/// A run as a log file holds it, read by one of the format readers: its curve, its evaluations,
/// its facts (each known, derived or unknown) and what the reader had to skip or repair.

#include <parity/config/run_facts.h>

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

namespace parity::ingest {

struct ImportedPoint {
  int64_t step = 0;
  double loss = 0;                                          ///< NaN kept as NaN
  double lr = std::numeric_limits<double>::quiet_NaN();     ///< NaN = not logged
  double epoch = std::numeric_limits<double>::quiet_NaN();  ///< NaN = not logged
  double time_s = 0;  ///< wall time since the run's first point (0 when the format has none)
};

struct ImportedEval {
  int64_t step = 0;
  double loss = 0;
  std::optional<double> accuracy;
};

struct ImportedRun {
  std::string name;         ///< the run's name: its path under the folder imported, or its own
  std::string format;       ///< "tensorboard", "trainer_state", "mlflow", "csv"
  std::string source_path;  ///< the folder or file it was read from
  std::string identity;     ///< what makes a re-import find the same run: format + canonical path
  config::RunFacts facts;
  std::string loss_tag;               ///< the series read as the loss ("train/loss")
  std::vector<ImportedPoint> points;  ///< as written (a step that goes backwards is kept)
  std::vector<ImportedEval> evals;
  std::vector<std::string> notes;  ///< what was skipped, repaired or assumed, in words
  int damaged_files = 0;           ///< files with a CRC mismatch (read up to it)
};

/// Which series to read, when the defaults (the first present of the usual spellings) are not it.
struct ImportOptions {
  std::string loss_tag;  ///< "" = train/loss, train_loss, loss, ...
  std::string lr_tag;    ///< "" = train/lr, train/learning_rate, lr, learning_rate
  std::string eval_loss_tag;
  std::string eval_accuracy_tag;
};

}  // namespace parity::ingest
