#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <parity/launch/progress_protocol.h>
#include <parity/launch/rank_supervisor.h>
#include <parity/launch/route_address.h>
#include <parity/launch/run_folders.h>
#include <parity/launch/slurm.h>
#include <parity/launch/store_probe.h>
#include <parity/launch/worker_contract.h>
#include <poll.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <optional>
#include <set>

#include "rank_process.h"

namespace parity::launch {
namespace {

using namespace rank_process;

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

double seconds_between(Clock::time_point a, Clock::time_point b) {
  return std::chrono::duration<double>(b - a).count();
}

std::string format_seconds(double s) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", s);
  return buf;
}

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

struct Rank {
  int global = 0;
  pid_t pid = -1;
  Fd status;  // read end of the rank's status pipe; closed at end of file
  std::string buffer;
  std::string log_path;
  Clock::time_point last_seen;  // last progress (see is_progress), not merely the last byte
  int64_t last_step = -1;       // highest step this rank has reported
  std::optional<Clock::time_point> eof_at;
  bool reaped = false;
  int wait_status = 0;
  int64_t oom_kills_at_spawn = -1;  // the kernel's OOM-kill count when it started (-1: unknown)
  std::string oom_file;             // where that count is read (oom_counter_file())
};

/// The one process that started every rank under Slurm (srun): its stdout carries each rank's
/// status lines prefixed "RANK: " (--label), its stderr the ranks' logs, prefixed the same way.
struct Step {
  pid_t pid = -1;
  Fd out;  // read end of srun's stdout; closed at end of file
  std::string buffer;
  std::string log_path;
  bool reaped = false;
  int wait_status = 0;
};

/// The "oom_kill N" count in `file` (a cgroup's memory.events or memory.oom_control, or
/// /proc/vmstat), or -1 where it does not say.
int64_t oom_kills(const std::string& file) {
  std::ifstream in(file);
  std::string key;
  std::string value;
  while (in >> key >> value) {
    if (key != "oom_kill") continue;
    try {
      return std::stoll(value);
    } catch (const std::exception&) {
      return -1;
    }
  }
  return -1;
}

/// Where the kernel counts the OOM kills of the processes of this one's memory cgroup, which
/// the ranks are born in: cgroup v2's memory.events.local (else memory.events), v1's
/// memory.oom_control. /proc/vmstat (every OOM kill on the machine) only when neither can be
/// read: with it, a process killed elsewhere meanwhile (another job's cgroup) reads as our
/// rank's OOM, as a rank killed by hand did once in the test suite.
std::string oom_counter_file() {
  std::ifstream in("/proc/self/cgroup");
  std::vector<std::string> candidates;
  for (std::string line; std::getline(in, line);) {
    const auto c1 = line.find(':'), c2 = line.find(':', c1 == std::string::npos ? 0 : c1 + 1);
    if (c1 == std::string::npos || c2 == std::string::npos) continue;
    const std::string controllers = "," + line.substr(c1 + 1, c2 - c1 - 1) + ",";
    const std::string path = line.substr(c2 + 1);
    if (line.rfind("0::", 0) == 0) {
      candidates.push_back("/sys/fs/cgroup" + path + "/memory.events.local");
      candidates.push_back("/sys/fs/cgroup" + path + "/memory.events");
    } else if (controllers.find(",memory,") != std::string::npos) {
      candidates.insert(candidates.begin(), "/sys/fs/cgroup/memory" + path + "/memory.oom_control");
    }
  }
  for (const std::string& file : candidates)
    if (oom_kills(file) >= 0) return file;
  return "/proc/vmstat";
}

/// Signals a rank's whole process group (the worker may have children of its own).
void signal_rank(const Rank& r, int sig) {
  if (r.pid <= 0 || r.reaped) return;
  if (::kill(-r.pid, sig) != 0) ::kill(r.pid, sig);
}

/// Kills and reaps whatever is still running when run() leaves by an exception.
struct ReapGuard {
  std::vector<Rank>& ranks;
  ~ReapGuard() {
    for (auto& r : ranks) signal_rank(r, SIGKILL);
    for (auto& r : ranks) {
      if (r.pid <= 0 || r.reaped) continue;
      while (::waitpid(r.pid, &r.wait_status, 0) < 0 && errno == EINTR) {
      }
      r.reaped = true;
    }
  }
};

/// The failure message for a reaped rank, or nullopt when it exited 0.
std::optional<std::string> exit_failure(const Rank& r) {
  const int st = r.wait_status;
  const std::string who = "rank " + std::to_string(r.global);
  if (WIFEXITED(st)) {
    if (WEXITSTATUS(st) == 0) return std::nullopt;
    std::string msg = who + " exited with code " + std::to_string(WEXITSTATUS(st));
    std::string line = last_line(r.log_path);
    return line.empty() ? msg : msg + ": " + line;
  }
  if (WIFSIGNALED(st)) {
    int sig = WTERMSIG(st);
    std::string msg =
        who + " was killed by signal " + std::to_string(sig) + " (" + signal_name(sig) + ")";
    // The OOM killer sends SIGKILL: when it killed something in the rank's cgroup since the
    // rank started, say so.
    if (sig == SIGKILL && r.oom_kills_at_spawn >= 0 &&
        oom_kills(r.oom_file) > r.oom_kills_at_spawn) {
      msg +=
          ": out of memory (the kernel's OOM killer); a smaller per-device batch or model, or "
          "fewer processes, fits";
    }
    // An abort usually follows a message worth showing (an uncaught exception's what()).
    std::string line = sig == SIGABRT ? last_line(r.log_path) : "";
    return line.empty() ? msg : msg + ": " + line;
  }
  return who + " ended with wait status " + std::to_string(st);
}

struct Cause {
  RunOutcome outcome = RunOutcome::kFailed;
  int rank = -1;
  std::string message;
  /// The rank lost a peer (exited kExitPeerGone) or hung: another machine may be gone.
  bool peer_lost = false;
};

/// Runs the ranks' poll loop: forwards rank 0's records, watches exits, hangs and the stop flag.
class Monitor {
 public:
  Monitor(std::vector<Rank>& ranks, StepSink& sink, const LaunchOptions& options,
          Step* step = nullptr)
      : ranks_(ranks), sink_(sink), options_(options), step_(step) {}

