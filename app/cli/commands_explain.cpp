// `explain`: the verdict's diagnosis proved by running the counterfactual. For each cause the
// verdict names, the run's config is aligned with the reference's on that cause alone, trained
// as an ordinary recorded run (labelled and noted as the counterfactual of the run it explains),
// and judged against the reference again.
#include <parity/analysis/counterfactual.h>
#include <parity/config/setup_text.h>
#include <parity/stored_runs/compare_runs.h>
#include <parity/stored_runs/proofs.h>

#include <atomic>
#include <iostream>
#include <memory>
#include <optional>

#include "cli_common.h"
#include "commands.h"
#include "compare_loader.h"
#include "config_flags.h"
#include "run_runner.h"

namespace parity::cli {
namespace {

struct ExplainArgs {
  std::string db, reference, run, worker;
  double hang_timeout_s = 120;
  bool dry_run = false;
  bool quiet = false;
};

// The counterfactual as recorded runs (labelled "cf #7 padding", or "cf #7 dropout seed 43" for
// each seed of a seed band; noted and linked), trained. Returns their ids.
std::vector<int64_t> run_counterfactual(storage::Database& db, const analysis::Counterfactual& cf,
                                        int64_t run_id, int64_t reference_id,
                                        RunnerOptions options) {
  if (cf.config) require_valid(*cf.config);
  for (const config::RunConfig& seed : cf.seeds) require_valid(seed);
  const std::vector<int64_t> ids = stored_runs::record_counterfactual(db, cf, run_id, reference_id);
  options.quiet = true;
  for (int64_t id : ids) {
    const storage::RunRow row = *db.get_run(id);
    config::RunConfig config = config::from_json(row.config_json);
    config.label = row.label;
    const RunReport report = run_recorded(db, id, config, options);
    if (report.outcome != launch::RunOutcome::kFinished) {
      throw UsageError("counterfactual run " + std::to_string(id) + " (" + cf.cause + ") " +
                       std::string(storage::to_string(status_of(report.outcome))) + ": " +
                       report.message);
    }
  }
  return ids;
}

// A counterfactual's trained runs judged: against the band of the reference's seeds when it has
// seeds (the run itself for a noise cause; the counterfactual, the first id, when it has a
// config too), else against the original's gap.
analysis::ProofResult judge(storage::Database& db, const analysis::Counterfactual& cf,
                            const std::vector<int64_t>& ids, int64_t run, int64_t reference,
                            const analysis::RunComparison& original) {
  if (cf.seeds.empty()) {
    const analysis::Comparison after =
        compare_in_db(db, reference, ids, stored_runs::proof_options());
    return analysis::judge_counterfactual(original, after.rows[1]);
  }
  analysis::CompareOptions with_band = stored_runs::proof_options();
  with_band.use_seed_groups = true;
  std::vector<int64_t> band(ids.begin() + (cf.config ? 1 : 0), ids.end());
  band.push_back(cf.config ? ids.front() : run);
  return analysis::judge_seed_band(compare_in_db(db, reference, band, with_band));
}

RunnerOptions runner_options(const std::string& worker, double hang_timeout_s,
                             const std::atomic<bool>* stop) {
  RunnerOptions options;
  options.launch.worker_path = resolve_worker(worker);
  options.launch.hang_timeout_s = hang_timeout_s;
  options.launch.stop = stop;
  return options;
}

std::string id_list(const std::vector<int64_t>& ids) {
  std::string s;
  for (int64_t id : ids) s += (s.empty() ? "" : ", ") + std::to_string(id);
  return s;
}

// The proof's plan of `run` against `reference`, its verdict said first as `compare` says it.
stored_runs::ProofPlan planned(const storage::Database& db, int64_t reference, int64_t run) {
  stored_runs::ProofPlan plan = stored_runs::plan_proof(db, reference, run);
  const analysis::RunComparison& row = plan.original;
  std::cout << "run " << run << " (" << row.label << ") vs reference " << reference << " ("
            << plan.reference_label << "): " << analysis::to_string(row.verdict) << " — "
            << row.summary << "\n";
  return plan;
}

int explain_command(const ExplainArgs& a) {
  storage::Database db = open_existing_db(db_or_default(a.db));
  const int64_t reference = parse_id(a.reference, "--reference");
  const int64_t run = parse_id(a.run, "RUN");
  const stored_runs::ProofPlan plan = planned(db, reference, run);
  const analysis::RunComparison& row = plan.original;
  if (row.verdict != analysis::Verdict::kDifferent) {
    std::cout << "nothing to prove: the verdict is not 'different'\n";
    return kExitOk;
  }
  const auto& cfs = plan.counterfactuals;
  if (!plan.not_here.empty()) {
    std::cout << "not proved here: " << plan.not_here << "\n";
    for (size_t i = 0; i < cfs.size(); ++i) {
      std::cout << "[" << i + 1 << "/" << cfs.size() << "] " << cfs[i].cause << ": "
                << cfs[i].why_not << "\n";
    }
    return kExitOk;
  }
  SignalStop stop;
  RunnerOptions options;
  if (!a.dry_run) options = runner_options(a.worker, a.hang_timeout_s, stop.flag());
  int proved = 0;
  bool every_cause_aligned = true;  // no cause refused, none left out of the combined proof
  std::optional<analysis::ProofResult> last;
  for (size_t i = 0; i < cfs.size(); ++i) {
    const analysis::Counterfactual& cf = cfs[i];
    std::cout << "[" << i + 1 << "/" << cfs.size() << "] " << cf.cause << ": ";
    if (!cf.config && cf.seeds.empty()) {
      std::cout << "cannot be tested alone — " << cf.why_not << "\n";
      every_cause_aligned = false;
      continue;
    }
    // A cause left out, or noise proved by a band instead of aligned: no bug is inferred.
    if (cf.cause.rfind("all but ", 0) == 0 || !cf.seeds.empty()) every_cause_aligned = false;
    std::cout << cf.change;
    if (a.dry_run) {
      std::cout << " (not run: --dry-run)\n";
      continue;
    }
    std::cout << std::endl;  // the run's own line (stderr) follows, then the proof
    std::vector<int64_t> ids = run_counterfactual(db, cf, run, reference, options);
    const analysis::ProofResult proof = judge(db, cf, ids, run, reference, row);
    if (cf.config) last = proof;
    proved += proof.proof == analysis::Proof::kConfirmed;
    std::cout << "    -> run" << (ids.size() > 1 ? "s " : " ") << id_list(ids) << ": " << proof.text
              << "\n"
              << std::flush;
    if (stop.stopped()) break;
  }
  if (!a.dry_run) {
    std::cout << proved << " of " << cfs.size() << " counterfactuals confirmed\n";
    // A bug is named only when every cause, the summation order included, was aligned by a
    // counterfactual (the last one aligns them all) and the gap stayed.
    if (every_cause_aligned && last && last->proof == analysis::Proof::kNotConfirmed &&
        !stop.stopped()) {
      std::cout << "possible bug: the gap stays with every named cause aligned (" << last->text
                << ")\n";
    }
  }
  return kExitOk;
}

// `fix`: the remedy trained and judged. An imported run's remedy is printed as the values to
// train with elsewhere; a command run's runs the same template with the remedy's values.
int fix_command(const ExplainArgs& a) {
  storage::Database db = open_existing_db(db_or_default(a.db));
  const int64_t reference = parse_id(a.reference, "--reference");
  const int64_t run = parse_id(a.run, "RUN");
  const stored_runs::ProofPlan plan = planned(db, reference, run);
  const analysis::RunComparison& row = plan.original;
  if (row.verdict != analysis::Verdict::kDifferent || !plan.remedy) {
    std::cout << "nothing to fix: the verdict is not 'different'\n";
    return kExitOk;
  }
  const analysis::Remedy& remedy = *plan.remedy;
  if (!remedy.needed()) {
    std::cout << "no setting of this run's shape changes the arithmetic: the gap is "
              << (remedy.noise.empty() ? "the summation order or a bug (`explain` tells them apart)"
                                       : "noise no setting removes (`explain` proves it against "
                                         "the band of the reference's seeds)")
              << "\n";
    return kExitFailed;
  }
  std::cout << "remedy: " << remedy.setup_text() << "\n  changes: " << remedy.changes_text()
            << "\n";
  for (const analysis::Reason& left : remedy.left) std::cout << "  not aligned: " << left.text << "\n";
  for (const analysis::Reason& noise : remedy.noise)
    std::cout << "  judged against the band of the reference's seeds: " << noise.text << "\n";
  if (!plan.not_here.empty()) {
    std::cout << "this run was trained elsewhere: train it again with " << remedy.flags()
              << " (your script's equivalents), import that run and compare\n";
    return kExitOk;
  }
  const analysis::Counterfactual cf = analysis::remedy_counterfactual(remedy, plan.reference_config);
  if (a.dry_run) {
    std::cout << "(not run: --dry-run)\n";
    return kExitOk;
  }
  SignalStop stop;
  const std::vector<int64_t> ids = run_counterfactual(
      db, cf, run, reference, runner_options(a.worker, a.hang_timeout_s, stop.flag()));
  const analysis::ProofResult proof = judge(db, cf, ids, run, reference, row);
  const bool equivalent = proof.proof == analysis::Proof::kConfirmed;
  std::cout << "run " << ids.front() << " (" << db.get_run(ids.front())->label << "): "
            << (equivalent ? "equivalent now" : "not equivalent") << " — " << proof.text << "\n";
  if (!equivalent) {
    const analysis::Comparison after =
        compare_in_db(db, reference, {ids.front()}, stored_runs::proof_options());
    for (const analysis::Reason& r : after.rows.at(1).reasons) std::cout << "  " << r.text << "\n";
  }
  return equivalent ? kExitOk : kExitFailed;
}

void add_prove_options(CLI::App& sub, ExplainArgs& a) {
  add_db_option(sub, &a.db);
  sub.add_option("--reference", a.reference, "the reference run")->required();
  sub.add_option("RUN", a.run, "the run to explain")->required();
  sub.add_option("--worker", a.worker, "the rank executable (default: beside this one)");
  sub.add_option("--hang-timeout,--hang_timeout", a.hang_timeout_s,
                 "seconds a rank may stay silent before a counterfactual run is failed")
      ->capture_default_str()
      ->check(CLI::PositiveNumber);
}

}  // namespace

void add_fix_command(CLI::App& app, int* exit_code) {
  auto a = std::make_shared<ExplainArgs>();
  CLI::App* sub = app.add_subcommand(
      "fix",
      "train the remedy: the whole setup of the run's shape with the reference's arithmetic, "
      "then judge it against the reference ('equivalent now' or why not)");
  sub->footer(
      "The remedy keeps the run's processes and sets the per-device batch and accumulation "
      "(the reference's global batch), the lr after scaling, the sampler, precision, sync batch "
      "norm, even_batches and the schedule's length to give the reference's arithmetic. It is "
      "recorded as 'cf #RUN all'. A command run runs its own template with the remedy's values; "
      "an imported run gets the values to train with elsewhere. Exit 0 when equivalent now.");
  add_prove_options(*sub, *a);
  sub->add_flag("--dry-run,--dry_run", a->dry_run, "print the remedy without training it");
  sub->callback([a, exit_code] { *exit_code = fix_command(*a); });
}

void add_explain_command(CLI::App& app, int* exit_code) {
  auto a = std::make_shared<ExplainArgs>();
  CLI::App* sub = app.add_subcommand(
      "explain",
      "prove the verdict's diagnosis: train, for each cause, the run aligned with the reference "
      "on that cause alone, and judge it again");
  sub->footer(
      "Each counterfactual is an ordinary run in the database, labelled 'cf #RUN CAUSE' and "
      "noted with what it changed. 'confirmed': aligning the cause makes the run equivalent; "
      "'partly': the gap shrinks by the stated factor; 'not confirmed': it does not.");
  add_prove_options(*sub, *a);
  sub->add_flag("--dry-run,--dry_run", a->dry_run, "list the counterfactuals without training");
  sub->callback([a, exit_code] { *exit_code = explain_command(*a); });
}

}  // namespace parity::cli
