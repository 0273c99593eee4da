#pragma once
// Running parity-cli as a child process, and databases filled through storage for it to read.

#include <parity/config/run_config.h>
#include <parity/storage/database.h>
#include <parity/test_support/temp_dir.h>
#include <sys/types.h>

#include <cstdint>
#include <string>
#include <vector>

namespace parity::cli::testing {

/// A fresh folder under $TMPDIR (or /tmp), removed with everything in it on destruction.
using test_support::TempDir;

struct CliResult {
  int exit_code = -1;  ///< -1 when killed by a signal
  std::string out, err;
};

/// Runs parity-cli with args and waits. Its XDG_DATA_HOME is `data_home` (so a default database
/// never lands in the user's data folder); stdin is /dev/null. extra_env: "NAME=value" entries
/// that replace or add to the inherited environment (TMPDIR, ...).
CliResult run_cli(const std::vector<std::string>& args, const std::string& data_home,
                  const std::vector<std::string>& extra_env = {});

/// Starts parity-cli without waiting; stdout and stderr go to the given files.
pid_t start_cli(const std::vector<std::string>& args, const std::string& data_home,
                const std::string& out_path, const std::string& err_path,
                const std::vector<std::string>& extra_env = {});
/// Waits for a started parity-cli; returns its exit code (-1 for a signal).
int wait_cli(pid_t pid);

std::string read_file(const std::string& path);
bool contains(const std::string& text, const std::string& part);

/// `parity-cli run` with the launcher tests' fake worker, whose behaviour the label picks (ok,
/// exit1, sigkill, forever, ...), on the synthetic regression, quiet.
std::vector<std::string> fake_run(const std::string& db, const std::string& label,
                                  int processes = 2, int steps = 5);

/// A small valid config on the synthetic regression.
config::RunConfig tiny_config(const std::string& label, int processes, int64_t batch);

/// Adds a finished run with `steps` global rows of loss 1/step (plus rank rows) and one eval.
int64_t add_finished_run(storage::Database& db, const config::RunConfig& config, int steps,
                         double loss_scale = 1.0);

/// Whitespace-separated cells of the first line of `text` that starts with `prefix`; empty when
/// no line does.
std::vector<std::string> row_starting_with(const std::string& text, const std::string& prefix);

}  // namespace parity::cli::testing