  /// Returns when every rank has been reaped.
  void run() {
    while (std::any_of(ranks_.begin(), ranks_.end(), [](const Rank& r) { return !r.reaped; })) {
      poll_once(50);
      const auto now = Clock::now();
      if (step_) {
        watch_step(now);
      } else {
        std::vector<Rank*> failed;
        for (auto& r : ranks_) {
          if (r.reaped) continue;
          pid_t got = ::waitpid(r.pid, &r.wait_status, WNOHANG);
          if (got != r.pid) continue;
          r.reaped = true;
          if (!cause_ && exit_failure(r)) failed.push_back(&r);
        }
        if (!cause_ && !failed.empty()) begin_stop(first_failure(failed, now), now);
      }
      if (!cause_ && options_.stop && options_.stop->load())
        begin_stop({RunOutcome::kStopped, -1, "stopped by the user"}, now);
      if (!cause_) {
        if (auto why = sink_.failure())
          begin_stop({RunOutcome::kFailed, -1, "cannot record the run: " + *why}, now);
      }
      if (!cause_ && options_.hang_timeout_s > 0) check_hangs(now);
      if (cause_ && !killed_ && now >= kill_at_) {
        signal_all(SIGKILL);
        killed_ = true;
      }
    }
    // A rank's last lines (rank 0's RunEnd) may still sit in its pipe after it was reaped.
    for (auto& r : ranks_) drain(r);
    if (step_) drain_step();
  }

  const std::optional<Cause>& cause() const { return cause_; }
  const std::optional<RunEnd>& end() const { return end_; }

 private:
  void poll_once(int timeout_ms) {
    std::vector<pollfd> fds;
    std::vector<Rank*> owners;
    for (auto& r : ranks_) {
      if (r.status.get() < 0) continue;
      fds.push_back({r.status.get(), POLLIN, 0});
      owners.push_back(&r);
    }
    if (step_ && step_->out.get() >= 0) {
      fds.push_back({step_->out.get(), POLLIN, 0});
      owners.push_back(nullptr);
    }
    int n = ::poll(fds.data(), fds.size(), timeout_ms);
    if (n <= 0) return;  // timeout or EINTR: the caller's checks run either way
    for (size_t i = 0; i < fds.size(); ++i) {
      if (!fds[i].revents) continue;
      if (owners[i]) {
        drain(*owners[i]);
      } else {
        drain_step();
      }
    }
  }

