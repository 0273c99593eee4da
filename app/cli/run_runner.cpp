#include "run_runner.h"

#include <parity/config/batch_plan.h>
#include <parity/config/memory_estimate.h>
#include <parity/launch/rank_capacity.h>
#include <parity/launch/run_folders.h>
#include <parity/storage/supervisor.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <iostream>
#include <thread>

#include "cli_common.h"
#include "command_runner.h"
#include "db_sink.h"
#include "progress_line.h"
#include "setup_runner.h"
#include "table.h"

namespace parity::cli {
namespace {

std::atomic<bool> g_stop{false};
struct sigaction g_old_int, g_old_term, g_old_hup;

// The first of SIGINT, SIGTERM or SIGHUP asks for a clean stop; any second one ends the CLI at
// once (the ranks die with it): the handler gives all three back to the default, as
// SA_RESETHAND alone does only for the signal that came. sigaction is async-signal-safe.
extern "C" void on_stop_signal(int) {
  g_stop.store(true);
  struct sigaction dfl {};
  dfl.sa_handler = SIG_DFL;
  sigemptyset(&dfl.sa_mask);
  for (int sig : {SIGINT, SIGTERM, SIGHUP}) ::sigaction(sig, &dfl, nullptr);
}

}  // namespace

SignalStop::SignalStop() {
  g_stop.store(false);
  struct sigaction sa {};
  sa.sa_handler = on_stop_signal;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = 0;  // the handler resets all three: a second signal ends the CLI
  ::sigaction(SIGINT, &sa, &g_old_int);
  ::sigaction(SIGTERM, &sa, &g_old_term);
  ::sigaction(SIGHUP, &sa, &g_old_hup);
}

SignalStop::~SignalStop() {
  ::sigaction(SIGINT, &g_old_int, nullptr);
  ::sigaction(SIGTERM, &g_old_term, nullptr);
  ::sigaction(SIGHUP, &g_old_hup, nullptr);
}

const std::atomic<bool>* SignalStop::flag() const { return &g_stop; }
bool SignalStop::stopped() const { return g_stop.load(); }

namespace {

// Private run folders of launchers that are gone (killed: no destructor ran). Only this host's:
// a folder of another host's launcher (a shared TMPDIR) cannot be judged from here.
void remove_stale_run_folders() {
  const storage::SupervisorIdentity self = storage::SupervisorIdentity::current();
  launch::remove_stale_run_folders(launch::run_folder_parent(), [&](const std::string& text) {
    const auto who = storage::SupervisorIdentity::parse(text);
    if (who.pid == 0) return false;  // not a line this build writes: leave it
    if (who.host != self.host) return false;
    return storage::supervisor_gone(who, 0, 0);
  });
}

// <database file name>.logs beside the database: one folder of run logs per database.
std::string logs_folder(const std::string& db_path) {
  const std::string name = std::filesystem::path(db_path).filename().string();
  return parent_folder(db_path) + "/" + name + ".logs";
}

// It holds every run's logs: private, even when an older Parity created it 0755.
void make_logs_folder_private(const std::string& db_path) {
  const std::string logs = logs_folder(db_path);
  launch::make_private_folder(logs);
  struct stat st {};
  if (::lstat(logs.c_str(), &st) == 0 && S_ISDIR(st.st_mode) && st.st_uid == ::geteuid())
    ::chmod(logs.c_str(), 0700);
}

}  // namespace

void require_hostable(const config::RunConfig& config, int machines) {
  // The user's command runs its own processes.
  if (launch::choose_launcher(config) == launch::Launcher::kCommand) return;
  if (machines > 1 && config.num_processes % machines != 0)
    throw UsageError("--num-processes " + std::to_string(config.num_processes) +
                     " is the total over the machines and must divide by --num-machines " +
                     std::to_string(machines));
  const int here = config.num_processes / std::max(machines, 1);
  const launch::RankCapacity cap = launch::rank_capacity();
  if (here > cap.max_ranks) {
    throw UsageError("--num-processes " + std::to_string(config.num_processes) +
                     ": this machine can host at most " + std::to_string(cap.max_ranks) +
                     " ranks in a run, limited by " + cap.reason);
  }
  require_fits(config, here);
}

void require_fits(const config::RunConfig& config, int ranks_here) {
  // Threads: a few per core can still be a choice (another machine's summation order); beyond
  // that each only slows the others, and a million never let the run start.
  const int cores = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  if (config.threads_per_rank > 4 * cores) {
    throw UsageError("--threads-per-rank " + std::to_string(config.threads_per_rank) +
                     ": at most " + std::to_string(4 * cores) + " here (4 x this machine's " +
                     std::to_string(cores) + " cores)");
  }
  const long pages = ::sysconf(_SC_PHYS_PAGES), page = ::sysconf(_SC_PAGE_SIZE);
  const auto need = config::estimate_rank_memory(config);
  if (!need || pages <= 0 || page <= 0) return;
  const double have = static_cast<double>(pages) * static_cast<double>(page);
  if (need->total() * ranks_here <= have) return;
  const auto gib = [](double bytes) { return fmt(bytes / (1024.0 * 1024 * 1024), 3) + " GiB"; };
  const std::string fits = "; this machine has " + gib(have) + " for " +
                           std::to_string(ranks_here) + (ranks_here == 1 ? " rank" : " ranks");
  // The model alone past the machine: its size is the setting to change; else the batch.
  if (need->parameter_bytes * ranks_here > have) {
    throw UsageError(std::string(config.model == config::ModelKind::kMlp
                                     ? "--hidden " + config::field_text(config, "hidden")
                                     : "--model " + config::to_string(config.model)) +
                     ": the model needs about " + gib(need->parameter_bytes) +
                     " a rank (weights, gradients, buckets, optimizer state)" + fits);
  }
  throw UsageError("--per-device-batch-size " + std::to_string(config.per_device_batch_size) +
                   ": one micro-batch needs about " + gib(need->activation_bytes) +
                   " a rank besides the model's " + gib(need->parameter_bytes) + fits);
}

std::string default_log_dir(const std::string& db_path, int64_t run_id) {
  return logs_folder(db_path) + "/run-" + std::to_string(run_id);
}

RunReport run_recorded(storage::Database& db, int64_t run_id, const config::RunConfig& config,
                       const RunnerOptions& options) {
  RunReport report;
  report.run_id = run_id;
  report.config = config;
  const std::string label = config.label.empty() ? config::default_label(config) : config.label;

  remove_stale_run_folders();
  launch::LaunchOptions launch = options.launch;
  launch.launcher = launch::choose_launcher(config, options.launch.launcher);
  launch.run_folder_owner = storage::SupervisorIdentity::current().to_text();
  launch.log_dir = options.log_dir.empty() ? default_log_dir(db.path(), run_id) : options.log_dir;
  ProgressLine progress(label, ProgressLine::detect(options.quiet));
  DbSink sink(db, run_id, &progress, options.busy_wait_s);
  try {
    if (options.log_dir.empty()) make_logs_folder_private(db.path());
    CommandRunOptions command;
    command.hang_timeout_s = launch.hang_timeout_s;
    command.stop = launch.stop;
    command.on_command = [&](const std::string& text) {
      mark_command_run(db, run_id, config, text);
    };
    const SetupResult result = run_setup(run_id, config, launch, command, sink);
    note_mismatch(db, run_id, result.mismatch);
    report.outcome = result.outcome;
    report.message = result.message;
    report.samples_per_s = result.samples_per_s;
    report.log_dir = result.log_dir;
  } catch (const launch::LaunchError& e) {
    report.outcome = launch::RunOutcome::kFailed;
    report.message = e.what();
  } catch (const config::ConfigError& e) {
    report.outcome = launch::RunOutcome::kFailed;
    report.message = e.what();
  }
  progress.finish();
  const DbSink::Ending ending = sink.finish(report.outcome, report.message, report.samples_per_s);
  report.outcome = ending.outcome;
  report.message = ending.message;

  if (auto row = db.get_run(run_id)) {
    report.final_loss = row->final_loss;
    report.final_eval_loss = row->final_eval_loss;
    report.final_accuracy = row->final_accuracy;
  }
  std::string line = "[" + label + "] run " + std::to_string(run_id) + " " +
                     std::string(storage::to_string(status_of(report.outcome)));
  if (report.outcome == launch::RunOutcome::kFinished) {
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
               r.config.label.empty() ? config::default_label(r.config) : r.config.label,
               std::string(storage::to_string(status_of(r.outcome))),
               std::to_string(config::global_batch_size(r.config)),
               fmt(config::effective_lr(r.config)), fmt(r.final_loss), fmt(r.final_eval_loss),
               r.final_accuracy ? fmt(100 * *r.final_accuracy, 4) + "%" : "",
               r.samples_per_s > 0 ? fmt(r.samples_per_s, 5) : "",
               r.outcome == launch::RunOutcome::kFinished ? "" : r.message});
  }
  table.print(out);
}

}  // namespace parity::cli
