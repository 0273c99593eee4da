#include <parity/storage/csv.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <nlohmann/json.hpp>
#include <set>

#include "statement.h"

namespace parity::storage {

using detail::Statement;

namespace {

bool iequals(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) == y;
         });
}

bool is_digit(char c) { return c >= '0' && c <= '9'; }

// Reads one consistent snapshot for the whole export, even while a writer commits. A savepoint
// rather than BEGIN so that it also nests inside a transaction the caller already has open.
class ReadSnapshot {
 public:
  explicit ReadSnapshot(sqlite3* db) : db_(db) { detail::exec(db_, "SAVEPOINT parity_export"); }
  ~ReadSnapshot() {
    sqlite3_exec(db_, "ROLLBACK TO parity_export; RELEASE parity_export", nullptr, nullptr,
                 nullptr);
  }
  ReadSnapshot(const ReadSnapshot&) = delete;
  ReadSnapshot& operator=(const ReadSnapshot&) = delete;

 private:
  sqlite3* db_;
};

std::vector<RunRow> select_runs(const Database& db, const std::vector<int64_t>& run_ids) {
  if (run_ids.empty()) return db.list_runs();
  std::vector<int64_t> ids = run_ids;
  std::sort(ids.begin(), ids.end());
  ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
  std::vector<RunRow> runs;
  for (int64_t id : ids) {
    auto run = db.get_run(id);
    if (!run) throw StorageError("CSV export: no run with id " + std::to_string(id));
    runs.push_back(std::move(*run));
  }
  return runs;
}

std::string format_optional(const std::optional<double>& value) {
  return value ? format_number(*value) : std::string();
}

// ISO 8601 in UTC with milliseconds; 0 (not yet) is an empty cell.
std::string format_time(double unix_seconds) {
  if (unix_seconds <= 0 || !std::isfinite(unix_seconds)) return {};
  const auto whole = static_cast<std::time_t>(std::floor(unix_seconds));
  const int millis = std::min(999, static_cast<int>((unix_seconds - whole) * 1000));
  std::tm tm{};
  gmtime_r(&whole, &tm);
  char buffer[40];
  const size_t n = std::strftime(buffer, sizeof buffer, "%Y-%m-%dT%H:%M:%S", &tm);
  char result[64];
  std::snprintf(result, sizeof result, "%.*s.%03dZ", static_cast<int>(n), buffer, millis);
  return result;
}

std::string config_cell(const nlohmann::json& value) {
  if (value.is_null()) return {};
  if (value.is_string()) return value.get<std::string>();
  // nlohmann writes numbers in their shortest exact form ("0.1") and ignores the C locale.
  return value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

void check_stream(std::ostream& out) {
  if (!out) throw StorageError("CSV export: writing to the output failed");
}

}  // namespace

bool is_plain_number(const std::string& value) {
  std::string_view s = value;
  if (!s.empty() && (s.front() == '+' || s.front() == '-')) s.remove_prefix(1);
  if (iequals(s, "inf") || iequals(s, "infinity") || iequals(s, "nan")) return true;
  size_t i = 0;
  size_t digits = 0;
  while (i < s.size() && is_digit(s[i])) ++i, ++digits;
  if (i < s.size() && s[i] == '.') {
    ++i;
    while (i < s.size() && is_digit(s[i])) ++i, ++digits;
  }
  if (digits == 0) return false;
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    ++i;
    if (i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
    const size_t exponent_start = i;
    while (i < s.size() && is_digit(s[i])) ++i;
    if (i == exponent_start) return false;
  }
  return i == s.size();
}

std::string csv_cell(const std::string& value) {
  std::string cell = value;
  if (!cell.empty() && std::string_view("=+-@\t\r").find(cell.front()) != std::string_view::npos &&
      !is_plain_number(cell)) {
    cell.insert(cell.begin(), '\'');
  }
  if (cell.find_first_of(",\"\r\n") == std::string::npos) return cell;
  std::string quoted = "\"";
  for (char c : cell) {
    if (c == '"') quoted += '"';
    quoted += c;
  }
  quoted += '"';
  return quoted;
}

void write_csv_row(std::ostream& out, const std::vector<std::string>& cells) {
  for (size_t i = 0; i < cells.size(); ++i) {
    if (i > 0) out << ',';
    out << csv_cell(cells[i]);
  }
  out << "\r\n";
}

