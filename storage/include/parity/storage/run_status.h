#pragma once
/// A run's status: one vocabulary for the database, parity-cli and the window.

#include <optional>
#include <string_view>

namespace parity::storage {

enum class RunStatus { kQueued, kRunning, kFinished, kFailed, kDiverged, kStopped };

/// Every status, in the order above.
inline constexpr RunStatus kAllRunStatuses[] = {RunStatus::kQueued,   RunStatus::kRunning,
                                                RunStatus::kFinished, RunStatus::kFailed,
                                                RunStatus::kDiverged, RunStatus::kStopped};

/// The stored and shown spelling: "queued", "running", "finished", "failed", "diverged",
/// "stopped".
std::string_view to_string(RunStatus status);

/// The status spelled `text`, or nothing when it is none of them.
std::optional<RunStatus> parse_run_status(std::string_view text);

/// Queued or running: the run has not ended (yet).
constexpr bool is_active(RunStatus status) {
  return status == RunStatus::kQueued || status == RunStatus::kRunning;
}

}  // namespace parity::storage
