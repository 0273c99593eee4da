#pragma once
// Helpers of the fault tests: processes that must be gone, folders that must not leak, a small
// tmpfs to fill or to make read-only (root only; tests skip with a message elsewhere).

#include <parity/test_support/small_tmpfs.h>
#include <sys/types.h>

#include <chrono>
#include <functional>
#include <string>
#include <vector>

namespace parity::cli::testing {

/// Whether pid is a live process (a zombie is not: it has died and awaits its parent).
bool process_alive(pid_t pid);

/// The rank pids the fake worker wrote ("PID=<n>") into <log_dir>/rank*.log.
std::vector<pid_t> rank_pids(const std::string& log_dir);

/// The names under folder that start with "parity-run-" (private run folders).
std::vector<std::string> run_folders_in(const std::string& folder);

/// Polls `done` every 10 ms until it holds or `limit` passes; returns its last value.
bool wait_for(const std::function<bool()>& done, std::chrono::milliseconds limit);

/// The run's row as parity-cli's own store reads it, polled without holding a connection open.
int64_t steps_done_of(const std::string& db_path, int64_t run_id);

using test_support::SmallTmpfs;

/// A memory cgroup of its own (cgroup v1's memory controller, or v2's) limited to `bytes`,
/// removed on destruction once its processes are gone. made() is false, with why(), where none
/// can be made (not root, no memory controller).
class MemoryCgroup {
 public:
  explicit MemoryCgroup(long long bytes);
  ~MemoryCgroup();
  MemoryCgroup(const MemoryCgroup&) = delete;
  MemoryCgroup& operator=(const MemoryCgroup&) = delete;
  bool made() const { return !path_.empty(); }
  const std::string& why() const { return why_; }
  /// Moves `pid` into the cgroup (its later children are born there); into its parent, the
  /// hierarchy's root, with leave().
  bool enter(pid_t pid);
  bool leave(pid_t pid);

 private:
  std::string root_, path_, why_;
};

}  // namespace parity::cli::testing
