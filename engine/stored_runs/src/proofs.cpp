#include <parity/analysis/cause.h>
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
  analysis::CompareRun stored = load_compare_run(db, run);
  analysis::CompareRun stored_ref = load_compare_run(db, reference);
  // A run not trained by the engine is what its facts say (an edited fact included).
  for (analysis::CompareRun* r : {&stored, &stored_ref}) {
    const auto row = db.get_run(r->id);
    if (row && row->origin != storage::RunOrigin::kEngine) config::apply_facts(stored_facts(*row, r->config), r->config);
  }
  plan.reference_config = stored_ref.config;
  plan.remedy = analysis::remedy(stored.config, stored_ref.config, stored.train_size,
                                 stored_ref.train_size, stored.model, stored_ref.model);
  plan.counterfactuals = analysis::counterfactuals(stored.config, stored_ref.config,
                                                   plan.original.reasons, stored.train_size,
                                                   stored_ref.train_size, stored.model,
                                                   stored_ref.model);
  // An imported run's config holds its facts over the engine's defaults (Fashion-MNIST, the
  // MLP): training it would prove nothing about the user's own model and data. A command run's
  // config holds its command: its counterfactuals run that command with the aligned values.
  for (const int64_t id : {run, reference}) {
    const auto row = db.get_run(id);
    if (!row || row->origin != storage::RunOrigin::kImported) continue;
    plan.not_here = "run " + std::to_string(id) + " was imported from " + row->source_path +
                    ": Parity's engine has neither its data nor its model; align each cause below "
                    "in your own training, then import that run and compare";
    break;
  }
  if (!plan.not_here.empty()) {
    // What to train elsewhere is each cause as the verdict said it (with what would align it).
    plan.counterfactuals.clear();
    for (const analysis::Reason& reason : plan.original.reasons) {
      analysis::Counterfactual cf;
      cf.cause = reason.key;
      cf.why_not = reason.text;
      plan.counterfactuals.push_back(std::move(cf));
    }
  }
  return plan;
}

std::vector<int64_t> record_counterfactual(storage::Database& db,
                                           const analysis::Counterfactual& cf, int64_t run,
                                           int64_t reference) {
  std::vector<std::pair<config::RunConfig, std::string>> rows;  // config, label suffix
  if (cf.config) rows.emplace_back(*cf.config, "");
  for (const config::RunConfig& seed : cf.seeds)
    rows.emplace_back(seed, " seed " + std::to_string(seed.seed));
  std::vector<int64_t> ids;
  for (auto& [config, suffix] : rows) {
    config.label = "cf #" + std::to_string(run) + " " + cf.cause + suffix;
    const int64_t id = db.create_run(config.label, config::to_json(config));
    db.set_notes(id, "counterfactual of run " + std::to_string(run) + " (reference " +
                         std::to_string(reference) + "), cause " + cf.cause + ": " + cf.change);
    db.set_counterfactual_of(id, run, reference, cf.cause);
    ids.push_back(id);
  }
  return ids;
}

namespace {

// The runs of a band (one noise cause's, or the remedy's) judged together once every one has
// finished: `judged` (the run, or the remedy) against the band they make with the reference.
std::optional<analysis::ProofResult> seed_band_result(const storage::Database& db,
                                                      int64_t reference, int64_t judged,
                                                      const std::vector<storage::RunRow>& seeds) {
  std::vector<int64_t> ids;
  for (const storage::RunRow& row : seeds) {
    if (row.status != storage::RunStatus::kFinished) return std::nullopt;
    ids.push_back(row.id);
  }
  ids.push_back(judged);
  analysis::CompareOptions with_band = proof_options();
  with_band.use_seed_groups = true;
  const analysis::Comparison c = compare_stored(db, reference, ids, with_band);
  return analysis::judge_seed_band(c);
}

// A member of a band: the reference's setup under another seed.
bool band_member(const storage::RunRow& row, const config::RunConfig& reference) {
  config::RunConfig c;
  try {
    c = config::from_json(row.config_json);
  } catch (const std::exception&) {
    return false;
  }
  if (c.seed == reference.seed) return false;
  c.seed = reference.seed;
  c.data_seed = reference.data_seed;
  c.label = reference.label;
  return config::to_json(c) == config::to_json(reference);
}

}  // namespace

std::vector<StoredProof> stored_proofs(const storage::Database& db, int64_t reference, int64_t run,
                                       const std::optional<analysis::RunComparison>& original) {
  std::vector<StoredProof> out;
  std::optional<analysis::RunComparison> before = original;
  std::vector<storage::RunRow> rows;
  for (storage::RunRow& row : db.counterfactuals_of(run)) {
    if (row.explains_reference == reference) rows.push_back(std::move(row));
  }
  if (rows.empty()) return out;
  const config::RunConfig ref_config = load_compare_run(db, reference).config;
  for (const storage::RunRow& row : rows) {
    StoredProof p;
    p.counterfactual = row.id;
    p.cause = row.explains_cause;
    p.status = row.status;
    // The cause's rows: the reference under other seeds (a band) and the counterfactual itself.
    std::vector<storage::RunRow> band;
    std::optional<storage::RunRow> judged;
    for (const storage::RunRow& r : rows) {
      if (r.explains_cause != row.explains_cause) continue;
      if (band_member(r, ref_config)) {
        band.push_back(r);
      } else if (!judged) {
        judged = r;
      }
    }
    if (!band.empty()) {
      // Noise no change removes: the run itself, or the remedy, against the band.
      const bool ready = !judged || judged->status == storage::RunStatus::kFinished;
      if (ready) p.result = seed_band_result(db, reference, judged ? judged->id : run, band);
      if (row.status != storage::RunStatus::kFinished) p.error = row.error;
    } else if (row.status == storage::RunStatus::kFinished) {
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
