#include "compare_loader.h"

#include <parity/storage/csv.h>

#include <algorithm>

#include "cli_common.h"

namespace parity::cli {

engine::CompareRun load_compare_run(const storage::Database& db, int64_t run_id) {
  auto row = db.get_run(run_id);
  if (!row) throw UsageError("no run " + std::to_string(run_id) + " in " + db.path());
  engine::CompareRun run;
  run.id = row->id;
  run.label = row->label;
  try {
    run.config = engine::from_json(row->config_json);
  } catch (const std::exception& e) {
    throw UsageError("run " + std::to_string(run_id) +
                     " has a config that does not load: " + e.what());
  }
  for (const auto& s : db.steps(run_id, -1)) {
    engine::CurvePoint p;
    p.step = s.step;
    p.samples = static_cast<double>(s.samples);
    p.epoch = s.epoch;
    p.time_s = s.time_s;
    p.loss = s.loss;
    run.points.push_back(p);
  }
  run.final_eval_loss = row->final_eval_loss;
  run.final_accuracy = row->final_accuracy;
  run.samples_per_s = row->samples_per_s;
  return run;
}

engine::Comparison compare_in_db(const storage::Database& db, int64_t reference,
                                 const std::vector<int64_t>& others,
                                 const engine::CompareOptions& options) {
  engine::CompareRun ref = load_compare_run(db, reference);
  std::vector<engine::CompareRun> runs;
  if (others.empty()) {
    for (const auto& row : db.list_runs())
      if (row.id != reference && row.steps_done > 0) runs.push_back(load_compare_run(db, row.id));
  } else {
    for (int64_t id : others)
      if (id != reference) runs.push_back(load_compare_run(db, id));
  }
  return engine::compare(ref, runs, options);
}

std::string join_diff(const std::vector<engine::ConfigDiff>& diff) {
  std::string out;
  for (const auto& d : diff)
    out += (out.empty() ? "" : "; ") + d.key + ": " + d.value + " vs " + d.reference;
  return out;
}

std::string join_reasons(const std::vector<engine::Reason>& reasons) {
  std::string out;
  for (const auto& r : reasons) out += (out.empty() ? "" : "; ") + r.text;
  return out;
}

void write_report_csv(const storage::Database& db, int64_t reference,
                      const std::vector<int64_t>& others, std::ostream& out,
                      const engine::CompareOptions& options) {
  const engine::Comparison cmp = compare_in_db(db, reference, others, options);
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
    const bool is_ref = r.verdict == engine::Verdict::kReference;
    extra.values[r.id] = {std::to_string(cmp.reference_id),
                          engine::to_string(r.verdict),
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
