#pragma once
/// From the store to the verdict: a stored run (its row and its global steps) as the
/// analysis::CompareRun that analysis::compare() reads. The one place where storage's columns meet
/// the verdict's fields, shared by parity-cli (compare, export --report, rerun) and the window's
/// Compare panel, so both judge the same runs the same way.
/// Thread contract: that of storage::Database (one thread at a time per Database).

#include <parity/analysis/verdict.h>
#include <parity/config/run_facts.h>
#include <parity/storage/database.h>
#include <parity/stored_runs/stored_run_error.h>

#include <cstdint>
#include <stdexcept>
#include <vector>

namespace parity::stored_runs {

/// The row's id, label, config (parsed from config_json), final evaluation loss and accuracy,
/// samples/s, the train size it recorded (schema 2; older runs leave it to known_train_size())
/// and the model rank 0 built (schema 4; unrecorded when absent or unreadable), with
/// `global_steps` (the rank -1 rows, in step order) as the curve. The wall time is left to the
/// verdict's default (the last point's). Throws StoredRunError ("run N has a config that does
/// not load: ...") when config_json is not a RunConfig.
analysis::CompareRun compare_run(const storage::RunRow& row,
                                 const std::vector<storage::StepRow>& global_steps);

/// The run's facts: its stored facts JSON (an imported run), else its config's (an engine run,
/// every fact known). Throws StoredRunError when the stored facts do not load.
config::RunFacts stored_facts(const storage::RunRow& row, const config::RunConfig& config);

/// compare_run() of run `run_id` in `db`. Throws StoredRunError ("no run N in PATH") when there
/// is no such run; StorageError passes through.
analysis::CompareRun load_compare_run(const storage::Database& db, int64_t run_id);

/// A stored run read once: its row and its verdict input (what a report keeps beside the verdict).
struct LoadedRun {
  storage::RunRow row;
  analysis::CompareRun run;
};
/// The row and compare_run() of run `run_id`. Throws as load_compare_run().
LoadedRun load_run(const storage::Database& db, int64_t run_id);

/// analysis::compare() of loaded runs (analysis::compare_with_facts() when any of them was not
/// trained by the engine): each of `others` (an id equal to the reference's is skipped) against
/// `reference`. compare_stored() is this over load_run().
analysis::Comparison compare_loaded(const LoadedRun& reference,
                                    const std::vector<LoadedRun>& others,
                                    const analysis::CompareOptions& options = {});

/// analysis::compare() of stored runs (analysis::compare_with_facts() when any of them was not
/// trained by the engine, e.g. imported from a log): each of `others` (in order; an id equal to the
/// reference is skipped) against `reference`. Throws as load_compare_run() and analysis::compare().
analysis::Comparison compare_stored(const storage::Database& db, int64_t reference,
                                    const std::vector<int64_t>& others,
                                    const analysis::CompareOptions& options = {});

}  // namespace parity::stored_runs
