#pragma once
/// Line protocol from a rank process to its launcher (one line per message, text, over a pipe).
/// Rank 0 sends start/step/eval/end; every rank sends heartbeats so the launcher can tell a hung
/// rank. Torch-free so the launcher and tests need no LibTorch.

#include <parity/launch/step_record.h>

#include <optional>
#include <string>
#include <variant>

namespace parity::launch {

struct Heartbeat {
  int rank = 0;
  int64_t step = 0;
};

using ProgressMessage = std::variant<RunStart, StepRecord, EvalRecord, RunEnd, Heartbeat>;

/// Encodes one message as a single line, '\n' included. Doubles are written with full precision
/// (round-trip exact), NaN and inf included.
std::string encode_line(const ProgressMessage& message);
/// Decodes one line (with or without '\n'); nullopt for a line that is not a message.
std::optional<ProgressMessage> decode_line(const std::string& line);

}  // namespace parity::launch
