// `follow`, `stop` and `job-step`: a run submitted to Slurm as a batch job (run --launcher slurm
// --submit), read into the database, cancelled, and supervised inside its allocation.
#include <parity/launch/launch_error.h>
#include <parity/launch/run_folders.h>
#include <parity/launch/slurm_job.h>
#include <unistd.h>

#include <iostream>
#include <memory>

#include "cli_common.h"
#include "commands.h"
#include "job_follower.h"
#include "job_submit.h"
#include "run_runner.h"

namespace parity::cli {
namespace {

struct FollowArgs {
  std::string db, run;
  bool quiet = false;
  double busy_wait_s = 120;
};

int report_exit(const FollowReport& r, int64_t run_id) {
  if (!r.ended) return kExitFailed;
  std::cout << "run " << run_id << " " << storage::to_string(status_of(r.outcome))
            << (r.message.empty() ? "" : ": " + r.message) << "\n";
  return r.outcome == launch::RunOutcome::kFinished ? kExitOk : kExitFailed;
}

int follow_command(const FollowArgs& a) {
  const int64_t run_id = parse_id(a.run, "RUN");
  storage::Database db = open_existing_db(db_or_default(a.db));
  SignalStop stop;
  FollowOptions o;
  o.busy_wait_s = a.busy_wait_s;
  o.quiet = a.quiet;
  o.stop = stop.flag();
  return report_exit(follow_job(db, run_id, o), run_id);
}

int stop_command(const FollowArgs& a) {
  const int64_t run_id = parse_id(a.run, "RUN");
  storage::Database db = open_existing_db(db_or_default(a.db));
  const auto row = db.get_run(run_id);
  if (!row) throw UsageError("no run " + std::to_string(run_id) + " in " + db.path());
  if (row->job_id.empty())
    throw UsageError("run " + std::to_string(run_id) +
                     " is not a Slurm job (run --launcher slurm --submit); a run parity-cli "
                     "supervises itself stops with Ctrl+C or SIGTERM to it");
  if (!storage::is_active(row->status)) {
    std::cerr << "run " << run_id << " has already ended: " << storage::to_string(row->status)
              << "\n";
    return kExitOk;
  }
  // Said before scancel, so that a follower finding the job gone records it stopped.
  const std::string request = row->job_folder + "/" + kCancelRequestFile;
  try {
    launch::write_private_file(request,
                               "parity-cli stop (pid " + std::to_string(::getpid()) + ")\n");
    db.set_job_state(run_id, kJobCancelRequested);
    launch::cancel_job(row->job_id);
  } catch (const launch::LaunchError& e) {
    ::unlink(request.c_str());
    db.set_job_state(run_id, row->job_state);
    throw UsageError(e.what());
  }
  std::cerr << "cancelled Slurm job " << row->job_id << "; reading run " << run_id
            << " to its end\n";
  SignalStop stop;
  FollowOptions o;
  o.busy_wait_s = a.busy_wait_s;
  o.quiet = true;
  o.stop = stop.flag();
  const FollowReport r = follow_job(db, run_id, o);
  report_exit(r, run_id);
  return r.ended ? kExitOk : kExitFailed;
}

struct JobStepArgs {
  std::string folder, worker;
  int64_t run_id = 0;
  double hang_timeout_s = 120;
};

}  // namespace

void add_follow_command(CLI::App& app, int* exit_code) {
  auto a = std::make_shared<FollowArgs>();
  CLI::App* sub = app.add_subcommand(
      "follow",
      "read a run submitted to Slurm (run --launcher slurm --submit) into the database "
      "as its job writes it, to its end");
  sub->footer(
      "The job's steps file is read from the last step stored, so following again (after a "
      "kill, or after the job ended) loses and doubles nothing. While the job waits, its state "
      "is Slurm's (PENDING with its reason).\nCtrl+C stops following; the job goes on. Exit code: "
      "0 for a finished run, 1 otherwise.");
  sub->add_option("RUN", a->run, "run id")->required();
  add_db_option(*sub, &a->db);
  sub->add_flag("--quiet,-q", a->quiet, "no progress line");
  sub->add_option("--db-busy-wait,--db_busy_wait", a->busy_wait_s,
                  "seconds a locked database is waited out")
      ->capture_default_str()
      ->check(zero_or_more());
  sub->callback([a, exit_code] { *exit_code = follow_command(*a); });
}

void add_stop_command(CLI::App& app, int* exit_code) {
  auto a = std::make_shared<FollowArgs>();
  CLI::App* sub = app.add_subcommand(
      "stop", "cancel a run submitted to Slurm (scancel its job) and record it stopped");
  sub->add_option("RUN", a->run, "run id")->required();
  add_db_option(*sub, &a->db);
  sub->callback([a, exit_code] { *exit_code = stop_command(*a); });
}

void add_job_step_command(CLI::App& app, int* exit_code) {
  auto a = std::make_shared<JobStepArgs>();
  CLI::App* sub =
      app.add_subcommand("job-step",
                         "(run by a submitted run's job script) supervise the run inside its Slurm "
                         "allocation, appending its steps to FOLDER/steps");
  sub->group("");  // not a verb for people: the job script's
  sub->add_option("FOLDER", a->folder, "the run's folder")->required();
  sub->add_option("--run-id", a->run_id, "the run's id")->required();
  sub->add_option("--worker", a->worker, "the rank executable");
  sub->add_option("--hang-timeout", a->hang_timeout_s)->check(above_zero());
  sub->callback([a, exit_code] {
    SignalStop stop;
    JobStepOptions o;
    o.folder = a->folder;
    o.run_id = a->run_id;
    o.worker_path = a->worker;
    o.hang_timeout_s = a->hang_timeout_s;
    o.stop = stop.flag();
    *exit_code = run_job_step(o);
  });
}

}  // namespace parity::cli
