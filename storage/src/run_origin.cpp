#include <parity/storage/run_origin.h>

namespace parity::storage {

std::string_view to_string(RunOrigin origin) {
  switch (origin) {
    case RunOrigin::kEngine:
      return "engine";
    case RunOrigin::kCommand:
      return "command";
    case RunOrigin::kImported:
      return "imported";
  }
  return "unknown";
}

std::optional<RunOrigin> parse_run_origin(std::string_view text) {
  for (RunOrigin o : kAllRunOrigins) {
    if (to_string(o) == text) return o;
  }
  return std::nullopt;
}

}  // namespace parity::storage
