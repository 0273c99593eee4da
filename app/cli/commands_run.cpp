// `run` (one setup) and `run-set` (several, one after another).
#include <parity/config/run_config.h>
#include <parity/launch/launch_error.h>
#include <parity/launch/route_address.h>
#include <parity/storage/supervisor.h>

#include <cstdlib>
#include <iostream>
#include <memory>
#include <optional>

#include "cli_common.h"
#include "command_runner.h"
#include "commands.h"
#include "config_flags.h"
#include "job_submit.h"
#include "run_runner.h"

namespace parity::cli {
namespace {

/// Options shared by run and run-set: where to record, which worker, how to watch the ranks.
struct LaunchFlags {
  std::string db;
  std::string worker;
  std::string log_dir;
  double hang_timeout_s = 120;
  double busy_wait_s = 120;
  bool quiet = false;

  void add_to(CLI::App& sub) {
    add_db_option(sub, &db);
    sub.add_option("--worker", worker,
                   "the rank executable (default: parity-worker beside this one)");
    sub.add_option("--log-dir,--log_dir", log_dir,
                   "where rank logs go (default: <database>.logs/run-<id> beside the database)");
    sub.add_option("--hang-timeout,--hang_timeout", hang_timeout_s,
                   "seconds a rank may stay silent before the run is failed")
        ->capture_default_str()
        ->check(above_zero());
    sub.add_option("--db-busy-wait,--db_busy_wait", busy_wait_s,
                   "seconds a locked database is waited out (steps queue in memory meanwhile) "
                   "before the run fails")
        ->capture_default_str()
        ->check(zero_or_more());
    sub.add_flag("--quiet,-q", quiet, "no progress line");
  }

