#pragma once
// Private to parity_launch: watching the ranks of one run to their end, whoever started them (this
// process, one child per rank; or srun, one Slurm job step whose tasks are the ranks): their
// status lines, exits, hangs, the stop flag and the sink's failure, and what the run ended as.
#include <parity/config/run_config.h>
#include <parity/launch/launch_options.h>
#include <parity/launch/progress_protocol.h>
#include <parity/launch/worker_contract.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include "rank_process.h"

namespace parity::launch::rank_monitor {

using namespace rank_process;
using Clock = std::chrono::steady_clock;

inline double seconds_between(Clock::time_point a, Clock::time_point b) {
  return std::chrono::duration<double>(b - a).count();
}

inline std::string format_seconds(double s) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", s);
  return buf;
}

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
int64_t oom_kills(const std::string& file);

/// Where the kernel counts the OOM kills of the processes of this one's memory cgroup, which the
/// ranks are born in (rank_monitor.cpp says which file and why).
std::string oom_counter_file();

/// Signals a rank's whole process group (the worker may have children of its own).
inline void signal_rank(const Rank& r, int sig) {
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
std::optional<std::string> exit_failure(const Rank& r);

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
  void run();

  const std::optional<Cause>& cause() const { return cause_; }
  const std::optional<RunEnd>& end() const { return end_; }

 private:
  void poll_once(int timeout_ms);

  // srun's stdout: "RANK: line" (the rank right-aligned to the widest), handed to that rank.
  void drain_step();

  // srun ended: every rank with it. A failure names the rank whose own line says why.
  void watch_step(Clock::time_point now);

  void signal_all(int sig);

  // Reads what is available (the read ends are non-blocking) and handles complete lines.
  void drain(Rank& r);

  void handle_line(Rank& r, const std::string& line);

  // Progress, not chatter, keeps a rank from being declared hung: a heartbeat or step record past
  // the highest step the rank reported (the first heartbeat is step 0), or a start, evaluation or
  // end. A line that is no message, or a heartbeat repeating a step, is not progress.
  static bool is_progress(Rank& r, const ProgressMessage& message);

  // Among ranks found dead in the same sweep, the one whose pipe closed first is the cause (the
  // others usually died of losing it); then a signal beats an exit code, then the lower rank.
  Cause first_failure(const std::vector<Rank*>& failed, Clock::time_point now);

  void check_hangs(Clock::time_point now);

  void begin_stop(Cause cause, Clock::time_point now);

  std::vector<Rank>& ranks_;
  StepSink& sink_;
  const LaunchOptions& options_;
  std::optional<Cause> cause_;
  std::optional<RunEnd> end_;
  Step* step_;
  bool step_started_ = false;  ///< a task has reported (the step left Slurm's queue)
  Clock::time_point kill_at_;
  bool killed_ = false;
};

/// The run's config as the ranks read it (PARITY_CONFIG), written private.
void write_config(const config::RunConfig& config, const std::string& path);

/// What the run ended as: the monitor's cause of a stop, else rank 0's end line.
LaunchResult result_of(const Monitor& monitor, const std::vector<Rank>& ranks,
                       const LaunchOptions& options);

/// The sink's one on_end, with the run's final outcome (not necessarily rank 0's).
void report_end(StepSink& sink, const LaunchResult& result);

}  // namespace parity::launch::rank_monitor
