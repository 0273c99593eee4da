#pragma once
/// The CLI's side of the verdict: which stored runs `compare` and `export --report` judge, and
/// the report CSV (the runs table plus one column group per verdict metric). Reading a stored run
/// as the verdict's input is parity::stored_runs, shared with the window; the rows every
/// rendering of a comparison reads are parity::report's model.

#include <parity/analysis/verdict.h>
#include <parity/storage/database.h>

#include <cstdint>
#include <ostream>
#include <vector>

namespace parity::cli {

/// Compares `others` (empty = every other run that has steps) to `reference`. Throws
/// stored_runs::StoredRunError for a run that is missing or whose config does not load.
analysis::Comparison compare_in_db(const storage::Database& db, int64_t reference,
                                   const std::vector<int64_t>& others,
                                   const analysis::CompareOptions& options = {});

/// "key: a vs b; key: a vs b".
std::string join_diff(const std::vector<analysis::ConfigDiff>& diff);
/// Reason texts joined with "; ".
std::string join_reasons(const std::vector<analysis::Reason>& reasons);

/// The CSV report (`export --report`): the report model's CSV writer (parity::report), the runs
/// table of the reference and the compared runs with these columns after the finals:
/// reference_run, verdict, summary, reasons, info, differing_keys, max_abs_delta, max_rel_delta,
/// final_abs_delta, final_rel_delta, mean_abs_delta, epoch_max_abs_delta, final_eval_loss_delta,
/// final_accuracy_delta, samples_to_target, time_to_target_s, per_device_samples_per_s,
/// scaling_efficiency, noise_floor, noise_source, range_note.
void write_report_csv(const storage::Database& db, int64_t reference,
                      const std::vector<int64_t>& others, std::ostream& out,
                      const analysis::CompareOptions& options = {});

}  // namespace parity::cli
