#pragma once
// Where a job's start-up time goes, for bench/startup_bench.sh.

namespace parity::launch {

/// PARITY_STARTUP_TRACE=1: the launcher and every rank mark their start-up phases.
inline constexpr char kEnvStartupTrace[] = "PARITY_STARTUP_TRACE";

/// With PARITY_STARTUP_TRACE=1 in the environment, writes "parity-startup WHO PHASE T" to stderr
/// (a rank's log), T the wall clock in seconds since the epoch, so the launcher's marks and its
/// ranks' line up. WHO is "rank<RANK>" in a process with RANK set, else "launcher". Off (the
/// default), a mark costs one test of a flag read once.
void startup_mark(const char* phase);

/// With PARITY_STARTUP_TRACE=1: writes "parity-startup-rss WHO KB anon A file F shmem S pss P" to
/// stderr: KB this process's peak resident set so far (VmHWM), then its resident kB now by kind
/// and its proportional set size (smaps_rollup), which shares pages between the processes mapping
/// them.
void startup_peak_rss();

}  // namespace parity::launch
