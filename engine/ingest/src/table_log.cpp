#include <parity/config/data_sizes.h>
#include <parity/config/python_json.h>
#include <parity/ingest/ingest_error.h>
#include <parity/ingest/table_log.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

#include "series.h"
#include "utf8.h"

namespace parity::ingest {

namespace fs = std::filesystem;

namespace {

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

bool parse_cell(const std::string& cell, double* v) {
  if (cell.empty()) return false;
  const std::string l = lower(cell);
  if (l == "nan") {
    *v = std::numeric_limits<double>::quiet_NaN();
    return true;
  }
  char* end = nullptr;
  *v = std::strtod(cell.c_str(), &end);
  return end && *end == '\0';
}

// A table's runs: columns -> series, per run (W&B's "<run> - <metric>"; else one run "").
struct Table {
  std::map<std::string, std::map<std::string, TagSeries>> runs;
  int64_t bad_cells = 0;
};

// TensorBoard names a downloaded series run-<run>-tag-<tag>.csv; the tag's '/' became '_'.
std::string tensorboard_tag(const std::string& file) {
  const std::string stem = fs::path(file).stem().string();
  const auto at = stem.find("-tag-");
  return at == std::string::npos ? "loss" : stem.substr(at + 5);
}

Table read_csv_table(std::string_view text, const std::string& file) {
  Table t;
  std::istringstream in{std::string(text)};
  std::string line;
  if (!std::getline(in, line)) return t;
  const std::vector<std::string> header = config::split_csv_line(line);
  int step_col = -1;
  for (size_t i = 0; i < header.size(); ++i)
    if (lower(header[i]) == "step") step_col = static_cast<int>(i);
  if (step_col < 0) return t;
  const bool tensorboard =
      header.size() == 3 && lower(header[0]) == "wall time" && lower(header[2]) == "value";
  // Each other column's run and series.
  std::vector<std::pair<std::string, std::string>> target(header.size());
  for (size_t i = 0; i < header.size(); ++i) {
    if (static_cast<int>(i) == step_col) continue;
    std::string name = header[i];
    if (tensorboard) {
      if (i == 2) target[i] = {"", tensorboard_tag(file)};
      continue;
    }
    if (name.size() > 5 &&
        (name.substr(name.size() - 5) == "__MIN" || name.substr(name.size() - 5) == "__MAX"))
      continue;  // W&B's sampled band around the series
    const auto dash = name.find(" - ");
    target[i] = dash == std::string::npos ? std::pair<std::string, std::string>{"", name}
                                          : std::pair<std::string, std::string>{
                                                name.substr(0, dash), name.substr(dash + 3)};
  }
  while (std::getline(in, line)) {
    if (line.empty() || line == "\r") continue;
    const std::vector<std::string> cells = config::split_csv_line(line);
    double v_step = 0;
    std::optional<int64_t> step;
    if (static_cast<size_t>(step_col) < cells.size() && parse_cell(cells[step_col], &v_step))
      step = config::whole_number(v_step);
    if (!step) {
      ++t.bad_cells;
      continue;
    }
    for (size_t i = 0; i < cells.size() && i < target.size(); ++i) {
      if (target[i].second.empty()) continue;
      double v = 0;
      if (cells[i].empty()) continue;  // no value at this step
      if (!parse_cell(cells[i], &v)) {
        ++t.bad_cells;
        continue;
      }
      TagSeries& s = t.runs[target[i].first][target[i].second];
      s.steps.push_back(*step);
      s.values.push_back(v);
    }
  }
  return t;
}

Table read_jsonl_table(std::string_view text) {
  Table t;
  std::istringstream in{std::string(text)};
  std::string line;
  bool any_step = false;
  while (std::getline(in, line)) {
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    const auto j = nlohmann::json::parse(config::quote_non_finite(line), nullptr, false);
    if (!j.is_object() || !j.contains("step")) {
      ++t.bad_cells;
      continue;
    }
    const auto number = config::python_number(j["step"]);
    const auto step = number ? config::whole_number(*number) : std::nullopt;
    if (!step) {
      ++t.bad_cells;
      continue;
    }
    any_step = true;
    for (const auto& [key, value] : j.items()) {
      if (key == "step") continue;
      const auto v = config::python_number(value);
      if (!v) continue;
      TagSeries& s = t.runs[""][key];
      s.steps.push_back(*step);
      s.values.push_back(*v);
    }
  }
  if (!any_step) t.runs.clear();
  return t;
}

bool is_jsonl(const std::string& file) {
  const std::string ext = lower(fs::path(file).extension().string());
  return ext == ".jsonl" || ext == ".ndjson";
}

}  // namespace

std::vector<ImportedRun> read_table_log(std::string_view text, const std::string& file,
                                        const ImportOptions& options) {
  if (text.find('\0') != std::string_view::npos) throw IngestError(file + ": not a text file");
  const std::string utf8 = valid_utf8(text);  // a name that is not UTF-8 is shown repaired
  const Table t = is_jsonl(file) ? read_jsonl_table(utf8) : read_csv_table(utf8, file);
  std::vector<ImportedRun> out;
  for (const auto& [run_name, scalars] : t.runs) {
    ImportedRun run;
    run.name = run_name.empty() ? fs::path(file).stem().string() : run_name;
    run.format = is_jsonl(file) ? "jsonl" : "csv";
    run.source_path = file;
    if (t.bad_cells > 0)
      run.notes.push_back(std::to_string(t.bad_cells) + " cell(s) or line(s) of " + file +
                          " are not numbers: skipped");
    detail::build_points(run, scalars, options);
    out.push_back(std::move(run));
  }
  return out;
}

TableLogRun::TableLogRun(std::string name, std::string file, std::string run_in_file)
    : name_(std::move(name)), file_(std::move(file)), run_in_file_(std::move(run_in_file)) {}

bool TableLogRun::poll() {
  std::error_code ec;
  const long long size = static_cast<long long>(fs::file_size(file_, ec));
  if (ec) throw IngestError("cannot read " + file_ + ": " + ec.message());
  const long long stamp =
      static_cast<long long>(fs::last_write_time(file_, ec).time_since_epoch().count());
  if (stamp == stamp_ && size == size_) return false;
  std::ifstream in(file_, std::ios::binary);
  if (!in) throw IngestError("cannot read " + file_);
  std::stringstream ss;
  ss << in.rdbuf();
  std::string text = ss.str();
  // A line still being written is left for the next read.
  if (const auto nl = text.rfind('\n'); nl != std::string::npos) text.resize(nl + 1);
  text_ = std::move(text);
  stamp_ = stamp;
  size_ = size;
  return true;
}

ImportedRun TableLogRun::run(const ImportOptions& options) const {
  for (ImportedRun& r : read_table_log(text_, file_, options)) {
    const std::string in_file = r.name;
    if (!run_in_file_.empty() && in_file != run_in_file_) continue;
    r.name = name_;
    std::error_code ec;
    r.identity = "table:" + fs::weakly_canonical(file_, ec).string() +
                 (run_in_file_.empty() ? "" : "#" + run_in_file_);
    return r;
  }
  throw IngestError(file_ + ": no run " + (run_in_file_.empty() ? name_ : run_in_file_));
}

std::vector<TableLogRun> find_table_log_runs(const std::string& path) {
  std::vector<std::string> files;
  std::error_code ec;
  const auto table_file = [](const fs::path& p) {
    const std::string ext = lower(p.extension().string());
    return ext == ".csv" || ext == ".jsonl" || ext == ".ndjson";
  };
  if (fs::is_regular_file(path, ec)) {
    if (table_file(path)) files.push_back(path);
  } else if (fs::is_directory(path, ec)) {
    for (auto it = fs::recursive_directory_iterator(path, ec); !ec && it != fs::end(it);
         it.increment(ec)) {
      if (it->is_regular_file(ec) && table_file(it->path())) files.push_back(it->path().string());
    }
    std::sort(files.begin(), files.end());
  }
  std::vector<TableLogRun> out;
  for (const std::string& file : files) {
    std::ifstream in(file, std::ios::binary);
    // The first line says whether it is a table of steps at all: a data file is not read whole.
    std::string first;
    std::getline(in, first);
    const std::vector<std::string> header = config::split_csv_line(first);
    const bool steps = is_jsonl(file)
                           ? first.find("\"step\"") != std::string::npos
                           : std::any_of(header.begin(), header.end(),
                                         [](const std::string& c) { return lower(c) == "step"; });
    if (!steps) continue;
    in.clear();
    in.seekg(0);
    std::stringstream ss;
    ss << in.rdbuf();
    std::vector<ImportedRun> runs;
    try {
      runs = read_table_log(ss.str(), file);
    } catch (const IngestError&) {
      continue;  // not text: no table log
    }
    const std::string rel = fs::path(file).lexically_relative(path).string();
    const std::string base = rel.empty() || rel == "." ? fs::path(file).stem().string()
                                                       : fs::path(rel).replace_extension().string();
    for (const ImportedRun& r : runs) {
      const bool several = runs.size() > 1 || r.name != fs::path(file).stem().string();
      out.emplace_back(several ? base + "/" + r.name : base, file, several ? r.name : "");
    }
  }
  return out;
}

}  // namespace parity::ingest
