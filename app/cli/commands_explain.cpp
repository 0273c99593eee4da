// `explain`: the verdict's diagnosis proved by running the counterfactual. For each cause the
// verdict names, the run's config is aligned with the reference's on that cause alone, trained
// as an ordinary recorded run (labelled and noted as the counterfactual of the run it explains),
// and judged against the reference again.
#include <parity/analysis/counterfactual.h>
#include <parity/config/setup_text.h>
#include <parity/stored_runs/compare_runs.h>
#include <parity/stored_runs/proofs.h>

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

std::string id_list(const std::vector<int64_t>& ids) {
  std::string s;
  for (int64_t id : ids) s += (s.empty() ? "" : ", ") + std::to_string(id);
  return s;
}

int explain_command(const ExplainArgs& a) {
  storage::Database db = open_existing_db(db_or_default(a.db));
  const int64_t reference = parse_id(a.reference, "--reference");
  const int64_t run = parse_id(a.run, "RUN");
  const stored_runs::ProofPlan plan = stored_runs::plan_proof(db, reference, run);
  const analysis::RunComparison& row = plan.original;
  std::cout << "run " << run << " (" << row.label << ") vs reference " << reference << " ("
            << plan.reference_label << "): " << analysis::to_string(row.verdict) << " — "
            << row.summary << "\n";
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
  if (!a.dry_run) {
    options.launch.worker_path = resolve_worker(a.worker);
    options.launch.hang_timeout_s = a.hang_timeout_s;
    options.launch.stop = stop.flag();
  }
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
    if (cf.cause.rfind("all but ", 0) == 0) every_cause_aligned = false;
    std::cout << cf.change;
    if (a.dry_run) {
      std::cout << " (not run: --dry-run)\n";
      continue;
    }
    std::cout << std::endl;  // the run's own line (stderr) follows, then the proof
    std::vector<int64_t> ids = run_counterfactual(db, cf, run, reference, options);
    analysis::ProofResult proof;
    if (cf.config) {
      const analysis::Comparison after =
          compare_in_db(db, reference, ids, stored_runs::proof_options());
      proof = analysis::judge_counterfactual(row, after.rows[1]);
      last = proof;
    } else {
      // A noise cause: the run against the band of the reference and its extra seeds.
      analysis::CompareOptions with_band = stored_runs::proof_options();
      with_band.use_seed_groups = true;
      std::vector<int64_t> band = ids;
      band.push_back(run);
      proof = analysis::judge_seed_band(compare_in_db(db, reference, band, with_band).rows.back());
    }
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

}  // namespace

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
  add_db_option(*sub, &a->db);
  sub->add_option("--reference", a->reference, "the reference run")->required();
  sub->add_option("RUN", a->run, "the run to explain")->required();
  sub->add_option("--worker", a->worker, "the rank executable (default: beside this one)");
  sub->add_option("--hang-timeout,--hang_timeout", a->hang_timeout_s,
                  "seconds a rank may stay silent before a counterfactual run is failed")
      ->capture_default_str()
      ->check(CLI::PositiveNumber);
  sub->add_flag("--dry-run,--dry_run", a->dry_run, "list the counterfactuals without training");
  sub->callback([a, exit_code] { *exit_code = explain_command(*a); });
}

}  // namespace parity::cli
