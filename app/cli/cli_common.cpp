#include "cli_common.h"

#include <parity/launch/rank_supervisor.h>
#include <parity/storage/database.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace parity::cli {

namespace fs = std::filesystem;

std::string read_text_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw UsageError("cannot read " + path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

int64_t parse_id(const std::string& text, const std::string& what) {
  size_t used = 0;
  long long v = 0;
  try {
    v = std::stoll(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used == 0 || used != text.size() || v <= 0)
    throw UsageError(what + ": '" + text + "' is not a run id (a positive integer)");
  return v;
}

std::vector<int64_t> parse_id_list(const std::string& text, const std::string& what) {
  std::vector<int64_t> ids;
  std::stringstream s(text);
  std::string item;
  while (std::getline(s, item, ',')) {
    if (item.empty()) continue;
    ids.push_back(parse_id(item, what));
  }
  return ids;
}

std::string fmt(double value, int precision) {
  if (std::isnan(value)) return "nan";
  if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*g", precision, value);
  return buf;
}

std::string fmt(const std::optional<double>& value, int precision) {
  return value ? fmt(*value, precision) : "";
}

std::string fmt_duration(double seconds) {
  if (!std::isfinite(seconds) || seconds < 0) return "?";
  long s = std::lround(seconds);
  char buf[32];
  if (s >= 3600)
    std::snprintf(buf, sizeof buf, "%ld:%02ld:%02ld", s / 3600, (s / 60) % 60, s % 60);
  else
    std::snprintf(buf, sizeof buf, "%ld:%02ld", s / 60, s % 60);
  return buf;
}

storage::RunStatus status_of(launch::RunOutcome outcome) {
  switch (outcome) {
    case launch::RunOutcome::kFinished:
      return storage::RunStatus::kFinished;
    case launch::RunOutcome::kDiverged:
      return storage::RunStatus::kDiverged;
    case launch::RunOutcome::kStopped:
      return storage::RunStatus::kStopped;
    case launch::RunOutcome::kFailed:
      break;
  }
  return storage::RunStatus::kFailed;
}

std::string default_db_path() { return storage::default_database_path(); }

std::string parent_folder(const std::string& path) {
  fs::path parent = fs::path(path).parent_path();
  return parent.empty() ? "." : parent.string();
}

std::string resolve_worker(const std::string& given) {
  if (!given.empty()) {
    if (::access(given.c_str(), X_OK) != 0)
      throw UsageError("parity-worker not found at " + given + "; build it or pass --worker");
    return given;
  }
  // Beside parity-cli is where both the build (build/bin) and an installation (/usr/bin) put it.
  const std::string beside = launch::executable_dir() + "/parity-worker";
  if (::access(beside.c_str(), X_OK) == 0) return beside;
  throw UsageError("parity-worker not found at " + beside + "; build it or pass --worker");
}

}  // namespace parity::cli
