#pragma once
/// Where a run came from: one vocabulary, stored beside its status (the runs table's `origin`
/// column, schema 5), for the database, the stored-runs bridge, parity-cli and the window.

#include <optional>
#include <string_view>

namespace parity::storage {

/// kEngine: Parity's engine trained it; kCommand: the user's own training command ran it;
/// kImported: read from a log (TensorBoard, the Trainer's state, MLflow, a table of steps).
enum class RunOrigin { kEngine, kCommand, kImported };

/// Every origin, in the order above.
inline constexpr RunOrigin kAllRunOrigins[] = {RunOrigin::kEngine, RunOrigin::kCommand,
                                               RunOrigin::kImported};

/// The stored and shown spelling: "engine", "command", "imported".
std::string_view to_string(RunOrigin origin);

/// The origin spelled `text`, or nothing when it is none of them.
std::optional<RunOrigin> parse_run_origin(std::string_view text);

}  // namespace parity::storage
