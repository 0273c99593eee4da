#include <parity/storage/run_status.h>

namespace parity::storage {

std::string_view to_string(RunStatus status) {
  switch (status) {
    case RunStatus::kQueued:
      return "queued";
    case RunStatus::kRunning:
      return "running";
    case RunStatus::kFinished:
      return "finished";
    case RunStatus::kFailed:
      return "failed";
    case RunStatus::kDiverged:
      return "diverged";
    case RunStatus::kStopped:
      return "stopped";
  }
  return "unknown";
}

std::optional<RunStatus> parse_run_status(std::string_view text) {
  for (RunStatus s : kAllRunStatuses) {
    if (to_string(s) == text) return s;
  }
  return std::nullopt;
}

}  // namespace parity::storage
