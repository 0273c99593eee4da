#include <parity/config/run_config.h>
#include <parity/imported_runs/store_imported_run.h>

#include <cmath>

namespace parity::imported_runs {

std::string config_json_of(const config::RunFacts& facts, const std::string& label) {
  config::RunConfig c;
  config::apply_facts(facts, c);
  c.label = label;
  return config::to_json(c, -1);
}

storage::ImportedRunRecord to_record(const ingest::ImportedRun& run, const std::string& label) {
  storage::ImportedRunRecord r;
  r.label = label;
  r.source_path = run.source_path;
  r.source_identity = run.identity;
  r.facts_json = config::to_json(run.facts);
  r.config_json = config_json_of(run.facts, label);
  for (const std::string& n : run.notes) r.notes += (r.notes.empty() ? "" : "; ") + n;
  if (run.facts.train_samples.has_value()) r.train_size = *run.facts.train_samples;
  const auto g = run.facts.global_batch();
  int epoch = 0;
  for (const ingest::ImportedEval& e : run.evals) {
    storage::EvalRow row;
    row.epoch = ++epoch;
    row.step = e.step;
    row.samples = g ? e.step * *g : 0;
    row.loss = e.loss;
    row.accuracy = e.accuracy;
    r.evals.push_back(row);
  }
  return r;
}

std::function<bool(storage::StepRow&)> step_rows(const ingest::ImportedRun& run) {
  const auto g = run.facts.global_batch();
  const double n =
      run.facts.train_samples.has_value() ? static_cast<double>(*run.facts.train_samples) : 0;
  return [&run, g, n, i = size_t{0}](storage::StepRow& row) mutable {
    if (i >= run.points.size()) return false;
    const ingest::ImportedPoint& p = run.points[i++];
    row = storage::StepRow{};
    row.step = p.step;
    row.loss = p.loss;
    row.lr = p.lr;
    row.time_s = p.time_s;
    row.samples = g ? p.step * *g : 0;
    row.epoch =
        std::isfinite(p.epoch) ? p.epoch : (g && n > 0 ? static_cast<double>(row.samples) / n : 0);
    return true;
  };
}

storage::ImportOutcome store(storage::Database& db, const ingest::ImportedRun& run,
                             const std::string& label) {
  return db.import_run(to_record(run, label), step_rows(run));
}

void store_facts(storage::Database& db, int64_t run_id, const config::RunFacts& facts,
                 const std::string& label) {
  db.set_facts(run_id, config::to_json(facts), config_json_of(facts, label));
}

}  // namespace parity::imported_runs