std::string format_number(double value) {
  if (std::isnan(value)) return "nan";
  if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
  // to_chars with a precision is specified as printf's %.17g, but never reads the locale.
  char buffer[64];
  const auto result =
      std::to_chars(buffer, buffer + sizeof buffer, value, std::chars_format::general, 17);
  return std::string(buffer, result.ptr);
}

void write_curves_csv(const Database& db, const std::vector<int64_t>& run_ids, std::ostream& out,
                      bool include_ranks) {
  ReadSnapshot snapshot(db.handle());
  const std::vector<RunRow> runs = select_runs(db, run_ids);
  write_csv_row(out,
                {"run_id", "label", "step", "epoch", "samples", "rank", "loss", "lr", "time_s"});
  Statement st(db.handle(), include_ranks
                                ? "SELECT step, epoch, samples, rank, loss, lr, time_s FROM steps "
                                  "WHERE run_id = ?1 ORDER BY step, rank"
                                : "SELECT step, epoch, samples, rank, loss, lr, time_s FROM steps "
                                  "WHERE run_id = ?1 AND rank = -1 ORDER BY step");
  for (const auto& run : runs) {
    const std::string id = std::to_string(run.id);
    st.bind(1, run.id);
    while (st.step()) {
      write_csv_row(
          out,
          {id, run.label, std::to_string(st.column_int64(0)),
           format_number(st.column_double_or_nan(1)), std::to_string(st.column_int64(2)),
           std::to_string(st.column_int64(3)), format_number(st.column_double_or_nan(4)),
           format_number(st.column_double_or_nan(5)), format_number(st.column_double_or_nan(6))});
    }
    st.reset();
    check_stream(out);
  }
  out.flush();
  check_stream(out);
}

void write_runs_csv(const Database& db, const std::vector<int64_t>& run_ids, std::ostream& out) {
  write_runs_csv(db, run_ids, out, RunsCsvExtra{});
}

void write_runs_csv(const Database& db, const std::vector<int64_t>& run_ids, std::ostream& out,
                    const RunsCsvExtra& extra) {
  std::vector<RunRow> runs;
  {
    ReadSnapshot snapshot(db.handle());
    runs = select_runs(db, run_ids);
  }
  write_runs_csv(runs, out, extra);
}

void write_runs_csv(const std::vector<RunRow>& runs, std::ostream& out, const RunsCsvExtra& extra) {
  std::vector<nlohmann::json> configs;
  std::set<std::string> keys;
  for (const auto& run : runs) {
    // A config that is not a JSON object contributes no columns rather than failing the export.
    auto config = nlohmann::json::parse(run.config_json, nullptr, /*allow_exceptions=*/false);
    if (!config.is_object()) config = nlohmann::json::object();
    for (const auto& item : config.items()) keys.insert(item.key());
    configs.push_back(std::move(config));
  }

  std::vector<std::string> header = {
      "run_id",     "label",           "status",        "created_at", "finished_at",
      "error",      "notes",           "total_steps",   "steps_done", "samples_per_s",
      "final_loss", "final_eval_loss", "final_accuracy"};
  header.insert(header.end(), extra.columns.begin(), extra.columns.end());
  for (const auto& key : keys) header.push_back("config." + key);
  write_csv_row(out, header);

  for (size_t i = 0; i < runs.size(); ++i) {
    const RunRow& run = runs[i];
    std::vector<std::string> row = {std::to_string(run.id),
                                    run.label,
                                    std::string(to_string(run.status)),
                                    format_time(run.created_at),
                                    format_time(run.finished_at),
                                    run.error,
                                    run.notes,
                                    std::to_string(run.total_steps),
                                    std::to_string(run.steps_done),
                                    format_number(run.samples_per_s),
                                    format_optional(run.final_loss),
                                    format_optional(run.final_eval_loss),
                                    format_optional(run.final_accuracy)};
    const auto found = extra.values.find(run.id);
    for (size_t c = 0; c < extra.columns.size(); ++c) {
      const bool has = found != extra.values.end() && c < found->second.size();
      row.push_back(has ? found->second[c] : std::string());
    }
    for (const auto& key : keys) {
      const auto it = configs[i].find(key);
      row.push_back(it == configs[i].end() ? std::string() : config_cell(*it));
    }
    write_csv_row(out, row);
  }
  out.flush();
  check_stream(out);
}

}  // namespace parity::storage