  // srun's stdout: "RANK: line" (the rank right-aligned to the widest), handed to that rank.
  void drain_step() {
    char buf[65536];
    while (step_->out.get() >= 0) {
      ssize_t n = ::read(step_->out.get(), buf, sizeof buf);
      if (n < 0 && errno == EINTR) continue;
      if (n < 0 && errno == EAGAIN) return;
      if (n > 0) step_->buffer.append(buf, static_cast<size_t>(n));
      size_t pos;
      while ((pos = step_->buffer.find('\n')) != std::string::npos) {
        const std::string line = step_->buffer.substr(0, pos);
        step_->buffer.erase(0, pos + 1);
        const auto colon = line.find(": ");
        const std::string label = line.substr(0, colon);
        const auto first = label.find_first_not_of(' ');
        if (colon == std::string::npos || first == std::string::npos) continue;
        int rank = -1;
        try {
          rank = std::stoi(label.substr(first));
        } catch (const std::exception&) {
          continue;
        }
        if (rank >= 0 && rank < static_cast<int>(ranks_.size()))
          handle_line(ranks_[static_cast<size_t>(rank)], line.substr(colon + 2));
      }
      if (n == 0) step_->out.reset();
    }
  }

  // srun ended: every rank with it. A failure names the rank whose own line says why.
  void watch_step(Clock::time_point now) {
    if (step_->reaped || ::waitpid(step_->pid, &step_->wait_status, WNOHANG) != step_->pid) return;
    step_->reaped = true;
    for (auto& r : ranks_) r.reaped = true;
    if (cause_) return;
    Rank srun;
    srun.global = -1;
    srun.log_path = step_->log_path;
    srun.wait_status = step_->wait_status;
    auto failure = exit_failure(srun);
    if (!failure) return;
    Cause cause{RunOutcome::kFailed, -1, *failure, false};
    cause.message.replace(0, cause.message.find(' ', 5), "srun (the Slurm job step)");
    // "R: parity-worker rank R: why" is the failed rank's own last word.
    std::ifstream log(step_->log_path);
    for (std::string line; std::getline(log, line);) {
      const auto at = line.find(": parity-worker rank ");
      if (at == std::string::npos) continue;
      cause.message = line.substr(at + 15) + " (under srun, the Slurm job step)";
      try {
        cause.rank = std::stoi(line.substr(at + 21));
      } catch (const std::exception&) {
      }
      break;
    }
    begin_stop(cause, now);
  }

  void signal_all(int sig) {
    if (step_) {
      if (!step_->reaped && ::kill(-step_->pid, sig) != 0) ::kill(step_->pid, sig);
      return;
    }
    for (auto& r : ranks_) signal_rank(r, sig);
  }

  // Reads what is available (the read ends are non-blocking) and handles complete lines.
  void drain(Rank& r) {
    char buf[65536];
    while (r.status.get() >= 0) {
      ssize_t n = ::read(r.status.get(), buf, sizeof buf);
      if (n > 0) {
        r.buffer.append(buf, static_cast<size_t>(n));
        size_t pos;
        while ((pos = r.buffer.find('\n')) != std::string::npos) {
          std::string line = r.buffer.substr(0, pos);
          r.buffer.erase(0, pos + 1);
          handle_line(r, line);
        }
        continue;
      }
      if (n < 0 && errno == EINTR) continue;
      if (n < 0 && errno == EAGAIN) return;
      if (!r.buffer.empty()) handle_line(r, r.buffer);
      r.buffer.clear();
      r.eof_at = Clock::now();
      r.status.reset();
    }
  }

  void handle_line(Rank& r, const std::string& line) {
    auto message = decode_line(line);
    if (!message) return;
    if (is_progress(r, *message)) r.last_seen = Clock::now();
    if (r.global != 0) return;  // other ranks only send heartbeats
    if (auto* start = std::get_if<RunStart>(&*message)) sink_.on_start(*start);
    if (auto* step = std::get_if<StepRecord>(&*message)) sink_.on_step(*step);
    if (auto* eval = std::get_if<EvalRecord>(&*message)) sink_.on_eval(*eval);
    if (auto* end = std::get_if<RunEnd>(&*message)) end_ = *end;
  }

  // Progress, not chatter, keeps a rank from being declared hung: a heartbeat or step record past
  // the highest step the rank reported (the first heartbeat is step 0), or a start, evaluation or
  // end. A line that is no message, or a heartbeat repeating a step, is not progress.
  static bool is_progress(Rank& r, const ProgressMessage& message) {
    int64_t step = -1;
    if (const auto* h = std::get_if<Heartbeat>(&message)) step = h->step;
    if (const auto* s = std::get_if<StepRecord>(&message)) step = s->step;
    if (step < 0) return true;  // RunStart, EvalRecord, RunEnd
    if (step <= r.last_step) return false;
    r.last_step = step;
    return true;
  }

