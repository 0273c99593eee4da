#pragma once
/// How a setup is named and described, one way for the CLI and the window.

#include <parity/config/run_config.h>
#include <parity/config/run_facts.h>

#include <string>

namespace parity::config {

/// The label a setup gets until the user names it: "2x64", "2x64 acc2 bf16 lr linear",
/// "2x64 split".
std::string default_label(const RunConfig& config);

/// The shape of one optimizer step: "2 × 64", "2 × 64 × 4" with accumulation, "64 split in 2".
std::string shape_text(const RunConfig& config);

/// One line that says what a run does: "2×64 acc 2 = 256 lr linear bf16 seed 42" (the global
/// batch after "=", then what differs from fp32, unscaled lr and the CPU).
std::string describe_setup(const RunConfig& config);

/// The same line for a run known by its facts (imported, or the user's own command): a fact
/// without a value is "?" ("?×16 = ? seed 42"); derived values are written as known ones.
std::string describe_setup(const RunFacts& facts);

/// The data a run trained on, in a few words: "fashion-mnist", "train.csv", "tokens.jsonl"
/// (a file's name, without its folder); the dataset's own name when no path is given.
std::string describe_data(const RunConfig& config);

}  // namespace parity::config
