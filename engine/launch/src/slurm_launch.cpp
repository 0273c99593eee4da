#include "slurm_launch.h"

#include <fcntl.h>
#include <parity/launch/launch_error.h>
#include <parity/launch/rank_supervisor.h>
#include <parity/launch/run_folders.h>
#include <parity/launch/slurm.h>

#include <cstdlib>

#include "rank_monitor.h"

namespace parity::launch::rank_monitor {

LaunchResult run_slurm(const config::RunConfig& config, const LaunchOptions& options,
                       const std::string& worker, StepSink& sink) {
  const int w = config.num_processes;
  const std::string folder = options.log_dir;
  if (folder.empty()) throw LaunchError("--launcher slurm needs the run's log folder");
  make_private_folder(folder);
  const std::string config_path = folder + "/config.json";
  write_config(config, config_path);
  SrunOptions so;
  so.srun = rank_process::find_program(options.srun);
  so.tasks = w;
  so.partition = options.slurm_partition;
  so.time = options.slurm_time;
  so.job_name = "parity-" + std::to_string(::getpid()) + "-" +
                std::to_string(Clock::now().time_since_epoch().count() % 1000000007);
  EnvVars vars = {{kEnvConfig, config_path},
                  {kEnvStatusFd, "1"},
                  {kEnvMasterPort,
                   std::to_string(options.master_port > 0 ? options.master_port : free_port())}};
  const int threads = resolved_threads_per_rank(config, options);
  vars.emplace_back(kEnvThreads, std::to_string(threads));
  for (const char* name : kEnvLibraryThreads) vars.emplace_back(name, std::to_string(threads));
  if (!std::getenv(kEnvOmpWaitPolicy)) vars.emplace_back(kEnvOmpWaitPolicy, "PASSIVE");
  // torchrun's variables of the caller's own environment would win over Slurm's in the tasks.
  std::vector<std::string> env;
  for (const std::string& e : rank_environment(vars, true)) {
    const std::string name = e.substr(0, e.find('='));
    if (name != kEnvRank && name != kEnvWorldSize && name != kEnvLocalRank &&
        name != kEnvLocalWorldSize && name != kEnvMasterAddr)
      env.push_back(e);
  }
  std::vector<Rank> ranks(static_cast<size_t>(w));
  for (int r = 0; r < w; ++r) {
    ranks[static_cast<size_t>(r)].global = r;
    ranks[static_cast<size_t>(r)].log_path = folder + "/srun.log";
    ranks[static_cast<size_t>(r)].last_seen = Clock::now();
  }
  Step step;
  step.log_path = folder + "/srun.log";
  Fd log = safe_fd(open_private_file(step.log_path));
  int p[2];
  if (::pipe2(p, O_CLOEXEC) != 0) throw LaunchError("pipe: " + errno_text());
  Fd read_end = safe_fd(p[0]), write_end = safe_fd(p[1]);
  ::fcntl(read_end.get(), F_SETFL, O_NONBLOCK);
  step.pid = spawn(srun_argv(so, worker), env, write_end.get(), log.get(), true);
  step.out = std::move(read_end);
  write_end.reset();
  struct StepGuard {  // an exception from the sink: the step is killed and reaped, as ranks are
    Step& s;
    ~StepGuard() {
      if (s.reaped) return;
      ::kill(-s.pid, SIGKILL);
      while (::waitpid(s.pid, &s.wait_status, 0) < 0 && errno == EINTR) {
      }
    }
  } guard{step};
  Monitor monitor(ranks, sink, options, &step);
  monitor.run();
  if (monitor.cause()) {
    // srun is gone; a task it could not reach is cancelled with its job.
    const std::string scancel = "scancel --quiet --name=" + so.job_name + " >/dev/null 2>&1";
    [[maybe_unused]] const int ignored = std::system(scancel.c_str());
  }
  LaunchResult result = result_of(monitor, ranks, options);
  result.pids = {step.pid};
  report_end(sink, result);
  return result;
}

}  // namespace parity::launch::rank_monitor
