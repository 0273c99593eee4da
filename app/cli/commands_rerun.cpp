// `rerun`: the determinism check. Runs a finished run's setup again (same config, same seed) and
// reports "bitwise identical" or the first step where the loss differs, and by how much.
#include <parity/analysis/verdict.h>
#include <parity/config/run_config.h>
#include <parity/stored_runs/compare_runs.h>

#include <iostream>
#include <memory>

#include "cli_common.h"
#include "commands.h"
#include "compare_loader.h"
#include "run_runner.h"

namespace parity::cli {
namespace {

struct RerunArgs {
  std::string db, run, worker;
  bool quiet = false;
};

int rerun_command(const RerunArgs& a) {
  storage::Database db = open_existing_db(db_or_default(a.db));
  const int64_t original = parse_id(a.run, "RUN");
  const auto row = db.get_run(original);
  if (!row) throw UsageError("RUN: no run " + std::to_string(original) + " in " + db.path());
  if (row->status != storage::RunStatus::kFinished &&
      row->status != storage::RunStatus::kDiverged) {
    throw UsageError("RUN: run " + std::to_string(original) + " is " +
                     std::string(storage::to_string(row->status)) +
                     "; only a run that ended (finished or diverged) can be checked");
  }
  const config::RunConfig config = config::from_json(row->config_json);
  config::validate(config);
  require_hostable(config, 1);
  const int64_t again =
      db.create_run(row->label + " (rerun of " + std::to_string(original) + ")", row->config_json);
  SignalStop stop;
  RunnerOptions options;
  options.launch.worker_path = resolve_worker(a.worker);
  options.launch.stop = stop.flag();
  options.quiet = a.quiet;
  const RunReport report = run_recorded(db, again, config, options);
  if (report.outcome != launch::RunOutcome::kFinished &&
      report.outcome != launch::RunOutcome::kDiverged) {
    std::cout << "rerun " << again << " did not end normally: " << report.message << "\n";
    return 1;
  }
  const auto a_run = stored_runs::load_compare_run(db, original);
  const auto b_run = stored_runs::load_compare_run(db, again);
  const analysis::DeterminismResult result = analysis::first_difference(a_run.points, b_run.points);
  std::cout << "run " << original << " vs its rerun " << again << ": " << result.summary << "\n";
  return result.identical ? 0 : 1;
}

}  // namespace

void add_rerun_command(CLI::App& app, int* exit_code) {
  auto a = std::make_shared<RerunArgs>();
  auto* sub = app.add_subcommand(
      "rerun", "determinism check: run a finished run's setup again and compare bit for bit");
  sub->add_option("RUN", a->run, "the run to repeat")->required();
  add_db_option(*sub, &a->db);
  sub->add_option("--worker", a->worker,
                  "the rank executable (default: parity-worker beside this one)");
  sub->add_flag("--quiet,-q", a->quiet, "no progress line");
  sub->footer(
      "Exit status 0 when every recorded loss is bit-identical, 1 when one differs (the first "
      "differing step and the size of the difference are printed).");
  sub->callback([a, exit_code] { *exit_code = rerun_command(*a); });
}

}  // namespace parity::cli
