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

LoadedRun load_run(const storage::Database& db, int64_t run_id) {
  auto row = db.get_run(run_id);
  if (!row) throw StoredRunError("no run " + std::to_string(run_id) + " in " + db.path());
  analysis::CompareRun run = compare_run(*row, db.steps(run_id, -1));
  return LoadedRun{std::move(*row), std::move(run)};
}

analysis::Comparison compare_loaded(const LoadedRun& reference,
                                    const std::vector<LoadedRun>& others,
                                    const analysis::CompareOptions& options) {
  // Runs not trained by the engine (imported from logs) are judged on their facts.
  bool any = reference.row.origin != storage::RunOrigin::kEngine;
  for (const auto& r : others)
    any = any || (r.row.id != reference.row.id && r.row.origin != storage::RunOrigin::kEngine);
  if (any) {
    auto with_facts = [](const LoadedRun& r) {
      analysis::FactRun run;
      run.run = r.run;
      run.facts = stored_facts(r.row, r.run.config);
      return run;
    };
    std::vector<analysis::FactRun> runs;
    for (const auto& r : others)
      if (r.row.id != reference.row.id) runs.push_back(with_facts(r));
    return analysis::compare_with_facts(with_facts(reference), runs, options);
  }
  std::vector<analysis::CompareRun> runs;
  for (const auto& r : others)
    if (r.row.id != reference.row.id) runs.push_back(r.run);
  return analysis::compare(reference.run, runs, options);
}

analysis::Comparison compare_stored(const storage::Database& db, int64_t reference,
                                    const std::vector<int64_t>& others,
                                    const analysis::CompareOptions& options) {
  std::vector<LoadedRun> runs;
  for (int64_t id : others)
    if (id != reference) runs.push_back(load_run(db, id));
  return compare_loaded(load_run(db, reference), runs, options);
}

}  // namespace parity::stored_runs
