#pragma once
/// From the store to the verdict: loads runs as engine::CompareRun, runs engine::compare, and
/// writes the verdict report CSV (the runs table plus one column group per verdict metric).

#include <parity/analysis/verdict.h>
#include <parity/storage/database.h>

#include <cstdint>
#include <ostream>
#include <vector>

namespace parity::cli {

/// The run's config, global curve (rank -1 rows), finals and throughput. Throws UsageError when
/// the run does not exist or its stored config does not parse.
engine::CompareRun load_compare_run(const storage::Database& db, int64_t run_id);

/// Compares `others` (empty = every other run that has steps) to `reference`.
engine::Comparison compare_in_db(const storage::Database& db, int64_t reference,
                                 const std::vector<int64_t>& others,
                                 const engine::CompareOptions& options = {});

/// "key: a vs b; key: a vs b".
std::string join_diff(const std::vector<engine::ConfigDiff>& diff);
/// Reason texts joined with "; ".
std::string join_reasons(const std::vector<engine::Reason>& reasons);

/// The report: storage::write_runs_csv for the reference and the compared runs with these
/// columns after the finals: reference_run, verdict, summary, reasons, info, differing_keys,
/// max_abs_delta, max_rel_delta, final_abs_delta, final_rel_delta, mean_abs_delta,
/// epoch_max_abs_delta, final_eval_loss_delta, final_accuracy_delta, samples_to_target,
/// time_to_target_s, per_device_samples_per_s, scaling_efficiency, noise_floor, noise_source,
/// range_note.
void write_report_csv(const storage::Database& db, int64_t reference,
                      const std::vector<int64_t>& others, std::ostream& out,
                      const engine::CompareOptions& options = {});

}  // namespace parity::cli