  RunnerOptions runner(const SignalStop& stop) const {
    RunnerOptions o;
    o.launch.worker_path = resolve_worker(worker);
    o.launch.hang_timeout_s = hang_timeout_s;
    o.launch.stop = stop.flag();
    o.log_dir = log_dir;
    o.quiet = quiet;
    o.busy_wait_s = busy_wait_s;
    return o;
  }
};

struct RunArgs {
  ConfigFlags config;
  LaunchFlags launch;
  std::string run_id;
  int nnodes = 1;
  int node_rank = 0;
  std::string master_addr = "127.0.0.1";
  int master_port = 0;
  std::string network_interface;
  std::string launcher = "local";
  std::string partition;
  std::string time;
  bool submit = false;
  std::string account;
  std::string gres;
};

struct Machines {
  int nnodes = 1;
  int node_rank = 0;
  std::string master_addr;
  int master_port = 0;
};

// The machines from the flags, and from --accelerate-config's file where a flag was left at its
// default (num_machines, machine_rank, main_process_ip, main_process_port).
Machines machines_of(const RunArgs& a) {
  Machines m{a.nnodes, a.node_rank, a.master_addr, a.master_port};
  if (const auto& file = a.config.accelerate_config()) {
    if (file->num_machines && m.nnodes == 1) m.nnodes = *file->num_machines;
    if (file->machine_rank && m.node_rank == 0) m.node_rank = *file->machine_rank;
    if (file->main_process_ip && m.master_addr == "127.0.0.1")
      m.master_addr = *file->main_process_ip;
    if (file->main_process_port && m.master_port == 0) m.master_port = *file->main_process_port;
  }
  // Checked before the database is touched: a bad machine count or index writes no row.
  const bool from_file = a.config.accelerate_config().has_value();
  if (m.nnodes < 1)
    throw UsageError(
        std::string(from_file ? "num_machines (--accelerate-config) " : "--num-machines ") +
        std::to_string(m.nnodes) + " is not allowed; it must be 1 or more");
  if (m.node_rank < 0 || m.node_rank >= m.nnodes)
    throw UsageError("--machine-rank " + std::to_string(m.node_rank) + " is not allowed with " +
                     std::to_string(m.nnodes) + " machine" + (m.nnodes == 1 ? "" : "s") +
                     "; it must be 0 to " + std::to_string(m.nnodes - 1));
  return m;
}

// The queued run `--run-id` starts (the window created its row with the config): its stored
// config, checked; a check that fails marks the row failed, so the window says why.
config::RunConfig stored_run_config(const RunArgs& a, storage::Database& db, int64_t run_id) {
  if (a.config.any_flag_given() || a.config.config_file_given())
    throw UsageError(
        "--run-id runs the config stored with the run; drop --config and the "
        "config flags");
  auto row = db.get_run(run_id);
  if (!row) throw UsageError("--run-id: no run " + std::to_string(run_id) + " in " + db.path());
  if (row->status != storage::RunStatus::kQueued)
    throw UsageError("--run-id: run " + std::to_string(run_id) + " is " +
                     std::string(storage::to_string(row->status)) +
                     "; only a queued run can be started");
  try {
    config::RunConfig config = config::from_json(row->config_json);
    if (config.label.empty()) config.label = row->label;
    require_valid(config);
    require_command(config);
    if (!a.submit) require_hostable(config, a.nnodes);  // a submitted run's ranks run on Slurm's
    machines_of(a);  // its checks, so the window's row says why
    return config;
  } catch (const std::exception& e) {
    db.set_status(run_id, storage::RunStatus::kFailed, e.what());
    throw;
  }
}

// Who starts the ranks (this machine, or Slurm) and where they meet.
void set_launcher(const RunArgs& a, const Machines& machines, const config::RunConfig& config,
                  launch::LaunchOptions& launch) {
  launch.nnodes = machines.nnodes;
  launch.node_rank = machines.node_rank;
  launch.master_addr = machines.master_addr;
  launch.master_port = machines.master_port;
  launch.network_interface = a.network_interface;
  if (a.submit && a.launcher != "slurm")
    throw UsageError("--submit hands the run to Slurm's sbatch: it needs --launcher slurm");
  if (!a.submit && (!a.account.empty() || !a.gres.empty()))
    throw UsageError("--account and --gres are for --launcher slurm --submit");
  if (a.launcher == "slurm") {
    if (machines.nnodes > 1)
      throw UsageError(
          "--launcher slurm places the ranks itself; --num-machines is for ranks "
          "started on each machine by hand");
    if (launch::choose_launcher(config, launch::Launcher::kSlurm) != launch::Launcher::kSlurm &&
        !a.submit)
      throw UsageError(
          "--launcher slurm without --submit starts Parity's engine; your command runs under "
          "Slurm when it is an srun line (--command 'srun -n {num_processes} ...'), or as a "
          "batch job with --submit");
    launch.launcher = launch::Launcher::kSlurm;
    launch.slurm_partition = a.partition;
    launch.slurm_time = a.time;
  } else if (!a.partition.empty() || !a.time.empty()) {
    throw UsageError("--partition and --time are for --launcher slurm");
  }
}

// A multi-node run says where its ranks meet and what they bind before anything starts (and is
// refused here when no route reaches the main process or the interface named has no address).
void say_where_ranks_meet(const RunArgs& a, const Machines& machines, int num_processes) {
  if (machines.nnodes > 1) {
    const int port = machines.master_port > 0 ? machines.master_port : 29500;
    std::cerr << "multi-node run (" << machines.nnodes << " machines, this is machine "
              << machines.node_rank << ", " << num_processes / machines.nnodes << " of the "
              << num_processes
              << " ranks): ranks rendezvous through a TCPStore that rank 0 hosts on "
              << machines.master_addr << ":" << port << " and that listens on the network\n";
    try {
      const char* env = std::getenv(launch::kGlooInterfaceVar);
      const bool chosen = !a.network_interface.empty() || (env && *env);
      std::cerr << "this machine's ranks use "
                << launch::gloo_binding(machines.master_addr, port, a.network_interface,
                                        "--network-interface")
                << (chosen ? "" : " (--network-interface IFNAME chooses an interface)") << "\n";
    } catch (const launch::LaunchError& e) {
      throw UsageError(e.what());
    }
  } else if (!a.network_interface.empty()) {
    std::cerr << "--network-interface is for multi-node runs: one machine's ranks bind Gloo to "
                 "127.0.0.1\n";
  }
}

// run --launcher slurm --submit: the run is queued as a Slurm batch job and this process ends.
int submit_command(const RunArgs& a, storage::Database& db, int64_t run_id,
                   const config::RunConfig& config, const RunnerOptions& options) {
  SubmitOptions submit;
  submit.partition = a.partition;
  submit.time = a.time;
  submit.account = a.account;
  submit.gres = a.gres;
  submit.worker_path = options.launch.worker_path;
  submit.hang_timeout_s = options.launch.hang_timeout_s;
  submit.folder = options.log_dir.empty() ? default_log_dir(db.path(), run_id) : options.log_dir;
  std::string job;
  try {
    job = submit_run(db, run_id, config, submit);
  } catch (const launch::LaunchError& e) {
    std::cerr << "[" << config.label << "] run " << run_id << " failed: " << e.what() << "\n";
    std::cout << "run " << run_id << " failed\n";
    return kExitFailed;
  }
  const std::string db_flag = a.launch.db.empty() ? "" : " --db " + a.launch.db;
  std::cerr << "[" << config.label << "] run " << run_id << " submitted as Slurm job " << job
            << "; its steps go to " << submit.folder << "/steps\n"
            << "  follow it: parity-cli follow " << run_id << db_flag
            << "    cancel it: parity-cli stop " << run_id << db_flag << "\n";
  std::cout << "run " << run_id << " queued: Slurm job " << job << "\n";
  return kExitOk;
}

int run_command(const RunArgs& a) {
  const bool attach = !a.run_id.empty();
  config::RunConfig config;
  std::unique_ptr<storage::Database> db;
  int64_t run_id = 0;
  if (attach) {
    run_id = parse_id(a.run_id, "--run-id");
    db = std::make_unique<storage::Database>(open_existing_db(db_or_default(a.launch.db)));
    config = stored_run_config(a, *db, run_id);
  } else {
    // Everything is checked before the database is touched: a bad flag writes nothing.
    config = a.config.build();
    if (config.label.empty()) config.label = config::default_label(config);
    require_valid(config);
    require_command(config);
  }
  const Machines machines = machines_of(a);
  // A submitted run's ranks run on Slurm's nodes, not here.
  if (!attach && !a.submit) require_hostable(config, machines.nnodes);

  SignalStop stop;
  RunnerOptions options;
  try {
    options = a.launch.runner(stop);
    set_launcher(a, machines, config, options.launch);
  } catch (const UsageError& e) {
    // The window shows why.
    if (attach) db->set_status(run_id, storage::RunStatus::kFailed, e.what());
    throw;
  }
  say_where_ranks_meet(a, machines, config.num_processes);
  if (!db) {
    db = std::make_unique<storage::Database>(db_or_default(a.launch.db));
    // The user's command sets its own threads.
    if (launch::choose_launcher(config) != launch::Launcher::kCommand)
      config.threads_per_rank = launch::resolved_threads_per_rank(config, options.launch);
    // A submitted run has no supervisor process here: its job is.
    run_id = db->create_run(
        config.label, config::to_json(config), storage::RunStatus::kQueued,
        a.submit ? std::nullopt : std::optional(storage::SupervisorIdentity::current()));
  }
  if (a.submit) return submit_command(a, *db, run_id, config, options);
  RunReport report = run_recorded(*db, run_id, config, options);
  std::cout << "run " << report.run_id << " " << storage::to_string(status_of(report.outcome))
            << "\n";
  return report.outcome == launch::RunOutcome::kFinished ? kExitOk : kExitFailed;
}

struct RunSetArgs {
  std::string file;
  LaunchFlags launch;
};

int run_set_command(const RunSetArgs& a) {
  std::vector<config::RunConfig> configs = config::configs_from_set_json(read_text_file(a.file));
  if (configs.empty()) throw UsageError(a.file + ": the set has no setups");
  for (auto& c : configs) {
    if (c.label.empty()) c.label = config::default_label(c);
    require_valid(c);
    require_command(c);
    require_hostable(c, 1);
    if (launch::choose_launcher(c) != launch::Launcher::kCommand)
      c.threads_per_rank = launch::resolved_threads_per_rank(c);  // recorded with the run
  }
  SignalStop stop;
  RunnerOptions options = a.launch.runner(stop);
  storage::Database db(db_or_default(a.launch.db));
  std::vector<int64_t> ids;
  // Claimed at once: if this launcher is killed, the setups it had not reached yet are reconciled
  // too, instead of staying queued for ever.
  const storage::SupervisorIdentity self = storage::SupervisorIdentity::current();
  for (const auto& c : configs)
    ids.push_back(db.create_run(c.label, config::to_json(c), storage::RunStatus::kQueued, self));

  std::vector<RunReport> reports;
  for (size_t i = 0; i < configs.size(); ++i) {
    if (stop.stopped()) {
      db.set_status(ids[i], storage::RunStatus::kStopped, "stopped before it started");
      continue;
    }
    reports.push_back(run_recorded(db, ids[i], configs[i], options));
  }
  std::cout << "\n";
  print_summary(std::cout, reports);
  bool all_finished = reports.size() == configs.size();
  for (const auto& r : reports) all_finished &= r.outcome == launch::RunOutcome::kFinished;
  return all_finished ? kExitOk : kExitFailed;
}

}  // namespace

void add_run_command(CLI::App& app, int* exit_code) {
  auto args = std::make_shared<RunArgs>();
  CLI::App* sub = app.add_subcommand("run", "train one setup as a recorded run");
  sub->footer(
      "Exit code: 0 for a finished run, 1 if it failed, diverged or was stopped, 2 for a bad "
      "command line or config (nothing is written then).\nSIGINT/SIGTERM/SIGHUP stop the run "
      "(recorded as stopped).");
  args->config.add_to(*sub);
  args->launch.add_to(*sub);
  sub->add_option("--run-id,--run_id", args->run_id,
                  "start this queued run of the database (created by the window) with its stored "
                  "config");
  // Accelerate's names first, torchrun's as aliases; --num-processes is the total over machines.
  sub->add_option("--num-machines,--num_machines,--nnodes", args->nnodes,
                  "machines taking part (multi-node: TCPStore); --num-processes is the total, "
                  "split equally")
      ->group("Multi-node")
      ->check(above_zero());
  sub->add_option("--machine-rank,--machine_rank,--node-rank,--node_rank", args->node_rank,
                  "this machine's index (machine 0 hosts rank 0 and records the run)")
      ->group("Multi-node")
      ->check(zero_or_more());
  sub->add_option("--main-process-ip,--main_process_ip,--master-addr,--master_addr",
                  args->master_addr, "machine 0's address")
      ->group("Multi-node")
      ->capture_default_str();
  sub->add_option("--main-process-port,--main_process_port,--master-port,--master_port",
                  args->master_port, "rendezvous port (default: a free one; 29500 when multi-node)")
      ->group("Multi-node")
      ->check(CLI::Range(0, 65535));
  sub->add_option("--network-interface,--network_interface", args->network_interface,
                  "the interface this machine's ranks bind Gloo to, as PyTorch's "
                  "GLOO_SOCKET_IFNAME (default: the one whose address routes to machine 0)")
      ->group("Multi-node");
  sub->add_option("--launcher", args->launcher,
                  "who starts the ranks: local (this machine's processes) or slurm (one srun, a "
                  "task per rank, on the machines Slurm gives; Stop cancels the step)")
      ->group("Slurm")
      ->check(CLI::IsMember({"local", "slurm"}))
      ->capture_default_str();
  sub->add_option("--partition", args->partition, "--launcher slurm: the partition (srun -p)")
      ->group("Slurm");
  sub->add_option("--time", args->time,
                  "--launcher slurm: the step's time limit, in Slurm's formats (srun -t: 30, "
                  "1:00:00, 1-0)")
      ->group("Slurm");
  sub->add_flag("--submit", args->submit,
                "--launcher slurm: submit the run as a batch job (sbatch) and return at once, "
                "queued; the job trains without this process and writes its steps to the run's "
                "folder (--log-dir, on a disk the nodes share); `parity-cli follow RUN` reads "
                "them into the database, `parity-cli stop RUN` cancels the job. Your command "
                "too (--command)")
      ->group("Slurm");
  sub->add_option("--account", args->account, "--submit: the account charged (sbatch -A)")
      ->group("Slurm");
  sub->add_option("--gres", args->gres,
                  "--submit: generic resources per node, e.g. gpu:2 (sbatch --gres)")
      ->group("Slurm");
  sub->callback([args, exit_code] { *exit_code = run_command(*args); });
}

void add_run_set_command(CLI::App& app, int* exit_code) {
  auto args = std::make_shared<RunSetArgs>();
  CLI::App* sub = app.add_subcommand(
      "run-set", "train every setup of a set file, one after another, then print a summary");
  sub->footer(
      "FILE.json: {\"experiment\": {...shared keys...}, \"setups\": [{...}, ...]} or an array of "
      "configs.\nEvery setup is checked before the first starts. Exit code 0 only when all "
      "finished.");
  sub->add_option("FILE", args->file, "the set file")->required();
  args->launch.add_to(*sub);
  sub->callback([args, exit_code] { *exit_code = run_set_command(*args); });
}

}  // namespace parity::cli
