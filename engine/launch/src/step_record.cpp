#include <parity/launch/step_record.h>

namespace parity::launch {

std::string to_string(RunOutcome outcome) {
  switch (outcome) {
    case RunOutcome::kFinished:
      return "finished";
    case RunOutcome::kDiverged:
      return "diverged";
    case RunOutcome::kFailed:
      return "failed";
    case RunOutcome::kStopped:
      return "stopped";
  }
  return "unknown";
}

}  // namespace parity::launch
