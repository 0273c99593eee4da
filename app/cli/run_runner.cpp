#include "run_runner.h"

#include <parity/config/batch_plan.h>
#include <signal.h>

#include <cstdio>
#include <filesystem>
#include <iostream>

#include "cli_common.h"
#include "db_sink.h"
#include "progress_line.h"
#include "table.h"

namespace parity::cli {
namespace {

std::atomic<bool> g_stop{false};
struct sigaction g_old_int, g_old_term;

extern "C" void on_stop_signal(int) { g_stop.store(true); }

}  // namespace

SignalStop::SignalStop() {
  g_stop.store(false);
  struct sigaction sa {};
  sa.sa_handler = on_stop_signal;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = SA_RESETHAND;  // a second Ctrl-C ends the CLI (the ranks die with it)
  ::sigaction(SIGINT, &sa, &g_old_int);
  ::sigaction(SIGTERM, &sa, &g_old_term);
}

SignalStop::~SignalStop() {
  ::sigaction(SIGINT, &g_old_int, nullptr);
  ::sigaction(SIGTERM, &g_old_term, nullptr);
}

const std::atomic<bool>* SignalStop::flag() const { return &g_stop; }
bool SignalStop::stopped() const { return g_stop.load(); }

std::string default_log_dir(const std::string& db_path, int64_t run_id) {
  const std::string name = std::filesystem::path(db_path).filename().string();
  return parent_folder(db_path) + "/" + name + ".logs/run-" + std::to_string(run_id);
}

RunReport run_recorded(storage::Database& db, int64_t run_id, const engine::RunConfig& config,
                       const RunnerOptions& options) {
  RunReport report;
  report.run_id = run_id;
  report.config = config;
  const std::string label = config.label.empty() ? engine::default_label(config) : config.label;

  engine::LaunchOptions launch = options.launch;
  launch.log_dir = options.log_dir.empty() ? default_log_dir(db.path(), run_id) : options.log_dir;
  ProgressLine progress(label, ProgressLine::detect(options.quiet));
  DbSink sink(db, run_id, &progress);
  try {
    engine::LaunchResult result = engine::RankSupervisor(config, launch).run(sink);
    report.outcome = result.outcome;
    report.message = result.message;
    report.samples_per_s = result.samples_per_s;
    report.log_dir = result.log_dir;
  } catch (const engine::LaunchError& e) {
    report.outcome = engine::RunOutcome::kFailed;
    report.message = e.what();
  } catch (const engine::ConfigError& e) {
    report.outcome = engine::RunOutcome::kFailed;
    report.message = e.what();
  }
  progress.finish();
  sink.finish(report.outcome, report.message, report.samples_per_s);

  if (auto row = db.get_run(run_id)) {
    report.final_loss = row->final_loss;
    report.final_eval_loss = row->final_eval_loss;
    report.final_accuracy = row->final_accuracy;
  }
  std::string line = "[" + label + "] run " + std::to_string(run_id) + " " +
                     std::string(storage::to_string(status_of(report.outcome)));
  if (report.outcome == engine::RunOutcome::kFinished) {
    line += ": final loss " + fmt(report.final_loss, 5);
    if (report.final_accuracy) line += ", accuracy " + fmt(100 * *report.final_accuracy, 4) + "%";
    line += ", " + fmt(report.samples_per_s, 5) + " samples/s";
  } else {
    line += ": " + report.message;
    if (!report.log_dir.empty()) line += " (rank logs in " + report.log_dir + ")";
  }
  std::fprintf(stderr, "%s\n", line.c_str());
  return report;
}

void print_summary(std::ostream& out, const std::vector<RunReport>& reports) {
  Table table({"run", "label", "status", "global batch", "effective lr", "final loss", "eval loss",
               "accuracy", "samples/s", "message"});
  for (const auto& r : reports) {
    table.add({std::to_string(r.run_id),
               r.config.label.empty() ? engine::default_label(r.config) : r.config.label,
               std::string(storage::to_string(status_of(r.outcome))),
               std::to_string(engine::global_batch_size(r.config)),
               fmt(engine::effective_lr(r.config)), fmt(r.final_loss), fmt(r.final_eval_loss),
               r.final_accuracy ? fmt(100 * *r.final_accuracy, 4) + "%" : "",
               r.samples_per_s > 0 ? fmt(r.samples_per_s, 5) : "",
               r.outcome == engine::RunOutcome::kFinished ? "" : r.message});
  }
  table.print(out);
}

}  // namespace parity::cli
