#pragma once
/// Who supervises a run: the launcher process that recorded it (parity-cli), identified well enough
/// that any later reader can tell whether it is still alive. A pid alone is not enough (pids are
/// reused, and a database may be read from another machine or after a reboot), so the identity is
/// (host, boot id, pid, the process's start time), and a live supervisor refreshes a heartbeat.
/// POSIX and Linux /proc; no SQLite here.

#include <cstdint>
#include <string>

namespace parity::storage {

/// How often a live supervisor refreshes runs.heartbeat_at (the StepWriter does it).
inline constexpr double kHeartbeatIntervalS = 5;
/// A supervisor on another host whose heartbeat is older than this is taken as gone. Well over the
/// interval and over the default wait for a locked database (StepWriterOptions::busy_wait_s), so
/// a supervisor waiting out a lock is never mistaken for a dead one.
inline constexpr double kStaleHeartbeatS = 300;

struct SupervisorIdentity {
  int64_t pid = 0;         ///< 0 = no supervisor recorded
  std::string host;        ///< gethostname()
  std::string boot_id;     ///< /proc/sys/kernel/random/boot_id, "" when unreadable
  int64_t start_time = 0;  ///< /proc/<pid>/stat field 22 (clock ticks since boot), 0 = unknown

  /// This process.
  static SupervisorIdentity current();
  /// One line, "pid start_time host boot_id", and back; parse() returns pid 0 for anything else.
  std::string to_text() const;
  static SupervisorIdentity parse(const std::string& text);
};

/// Whether the supervisor `who`, whose last heartbeat was at heartbeat_at (unix seconds), is gone:
/// on this host and boot, its pid is dead or now belongs to a process that started at another time;
/// on this host after a reboot, always; on another host, when its heartbeat is older than
/// stale_after_s. A record without a pid is never gone (nobody claimed the run).
bool supervisor_gone(const SupervisorIdentity& who, double heartbeat_at, double now,
                     double stale_after_s = kStaleHeartbeatS);

/// The start time of process pid (/proc/<pid>/stat field 22), 0 when it cannot be read.
int64_t process_start_time(int64_t pid);

}  // namespace parity::storage
