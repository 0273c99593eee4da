// `list`, `show` and `export`: reading the store.
#include <parity/config/run_config.h>
#include <parity/storage/csv.h>

#include <ctime>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>

#include "cli_common.h"
#include "commands.h"
#include "compare_loader.h"
#include "run_facts_text.h"
#include "table.h"

namespace parity::cli {

CLI::Option* add_db_option(CLI::App& sub, std::string* db_path) {
  return sub.add_option("--db", *db_path,
                        "SQLite file (default: " + std::string("$XDG_DATA_HOME/parity/parity.db)"));
}

std::string db_or_default(const std::string& db_path) {
  return db_path.empty() ? default_db_path() : db_path;
}

storage::Database open_existing_db(const std::string& path) {
  if (!std::filesystem::exists(path)) throw UsageError("no database at " + path);
  return storage::Database(path);
}

storage::Database open_for_viewing(const std::string& path) {
  if (!std::filesystem::exists(path)) throw UsageError("no database at " + path);
  if (storage::viewing_mode(path) == storage::OpenMode::kReadOnly) {
    std::cerr << "parity-cli: " << path
              << " cannot be written here; opened read-only (viewing only, nothing is changed)\n";
    storage::Database db(path, storage::OpenMode::kReadOnly);
    if (db.may_miss_recent_writes()) {
      std::cerr << "parity-cli: runs written since its last checkpoint may be missing: its -wal "
                   "cannot be shared by this user (its -shm is not readable here)\n";
    }
    return db;
  }
  storage::Database db(path);
  try {
    for (int64_t id : db.reconcile_orphaned_runs())
      std::cerr << "parity-cli: run " << id << " was left active by a launcher that is gone; "
                << "marked failed\n";
  } catch (const storage::StorageError& e) {
    // A busy database: show what is stored; the next look reconciles.
    if (!e.is_busy()) throw;
  }
  return db;
}

namespace {

std::string fmt_time(double unix_s) {
  if (unix_s <= 0) return "";
  std::time_t t = static_cast<std::time_t>(unix_s);
  std::tm tm{};
  ::localtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%d %H:%M:%S", &tm);
  return buf;
}

std::string fmt_percent(const std::optional<double>& v) { return v ? fmt(100 * *v, 4) + "%" : ""; }

int list_command(const std::string& db_arg) {
  storage::Database db = open_for_viewing(db_or_default(db_arg));
  Table table({"run", "label", "status", "steps", "final loss", "eval loss", "accuracy",
               "samples/s", "created"});
  for (const auto& r : db.list_runs()) {
    std::string status(storage::to_string(r.status));
    // A submitted run, while its job is queued or running: Slurm's word on it.
    if (!r.job_id.empty() && storage::is_active(r.status))
      status += ", job " + r.job_id + (r.job_state.empty() ? "" : " " + r.job_state);
    table.add({std::to_string(r.id), r.label, status,
               std::to_string(r.steps_done) + "/" + std::to_string(r.total_steps),
               fmt(r.final_loss), fmt(r.final_eval_loss), fmt_percent(r.final_accuracy),
               r.samples_per_s > 0 ? fmt(r.samples_per_s, 5) : "", fmt_time(r.created_at)});
  }
  if (table.empty())
    std::cout << "no runs in " << db.path() << "\n";
  else
    table.print(std::cout);
  return kExitOk;
}

int show_command(const std::string& db_arg, const std::string& run_arg) {
  storage::Database db = open_for_viewing(db_or_default(db_arg));
  const int64_t id = parse_id(run_arg, "RUN");
  auto r = db.get_run(id);
  if (!r) throw UsageError("no run " + std::to_string(id) + " in " + db.path());
  std::cout << "run " << r->id << "  " << terminal_safe(r->label) << "  "
            << storage::to_string(r->status) << "\n";
  std::cout << "created " << fmt_time(r->created_at);
  if (r->started_at > 0) std::cout << ", started " << fmt_time(r->started_at);
  if (r->finished_at > 0) std::cout << ", ended " << fmt_time(r->finished_at);
  if (r->started_at > 0 && r->finished_at > 0)
    std::cout << " (" << fmt_duration(r->finished_at - r->started_at) << ")";
  std::cout << "\nsteps " << r->steps_done << "/" << r->total_steps;
  if (r->samples_per_s > 0) std::cout << ", " << fmt(r->samples_per_s, 5) << " samples/s";
  std::cout << "\n";
  // Runs recorded before schema 8 have no version: nothing is said rather than a guess.
  if (!r->parity_version.empty())
    std::cout << "recorded by Parity " << terminal_safe(r->parity_version) << "\n";
  if (r->final_loss) std::cout << "final loss " << fmt(r->final_loss, 6);
  if (r->final_eval_loss) std::cout << ", eval loss " << fmt(r->final_eval_loss, 6);
  if (r->final_accuracy) std::cout << ", accuracy " << fmt_percent(r->final_accuracy);
  if (r->final_loss || r->final_eval_loss) std::cout << "\n";
  if (!r->job_id.empty()) {
    std::cout << "Slurm job " << r->job_id << ": " << terminal_safe(r->job_state) << "; its folder "
              << terminal_safe(r->job_folder);
    if (storage::is_active(r->status))
      std::cout << " (parity-cli follow " << r->id << " reads it in, parity-cli stop " << r->id
                << " cancels it)";
    std::cout << "\n";
  }
  if (!r->error.empty()) std::cout << "error: " << terminal_safe(r->error) << "\n";
  if (!r->notes.empty()) std::cout << "notes: " << terminal_safe(r->notes) << "\n";
  print_stored_facts(std::cout, *r);
  std::cout << "config:\n" << terminal_safe(r->config_json, Breaks::kKeep) << "\n";
  const auto evals = db.evals(id);
  if (!evals.empty()) {
    std::cout << "evaluations:\n";
    Table table({"epoch", "step", "samples", "loss", "accuracy"});
    for (const auto& e : evals)
      table.add({std::to_string(e.epoch), std::to_string(e.step), std::to_string(e.samples),
                 fmt(e.loss, 6), fmt_percent(e.accuracy)});
    table.print(std::cout);
  }
  return kExitOk;
}

struct ExportArgs {
  std::string db, out, runs, reference;
  bool runs_table = false, report = false, no_ranks = false;
};

int export_command(const ExportArgs& a) {
  if (a.report && a.reference.empty()) throw UsageError("--report needs --reference RUN");
  if (a.report && a.runs_table) throw UsageError("--report and --runs-table are separate exports");
  storage::Database db = open_for_viewing(db_or_default(a.db));
  std::vector<int64_t> ids = parse_id_list(a.runs, "--runs");
  for (int64_t id : ids)
    if (!db.get_run(id))
      throw UsageError("--runs: no run " + std::to_string(id) + " in " + db.path());

  std::ofstream file;
  if (a.out != "-") {
    file.open(a.out, std::ios::binary | std::ios::trunc);
    if (!file) throw UsageError("cannot write " + a.out);
  }
  std::ostream& out = a.out == "-" ? std::cout : file;
  std::string what;
  if (a.report) {
    const int64_t reference = parse_id(a.reference, "--reference");
    write_report_csv(db, reference, ids, out);
    what = "verdict report vs run " + std::to_string(reference);
  } else if (a.runs_table) {
    storage::write_runs_csv(db, ids, out);
    what = "runs table";
  } else {
    storage::write_curves_csv(db, ids, out, !a.no_ranks);
    what = "curves";
  }
  out.flush();
  if (!out) throw std::runtime_error("writing " + a.out + " failed");
  if (a.out != "-") std::cerr << "wrote " << what << " to " << a.out << "\n";
  return kExitOk;
}

}  // namespace

void add_list_command(CLI::App& app, int* exit_code) {
  auto db = std::make_shared<std::string>();
  CLI::App* sub = app.add_subcommand("list", "list the runs of a database");
  add_db_option(*sub, db.get());
  sub->callback([db, exit_code] { *exit_code = list_command(*db); });
}

void add_show_command(CLI::App& app, int* exit_code) {
  auto db = std::make_shared<std::string>();
  auto run = std::make_shared<std::string>();
  CLI::App* sub = app.add_subcommand("show", "show one run: config, status, finals, evaluations");
  sub->add_option("RUN", *run, "run id")->required();
  add_db_option(*sub, db.get());
  sub->callback([db, run, exit_code] { *exit_code = show_command(*db, *run); });
}

void add_export_command(CLI::App& app, int* exit_code) {
  auto a = std::make_shared<ExportArgs>();
  CLI::App* sub =
      app.add_subcommand("export", "write curves, the runs table or a verdict report as CSV");
  sub->footer(
      "Default: curves in long format (run_id,label,step,epoch,samples,rank,loss,lr,time_s; "
      "rank -1 = global mean).");
  add_db_option(*sub, &a->db);
  sub->add_option("--out,-o", a->out, "CSV file to write (- = stdout)")->required();
  sub->add_option("--runs", a->runs, "run ids, e.g. 1,2,5 (default: every run)");
  sub->add_flag("--runs-table,--runs_table", a->runs_table,
                "the runs table (configs, finals) instead of curves");
  sub->add_flag("--report", a->report,
                "the verdict report vs --reference (metrics, differing config keys, reasons)");
  sub->add_option("--reference", a->reference, "reference run for --report");
  sub->add_flag("--no-ranks,--no_ranks", a->no_ranks, "curves: global rows only");
  sub->callback([a, exit_code] { *exit_code = export_command(*a); });
}

}  // namespace parity::cli
