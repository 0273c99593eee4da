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

analysis::Comparison compare_stored(const storage::Database& db, int64_t reference,
                                    const std::vector<int64_t>& others,
                                    const analysis::CompareOptions& options) {
  const analysis::CompareRun ref = load_compare_run(db, reference);
  std::vector<analysis::CompareRun> runs;
  for (int64_t id : others) {
    if (id != reference) runs.push_back(load_compare_run(db, id));
  }
  return analysis::compare(ref, runs, options);
}

}  // namespace parity::stored_runs
