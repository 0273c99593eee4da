#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <parity/launch/rank_supervisor.h>
#include <parity/launch/route_address.h>
#include <parity/launch/run_folders.h>
#include <parity/launch/startup_trace.h>
#include <parity/launch/store_probe.h>
#include <parity/launch/worker_contract.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>

#include "rank_monitor.h"
#include "slurm_launch.h"

namespace parity::launch {
namespace {

using namespace rank_monitor;

namespace fs = std::filesystem;

/// The private per-run folder (0700, from mkdtemp), removed with everything in it on destruction.
/// Its `owner` file names the supervisor, for remove_stale_run_folders after a kill.
class RunDir {
 public:
  explicit RunDir(const std::string& owner) {
    std::string pattern = run_folder_parent() + "/" + kRunFolderPrefix + "XXXXXX";
    std::vector<char> buf(pattern.begin(), pattern.end());
    buf.push_back('\0');
    if (!::mkdtemp(buf.data()))
      throw LaunchError("cannot create a run folder " + pattern + ": " + errno_text());
    path_ = buf.data();
    try {
      if (!owner.empty()) write_private_file(path_ + "/owner", owner + "\n");
    } catch (...) {
      std::error_code ec;
      fs::remove_all(path_, ec);  // no destructor runs for a constructor that throws
      throw;
    }
  }
  ~RunDir() {
    std::error_code ec;
    fs::remove_all(path_, ec);
  }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

// The options that must agree with each other; throws LaunchError.
void check_options(const LaunchOptions& options) {
  if (options.nnodes < 1 || options.node_rank < 0 || options.node_rank >= options.nnodes)
    throw LaunchError("node_rank " + std::to_string(options.node_rank) +
                      " is not allowed with nnodes " + std::to_string(options.nnodes) +
                      "; it must be in [0, nnodes)");
  if (options.nnodes > 1 && options.master_addr.empty())
    throw LaunchError("master_addr is required when nnodes > 1");
}

// As in Accelerate, num_processes counts the ranks of all machines; each runs an equal share.
int local_ranks(const config::RunConfig& config, const LaunchOptions& options) {
  if (config.num_processes % options.nnodes != 0)
    throw LaunchError("num_processes " + std::to_string(config.num_processes) +
                      " does not divide by nnodes " + std::to_string(options.nnodes) +
                      " (num_processes is the total over all machines, each running an equal "
                      "share)");
  return config.num_processes / options.nnodes;
}

// Opens the rank's log and status pipe, then starts it with `vars` in its environment.
void start_rank(Rank& r, const std::string& worker, const EnvVars& vars, bool drop_store) {
  Fd log = safe_fd(open_private_file(r.log_path));
  int p[2];
  if (::pipe2(p, O_CLOEXEC) != 0) throw LaunchError("pipe: " + errno_text());
  Fd read_end = safe_fd(p[0]), write_end = safe_fd(p[1]);
  ::fcntl(read_end.get(), F_SETFL, O_NONBLOCK);
  r.last_seen = Clock::now();
  r.oom_file = oom_counter_file();
  r.oom_kills_at_spawn = oom_kills(r.oom_file);
  r.pid = spawn(worker, rank_environment(vars, drop_store), write_end.get(), log.get());
  r.status = std::move(read_end);
}

}  // namespace

std::string executable_dir(const std::string& self_link) {
  std::error_code ec;
  fs::path exe = fs::read_symlink(self_link, ec);
  if (ec) throw LaunchError("executable_dir: cannot read " + self_link + ": " + ec.message());
  return exe.parent_path().string();
}

int free_port() {
  Fd sock(::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0));
  if (sock.get() < 0) throw LaunchError("free_port: socket: " + errno_text());
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  addr.sin_port = 0;
  if (::bind(sock.get(), reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0)
    throw LaunchError("free_port: bind 127.0.0.1:0: " + errno_text());
  socklen_t len = sizeof addr;
  if (::getsockname(sock.get(), reinterpret_cast<sockaddr*>(&addr), &len) != 0)
    throw LaunchError("free_port: getsockname: " + errno_text());
  return ntohs(addr.sin_port);
}

RankSupervisor::RankSupervisor(config::RunConfig config, LaunchOptions options)
    : config_(std::move(config)), options_(std::move(options)) {}

int resolved_threads_per_rank(const config::RunConfig& config, const LaunchOptions& options) {
  if (config.threads_per_rank > 0) return config.threads_per_rank;
  if (options.threads_per_rank > 0) return options.threads_per_rank;
  return std::max(1, available_cores() / std::max(1, local_ranks(config, options)));
}

LaunchResult RankSupervisor::run(StepSink& sink) {
  if (options_.launcher == Launcher::kCommand)
    throw LaunchError("a setup with a command is run by its command, not by parity-worker ranks");
  validate(config_);
  check_options(options_);
  const int w = local_ranks(config_, options_);
  const bool multi_node = options_.nnodes > 1;
  const std::string worker =
      options_.worker_path.empty() ? executable_dir() + "/parity-worker" : options_.worker_path;
  if (::access(worker.c_str(), X_OK) != 0)
    throw LaunchError("parity-worker not found at " + worker + "; build it or pass --worker");
  if (options_.launcher == Launcher::kSlurm) return run_slurm(config_, options_, worker, sink);

  RunDir dir(options_.run_folder_owner);
  const std::string config_path = dir.path() + "/config.json";
  write_config(config_, config_path);
  const std::string log_dir = options_.log_dir.empty() ? dir.path() : options_.log_dir;
  make_private_folder(log_dir);

  // One machine rendezvouses through a FileStore and never needs the port; the variable is still
  // set (to a free one) because torchrun always sets it. Several machines must agree on a port.
  DistEnv dist;
  dist.world_size = config_.num_processes;
  dist.local_world_size = w;
  dist.master_addr = options_.master_addr;
  dist.master_port = options_.master_port > 0 ? options_.master_port
                                              : (multi_node ? kDefaultMasterPort : free_port());
  dist.threads = resolved_threads_per_rank(config_, options_);
  if (!multi_node) dist.store_path = dir.path() + "/store";

  std::vector<Rank> ranks(static_cast<size_t>(w));
  ReapGuard guard{ranks};
  startup_mark("spawn");
  for (int local = 0; local < w; ++local) {
    Rank& r = ranks[static_cast<size_t>(local)];
    r.global = options_.node_rank * w + local;
    r.log_path = log_dir + "/rank" + std::to_string(r.global) + ".log";
    dist.rank = r.global;
    dist.local_rank = local;
    EnvVars vars = to_environment(dist, config_path, kStatusFd);
    // Spinning OpenMP threads collapse when anything else wants a core (measured here: one rank
    // with 2 threads on 2 busy cores ran 15x slower than with 1); sleeping waits do not. A user's
    // own setting wins.
    if (!std::getenv(kEnvOmpWaitPolicy)) vars.emplace_back(kEnvOmpWaitPolicy, "PASSIVE");
    if (multi_node && !options_.network_interface.empty())
      vars.emplace_back(kGlooInterfaceVar, options_.network_interface);
    start_rank(r, worker, vars, multi_node);
  }

  startup_mark("spawned");
  Monitor monitor(ranks, sink, options_);
  monitor.run();
  startup_mark("reaped");

  LaunchResult result = result_of(monitor, ranks, options_);
  // A rank here lost a peer or hung, and rank 0 lives elsewhere: machine 0's store says whether
  // machine 0 is gone, cannot be reached, or is there (then another machine is gone).
  if (multi_node && options_.node_rank > 0 && monitor.cause() && monitor.cause()->peer_lost) {
    if (auto why = main_machine_gone(dist.master_addr, dist.master_port))
      result.message = *why + "; " + result.message;
  }
  report_end(sink, result);
  return result;
}

}  // namespace parity::launch