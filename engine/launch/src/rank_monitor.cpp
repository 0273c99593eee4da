#include "rank_monitor.h"

#include <parity/launch/run_folders.h>

#include <fstream>

namespace parity::launch::rank_monitor {

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

void write_config(const config::RunConfig& config, const std::string& path) {
  write_private_file(path, to_json(config) + "\n");
}

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

void report_end(StepSink& sink, const LaunchResult& result) {
  RunEnd end;
  end.outcome = result.outcome;
  end.message = result.message;
  end.samples_per_s = result.samples_per_s;
  sink.on_end(end);
}

}  // namespace parity::launch::rank_monitor
