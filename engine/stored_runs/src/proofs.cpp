#include <parity/config/run_config.h>
#include <parity/stored_runs/compare_runs.h>
#include <parity/stored_runs/proofs.h>

namespace parity::stored_runs {

analysis::CompareOptions proof_options() {
  analysis::CompareOptions options;
  options.use_seed_groups = false;
  return options;
}

ProofPlan plan_proof(const storage::Database& db, int64_t reference, int64_t run) {
  const analysis::Comparison before = compare_stored(db, reference, {run}, proof_options());
  if (before.rows.size() < 2) {
    throw StoredRunError("run " + std::to_string(run) + " is the reference itself");
  }
  ProofPlan plan;
  plan.original = before.rows[1];
  plan.reference_label = before.rows[0].label;
  if (plan.original.verdict != analysis::Verdict::kDifferent) return plan;
  const analysis::CompareRun stored = load_compare_run(db, run);
  const analysis::CompareRun stored_ref = load_compare_run(db, reference);
  plan.counterfactuals =
      analysis::counterfactuals(stored.config, stored_ref.config, plan.original.reasons,
                                stored.train_size, stored_ref.train_size);
  return plan;
}

int64_t record_counterfactual(storage::Database& db, const analysis::Counterfactual& cf,
                              int64_t run, int64_t reference) {
  config::RunConfig config = cf.config.value();
  config.label = "cf #" + std::to_string(run) + " " + cf.cause;
  const int64_t id = db.create_run(config.label, config::to_json(config));
  db.set_notes(id, "counterfactual of run " + std::to_string(run) + " (reference " +
                       std::to_string(reference) + "), cause " + cf.cause + ": " + cf.change);
  db.set_counterfactual_of(id, run, reference, cf.cause);
  return id;
}

std::vector<StoredProof> stored_proofs(const storage::Database& db, int64_t reference, int64_t run,
                                       const std::optional<analysis::RunComparison>& original) {
  std::vector<StoredProof> out;
  std::optional<analysis::RunComparison> before = original;
  for (const storage::RunRow& row : db.counterfactuals_of(run)) {
    if (row.explains_reference != reference) continue;
    StoredProof p;
    p.counterfactual = row.id;
    p.cause = row.explains_cause;
    p.status = row.status;
    if (row.status == storage::RunStatus::kFinished) {
      if (!before) before = compare_stored(db, reference, {run}, proof_options()).rows.at(1);
      const analysis::Comparison after = compare_stored(db, reference, {row.id}, proof_options());
      p.result = analysis::judge_counterfactual(*before, after.rows.at(1));
    } else {
      p.error = row.error;
    }
    out.push_back(std::move(p));
  }
  return out;
}

}  // namespace parity::stored_runs
