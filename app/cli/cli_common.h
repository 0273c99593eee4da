#pragma once
/// Small helpers shared by parity-cli's commands: the usage error, files, id lists, number
/// formatting, default paths and the mapping from a run's outcome to its stored status.

#include <parity/launch/step_record.h>
#include <parity/storage/run_status.h>

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace parity::cli {

/// Exit codes: 0 success (a finished run), 1 a run that did not finish or a runtime failure,
/// 2 a usage or config error (nothing was started or written).
constexpr int kExitOk = 0;
constexpr int kExitFailed = 1;
constexpr int kExitUsage = 2;

/// A command line that cannot be acted on (bad value, unreadable file, unknown run): exit 2.
class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// The whole file; throws UsageError naming the path when it cannot be read.
std::string read_text_file(const std::string& path);

/// "1,2,5" -> {1,2,5}; throws UsageError naming `what` for anything but positive integers.
std::vector<int64_t> parse_id_list(const std::string& text, const std::string& what);
/// One positive run id; throws UsageError.
int64_t parse_id(const std::string& text, const std::string& what);

/// "%.*g" of value; "nan"/"inf" as such; "" for nullopt.
std::string fmt(double value, int precision = 4);
std::string fmt(const std::optional<double>& value, int precision = 4);
/// Seconds as "1:05" or "1:02:03".
std::string fmt_duration(double seconds);

/// The stored run status for an outcome.
storage::RunStatus status_of(launch::RunOutcome outcome);

/// --db's default: storage's default database path.
std::string default_db_path();
/// The folder of a path ("." for a bare file name).
std::string parent_folder(const std::string& path);

/// The worker the launcher should start: `given` when set, else parity-worker beside this
/// executable (build/bin, or where it is installed). Throws UsageError when none exists.
std::string resolve_worker(const std::string& given);

}  // namespace parity::cli
