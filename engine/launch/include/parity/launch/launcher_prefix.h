#pragma once
/// The prefixes launchers put before each line of their processes' output, so that a PARITY line
/// passed on by a launcher is still read, and read once (torch-free):
/// - torchrun with `--tee` (`python3 -m torch.distributed.run --redirects 2 --tee 1`, torch 1.13
///   and 2.x): `[default0]:`, the worker's role and local rank, or `[rank0]:` as torch 2's
///   processes and `--log-line-prefix-template '[rank${rank}]:'` write it;
/// - srun `--label`: the task number, right-aligned to the widest, then ": " (`0: `, ` 0: ` when
///   there are 10 tasks or more).
/// Launchers nest them as they nest each other: `srun --label torchrun --tee 3` writes
/// `1: [default0]:PARITY ...` for the local rank 0 of task 1, which is not rank 0.

#include <optional>
#include <string_view>
#include <utility>

namespace parity::launch {

/// A line with its launcher prefixes taken off.
struct LauncherLine {
  std::string_view text;   ///< what the process itself printed (the line behind every prefix)
  int prefixes = 0;        ///< how many launcher prefixes it had
  bool from_rank0 = true;  ///< every prefix names process 0 (true for a line without one)
};

/// Takes off every launcher prefix at the start of `line`, outermost first. A line without one is
/// itself (prefixes 0, from_rank0). `[INFO]:` (no number), `12 : ` or `x0: ` are not prefixes.
LauncherLine strip_launcher_prefixes(std::string_view line);

/// srun --label's prefix alone: the task number and the text behind "N: ", or nullopt when the
/// line does not start with one (spaces, digits, ": ").
std::optional<std::pair<int, std::string_view>> split_srun_label(std::string_view line);

}  // namespace parity::launch
