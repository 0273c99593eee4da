#pragma once
// Private to parity_ingest: scalar series (tag -> steps, values) to an imported run's points and
// evaluations, the same for every format: which tags are the loss, the lr, the evaluations;
// steps that go backwards, duplicates and all-zero steps said in the run's notes.

#include <parity/ingest/imported_run.h>
#include <parity/ingest/tensorboard.h>

#include <map>
#include <string>

namespace parity::ingest::detail {

void build_points(ImportedRun& run, const std::map<std::string, TagSeries>& scalars,
                  const ImportOptions& options);

/// lr_scaling derived as "none" when the first logged lr equals the learning_rate fact.
void derive_lr_scaling(ImportedRun& run);

}  // namespace parity::ingest::detail
