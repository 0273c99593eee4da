#include "job_submit.h"

#include <parity/config/run_facts.h>
#include <parity/launch/launch_error.h>
#include <parity/launch/rank_supervisor.h>
#include <parity/launch/run_folders.h>
#include <parity/launch/slurm_job.h>
#include <parity/launch/steps_file.h>
#include <sys/stat.h>

#include <filesystem>
#include <iostream>

#include "cli_common.h"
#include "command_runner.h"
#include "setup_runner.h"

namespace parity::cli {
namespace {

namespace fs = std::filesystem;

std::string absolute(const std::string& path) { return fs::absolute(path).lexically_normal(); }

std::string this_executable() {
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (ec) throw launch::LaunchError("cannot read /proc/self/exe: " + ec.message());
  return exe.string();
}

}  // namespace

std::string submit_run(storage::Database& db, int64_t run_id, const config::RunConfig& config,
                       const SubmitOptions& o) {
  const std::string folder = absolute(o.folder);
  launch::SbatchOptions sbatch;
  sbatch.sbatch = o.sbatch;
  sbatch.job_name = "parity-run-" + std::to_string(run_id);
  sbatch.ntasks = config.num_processes;
  sbatch.partition = o.partition;
  sbatch.time = o.time;
  sbatch.account = o.account;
  sbatch.gres = o.gres;
  sbatch.output = folder + "/job.out";
  std::vector<std::string> step = {this_executable(),
                                   "job-step",
                                   folder,
                                   "--run-id",
                                   std::to_string(run_id),
                                   "--hang-timeout",
                                   fmt(o.hang_timeout_s, 10)};
  std::string what;
  const launch::Launcher launcher = launch::choose_launcher(config, launch::Launcher::kSlurm);
  if (launcher == launch::Launcher::kSlurm) {
    // Each rank's intra-op threads are its task's cores (the setup's threads per rank).
    sbatch.cpus_per_task = std::max(1, config.threads_per_rank);
    step.push_back("--worker");
    step.push_back(absolute(o.worker_path));
    what = std::to_string(config.num_processes) + " parity-worker ranks as the tasks of one srun";
  } else {
    what = "your command (" + config.command + ")";
  }
  try {
    launch::make_private_folder(folder);
    launch::write_private_file(folder + "/config.json", config::to_json(config) + "\n");
    const std::string script = folder + "/job.sh";
    const std::string comment =
        "Parity run " + std::to_string(run_id) + " (" + config.label +
        "), written by parity-cli run "
        "--launcher slurm --submit.\nInside the allocation parity-cli job-step supervises " +
        what + "\nand appends the run's steps to " + folder + "/" + launch::kStepsFileName +
        ", which `parity-cli follow " + std::to_string(run_id) + "` reads into the database.";
    launch::write_private_file(script, launch::job_script(sbatch, script, step, comment));
    ::chmod(script.c_str(), 0700);
    if (launcher == launch::Launcher::kCommand) {
      // Expanded in the job ({main_process_port} is a free port of the node): the preview until
      // the job says what it ran.
      db.set_origin(run_id, storage::RunOrigin::kCommand, preview_command(config, folder, run_id));
      db.set_facts(run_id, config::to_json(command_facts(config)), "");
    }
    const std::string job = launch::submit_job(sbatch, script);
    db.set_job(run_id, job, folder);
    db.set_job_state(run_id, "PENDING");
    return job;
  } catch (const launch::LaunchError& e) {
    db.set_status(run_id, storage::RunStatus::kFailed, e.what());
    throw;
  }
}

int run_job_step(const JobStepOptions& o) {
  launch::StepsFileWriter steps(o.folder + "/" + launch::kStepsFileName);
  launch::RunEnd end;
  end.outcome = launch::RunOutcome::kFailed;
  try {
    config::RunConfig config = config::from_json(read_text_file(o.folder + "/config.json"));
    launch::LaunchOptions launch;
    launch.launcher = launch::choose_launcher(config, launch::Launcher::kSlurm);
    launch.worker_path = o.worker_path;
    launch.hang_timeout_s = o.hang_timeout_s;
    launch.log_dir = o.folder;
    launch.stop = o.stop;
    CommandRunOptions command;
    command.hang_timeout_s = o.hang_timeout_s;
    command.stop = o.stop;
    command.on_command = [&](const std::string& text) { steps.command(text); };
    const SetupResult result = run_setup(o.run_id, config, launch, command, steps);
    if (!result.mismatch.empty()) steps.note(result.mismatch);
    end.outcome = result.outcome;
    end.message = result.message;
    end.samples_per_s = result.samples_per_s;
    if (end.outcome == launch::RunOutcome::kStopped)
      end.message = "stopped: the job was signalled (scancel, or its time limit)";
  } catch (const std::exception& e) {
    end.outcome = launch::RunOutcome::kFailed;
    end.message = e.what();
  }
  if (auto why = steps.failure(); why && end.outcome != launch::RunOutcome::kFailed) {
    end.outcome = launch::RunOutcome::kFailed;
    end.message = *why;
  }
  steps.end(end);
  std::cerr << "parity-cli job-step: run " << o.run_id << " " << launch::to_string(end.outcome)
            << (end.message.empty() ? "" : ": " + end.message) << "\n";
  return end.outcome == launch::RunOutcome::kFinished ? kExitOk : kExitFailed;
}

}  // namespace parity::cli
