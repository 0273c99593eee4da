#include <parity/analysis/facts_verdict.h>
#include <parity/config/run_facts.h>
#include <parity/stored_runs/compare_runs.h>

#include <exception>
#include <stdexcept>
#include <string>

namespace parity::stored_runs {

analysis::CompareRun compare_run(const storage::RunRow& row,
                                 const std::vector<storage::StepRow>& global_steps) {
  analysis::CompareRun run;
  run.id = row.id;
  run.label = row.label;
  try {
    run.config = config::from_json(row.config_json);
  } catch (const std::exception& e) {
    throw StoredRunError("run " + std::to_string(row.id) +
                         " has a config that does not load: " + e.what());
  }
  run.points.reserve(global_steps.size());
  for (const storage::StepRow& s : global_steps) {
    analysis::CurvePoint p;
    p.step = s.step;
    p.samples = static_cast<double>(s.samples);
    p.epoch = s.epoch;
    p.time_s = s.time_s;
    p.loss = s.loss;
    run.points.push_back(p);
  }
  run.final_eval_loss = row.final_eval_loss;
  run.final_accuracy = row.final_accuracy;
  run.samples_per_s = row.samples_per_s;
  // What the run really trained on (schema 2); older runs leave it to known_train_size().
  if (row.train_size > 0) run.train_size = row.train_size;
  // A command's or a log's data is its own: without a recorded size, none of Parity's datasets
  // is assumed (the verdict then names no padding, dropped samples or short group).
  if (row.train_size <= 0 && row.origin != storage::RunOrigin::kEngine) run.train_size = 0;
  // The model as rank 0 built it (schema 4). One that does not parse is treated as unrecorded:
  // the verdict then reads the config's options, as for older runs.
  if (!row.model_json.empty()) {
    try {
      run.model = config::model_summary_from_json(row.model_json);
    } catch (const std::invalid_argument&) {
      run.model.reset();  // unrecorded
    }
  }
  return run;
}

analysis::CompareRun load_compare_run(const storage::Database& db, int64_t run_id) {
  const auto row = db.get_run(run_id);
  if (!row) throw StoredRunError("no run " + std::to_string(run_id) + " in " + db.path());
  return compare_run(*row, db.steps(run_id, -1));
}

config::RunFacts stored_facts(const storage::RunRow& row, const config::RunConfig& config) {
  if (row.facts_json.empty()) return config::facts_of(config);
  try {
    return config::run_facts_from_json(row.facts_json);
  } catch (const std::invalid_argument& e) {
    throw StoredRunError("run " + std::to_string(row.id) +
                         " has facts that do not load: " + e.what());
  }
}

namespace {

// Runs not trained by the engine (imported from logs) are judged on their facts.
std::optional<analysis::Comparison> compare_on_facts(const storage::Database& db, int64_t reference,
                                                     const std::vector<int64_t>& others,
                                                     const analysis::CompareOptions& options) {
  std::vector<storage::RunRow> rows;
  for (int64_t id : others) {
    if (id == reference) continue;
    const auto row = db.get_run(id);
    if (!row) throw StoredRunError("no run " + std::to_string(id) + " in " + db.path());
    rows.push_back(*row);
  }
  const auto ref_row = db.get_run(reference);
  if (!ref_row) throw StoredRunError("no run " + std::to_string(reference) + " in " + db.path());
  bool any = ref_row->origin != storage::RunOrigin::kEngine;
  for (const auto& r : rows) any = any || r.origin != storage::RunOrigin::kEngine;
  if (!any) return std::nullopt;
  auto load = [&](const storage::RunRow& row) {
    analysis::FactRun run;
    run.run = compare_run(row, db.steps(row.id, -1));
    run.facts = stored_facts(row, run.run.config);
    return run;
  };
  std::vector<analysis::FactRun> runs;
  for (const auto& r : rows) runs.push_back(load(r));
  return analysis::compare_with_facts(load(*ref_row), runs, options);
}

}  // namespace

analysis::Comparison compare_stored(const storage::Database& db, int64_t reference,
                                    const std::vector<int64_t>& others,
                                    const analysis::CompareOptions& options) {
  if (auto on_facts = compare_on_facts(db, reference, others, options)) return *on_facts;
  const analysis::CompareRun ref = load_compare_run(db, reference);
  std::vector<analysis::CompareRun> runs;
  for (int64_t id : others) {
    if (id != reference) runs.push_back(load_compare_run(db, id));
  }
  return analysis::compare(ref, runs, options);
}

}  // namespace parity::stored_runs
