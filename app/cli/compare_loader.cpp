#include "compare_loader.h"

#include <parity/storage/csv.h>
#include <parity/stored_runs/compare_runs.h>

#include <algorithm>

namespace parity::cli {

analysis::Comparison compare_in_db(const storage::Database& db, int64_t reference,
                                   const std::vector<int64_t>& others,
                                   const analysis::CompareOptions& options) {
  if (!others.empty()) return stored_runs::compare_stored(db, reference, others, options);
  std::vector<int64_t> with_steps;
  for (const auto& row : db.list_runs()) {
    if (row.id != reference && row.steps_done > 0) with_steps.push_back(row.id);
  }
  return stored_runs::compare_stored(db, reference, with_steps, options);
}

std::string join_diff(const std::vector<analysis::ConfigDiff>& diff) {
  std::string out;
  for (const auto& d : diff)
    out += (out.empty() ? "" : "; ") + d.key + ": " + d.value + " vs " + d.reference;
  return out;
}

std::string join_reasons(const std::vector<analysis::Reason>& reasons) {
  std::string out;
  for (const auto& r : reasons) out += (out.empty() ? "" : "; ") + r.text;
  return out;
}

void write_report_csv(const storage::Database& db, int64_t reference,
                      const std::vector<int64_t>& others, std::ostream& out,
                      const analysis::CompareOptions& options) {
  const analysis::Comparison cmp = compare_in_db(db, reference, others, options);
  auto num = [](double v) { return storage::format_number(v); };
  auto opt = [](const std::optional<double>& v) {
    return v ? storage::format_number(*v) : std::string();
  };
  storage::RunsCsvExtra extra;
  extra.columns = {"reference_run",
                   "verdict",
                   "summary",
                   "reasons",
                   "info",
                   "differing_keys",
                   "max_abs_delta",
                   "max_rel_delta",
                   "final_abs_delta",
                   "final_rel_delta",
                   "mean_abs_delta",
                   "epoch_max_abs_delta",
                   "final_eval_loss_delta",
                   "final_accuracy_delta",
                   "samples_to_target",
                   "time_to_target_s",
                   "per_device_samples_per_s",
                   "scaling_efficiency",
                   "noise_floor",
                   "noise_source",
                   "range_note"};
  std::vector<int64_t> ids;
  for (const auto& r : cmp.rows) {
    ids.push_back(r.id);
    const bool is_ref = r.verdict == analysis::Verdict::kReference;
    extra.values[r.id] = {std::to_string(cmp.reference_id),
                          analysis::to_string(r.verdict),
                          r.summary,
                          join_reasons(r.reasons),
                          join_reasons(r.info),
                          join_diff(r.config_diff),
                          is_ref ? "" : num(r.delta.max_abs),
                          is_ref ? "" : num(r.delta.max_rel),
                          is_ref ? "" : num(r.delta.final_abs),
                          is_ref ? "" : num(r.delta.final_rel),
                          is_ref ? "" : num(r.delta.mean_abs),
                          is_ref ? "" : num(r.epoch_delta.max_abs),
                          opt(r.final_eval_loss_delta),
                          opt(r.final_accuracy_delta),
                          opt(r.samples_to_target),
                          opt(r.time_to_target_s),
                          num(r.per_device_samples_per_s),
                          opt(r.scaling_efficiency),
                          num(r.noise_floor),
                          r.noise_source,
                          r.delta.range_note};
  }
  std::sort(ids.begin(), ids.end());
  storage::write_runs_csv(db, ids, out, extra);
}

}  // namespace parity::cli