  // Among ranks found dead in the same sweep, the one whose pipe closed first is the cause (the
  // others usually died of losing it); then a signal beats an exit code, then the lower rank.
  Cause first_failure(const std::vector<Rank*>& failed, Clock::time_point now) {
    auto key = [&](const Rank* r) {
      return std::make_tuple(r->eof_at.value_or(now), WIFSIGNALED(r->wait_status) ? 0 : 1,
                             r->global);
    };
    const Rank* first =
        *std::min_element(failed.begin(), failed.end(),
                          [&](const Rank* a, const Rank* b) { return key(a) < key(b); });
    const bool peer_gone =
        WIFEXITED(first->wait_status) && WEXITSTATUS(first->wait_status) == kExitPeerGone;
    return {RunOutcome::kFailed, first->global, *exit_failure(*first), peer_gone};
  }

  void check_hangs(Clock::time_point now) {
    const Rank* silent = nullptr;
    for (const auto& r : ranks_) {
      if (r.reaped || seconds_between(r.last_seen, now) <= options_.hang_timeout_s) continue;
      if (!silent || r.last_seen < silent->last_seen) silent = &r;
    }
    if (silent)
      begin_stop({RunOutcome::kFailed, silent->global,
                  "rank " + std::to_string(silent->global) + " made no progress for " +
                      format_seconds(options_.hang_timeout_s) + " s",
                  true},
                 now);
  }

  void begin_stop(Cause cause, Clock::time_point now) {
    cause_ = std::move(cause);
    signal_all(SIGTERM);
    kill_at_ = now + std::chrono::duration_cast<Clock::duration>(
                         std::chrono::duration<double>(std::max(0.0, options_.term_grace_s)));
  }

  std::vector<Rank>& ranks_;
  StepSink& sink_;
  const LaunchOptions& options_;
  std::optional<Cause> cause_;
  std::optional<RunEnd> end_;
  Step* step_;
  Clock::time_point kill_at_;
  bool killed_ = false;
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

void write_config(const config::RunConfig& config, const std::string& path) {
  write_private_file(path, to_json(config) + "\n");
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

// What the run ended as: the monitor's cause of a stop, else rank 0's end line.
LaunchResult result_of(const Monitor& monitor, const std::vector<Rank>& ranks,
                       const LaunchOptions& options) {
  LaunchResult result;
  for (const auto& r : ranks) result.pids.push_back(r.pid);
  if (!options.log_dir.empty()) result.log_dir = options.log_dir;
  const auto& end = monitor.end();
  if (end) result.samples_per_s = end->samples_per_s;
  if (const auto& cause = monitor.cause()) {
    result.outcome = cause->outcome;
    result.failed_rank = cause->rank;
    result.message = cause->message;
  } else if (end) {
    result.outcome = end->outcome;
    result.message = end->message;
    if (end->outcome == RunOutcome::kFailed) result.failed_rank = 0;
  } else if (options.node_rank == 0) {
    result.outcome = RunOutcome::kFailed;
    result.failed_rank = 0;
    result.message = "rank 0 exited without reporting the end of the run";
  }
  return result;
}

// Under Slurm the ranks are the tasks of one `srun`, which may run on other machines: the config
// and srun's log live in the run's log folder (beside the database: a shared disk on a cluster),
// the rendezvous is a TCPStore on the first host of the step (rank 0's), and the status lines
// come back through srun's stdout. Stop signals srun, which passes it to every task; a task
// left after the grace period is cancelled with the step (scancel --name).
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
  RunEnd final_end;
  final_end.outcome = result.outcome;
  final_end.message = result.message;
  final_end.samples_per_s = result.samples_per_s;
  sink.on_end(final_end);
  return result;
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

  Monitor monitor(ranks, sink, options_);
  monitor.run();

  LaunchResult result = result_of(monitor, ranks, options_);
  // A rank here lost a peer or hung, and rank 0 lives elsewhere: machine 0's store says whether
  // machine 0 is gone, cannot be reached, or is there (then another machine is gone).
  if (multi_node && options_.node_rank > 0 && monitor.cause() && monitor.cause()->peer_lost) {
    if (auto why = main_machine_gone(dist.master_addr, dist.master_port))
      result.message = *why + "; " + result.message;
  }
  RunEnd final_end;
  final_end.outcome = result.outcome;
  final_end.message = result.message;
  final_end.samples_per_s = result.samples_per_s;
  sink.on_end(final_end);
  return result;
}

}  // namespace parity::launch
