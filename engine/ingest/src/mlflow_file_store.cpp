// MLflow's legacy file store (mlflow/store/tracking/file_store.py): `mlruns/<experiment_id>/`
// with the experiment's meta.yaml and one folder per run; each metric a file of lines appended as
// f"{timestamp} {value} {step}\n", each param and tag a file holding its value.
#include <parity/ingest/ingest_error.h>
#include <parity/ingest/mlflow.h>
#include <parity/ingest/params.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>

#include "mlflow_stores.h"

namespace parity::ingest {

namespace fs = std::filesystem;

namespace {

std::optional<std::string> read_small_file(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) return std::nullopt;
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// A folder's meta.yaml (experiment or run); nothing when it has none or it is no YAML mapping.
std::optional<ParamMap> read_meta(const fs::path& folder) {
  std::error_code ec;
  if (!fs::is_regular_file(folder / "meta.yaml", ec)) return std::nullopt;
  const auto text = read_small_file(folder / "meta.yaml");
  if (!text) return std::nullopt;
  ParamMap meta;
  try {
    params_from_yaml(*text, meta);
  } catch (const IngestError&) {
    return std::nullopt;
  }
  return meta;
}

std::string text_of(const ParamMap& meta, const char* key) {
  const auto it = meta.find(key);
  return it == meta.end() ? "" : it->second.text;
}

bool is_run(const ParamMap& meta) { return meta.count("run_id") || meta.count("run_uuid"); }
// A logged model's meta.yaml (MLflow 3: <experiment>/models/<model_id>) has a model_id.
bool is_experiment(const ParamMap& meta) {
  return !is_run(meta) && !meta.count("model_id") && meta.count("experiment_id") &&
         meta.count("name");
}
bool deleted(const ParamMap& meta) { return text_of(meta, "lifecycle_stage") == "deleted"; }

std::vector<fs::path> child_folders(const fs::path& folder) {
  std::vector<fs::path> out;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(folder, ec)) {
    if (e.path().filename().string().rfind('.', 0) == 0) continue;  // .trash: deleted
    if (e.is_directory(ec) && !e.is_symlink(ec)) out.push_back(e.path());
  }
  std::sort(out.begin(), out.end());
  return out;
}

void add_run(const fs::path& folder, const std::string& experiment,
             std::vector<detail::MlflowFound>& out) {
  const auto meta = read_meta(folder);
  if (!meta || !is_run(*meta) || deleted(*meta)) return;
  detail::MlflowFound f;
  f.experiment = experiment;
  f.run_id = text_of(*meta, "run_id");
  if (f.run_id.empty()) f.run_id = text_of(*meta, "run_uuid");
  // The tag holds the name as given; meta.yaml's run_name went through YAML's typing.
  if (const auto tag = read_small_file(folder / "tags" / "mlflow.runName")) f.run_name = *tag;
  if (f.run_name.empty()) f.run_name = text_of(*meta, "run_name");
  if (f.run_name.empty()) f.run_name = f.run_id;
  f.make = [folder = folder.string(), experiment, run_name = f.run_name](std::string name) {
    return std::make_unique<MlflowFileRun>(std::move(name), folder, experiment, run_name);
  };
  out.push_back(std::move(f));
}

void add_experiment(const fs::path& folder, const ParamMap& meta,
                    std::vector<detail::MlflowFound>& out) {
  if (deleted(meta)) return;
  std::string name = text_of(meta, "name");
  if (name.empty()) name = folder.filename().string();
  for (const fs::path& run : child_folders(folder)) add_run(run, name, out);
}

}  // namespace

namespace detail {

bool find_file_store_runs(const fs::path& folder, std::vector<MlflowFound>& out) {
  if (const auto meta = read_meta(folder)) {
    if (is_run(*meta)) {
      const auto experiment = read_meta(folder.parent_path());
      std::string name = experiment ? text_of(*experiment, "name") : "";
      if (experiment && deleted(*experiment)) return true;
      add_run(folder, name.empty() ? folder.parent_path().filename().string() : name, out);
      return true;
    }
    if (is_experiment(*meta)) {
      add_experiment(folder, *meta, out);
      return true;
    }
  }
  std::vector<std::pair<fs::path, ParamMap>> experiments;
  for (const fs::path& child : child_folders(folder)) {
    auto meta = read_meta(child);
    if (meta && is_experiment(*meta)) experiments.emplace_back(child, std::move(*meta));
  }
  if (experiments.empty() && folder.filename() != "mlruns") return false;
  for (const auto& [child, meta] : experiments) add_experiment(child, meta, out);
  return true;
}

}  // namespace detail

MlflowFileRun::MlflowFileRun(std::string name, std::string run_folder, std::string experiment,
                             std::string run_name)
    : name_(std::move(name)), folder_(std::move(run_folder)) {
  data_.experiment = std::move(experiment);
  data_.run_name = std::move(run_name);
  data_.run_id = fs::path(folder_).filename().string();
}

bool MlflowFileRun::poll() {
  std::error_code ec;
  if (!fs::is_directory(folder_, ec)) throw IngestError(folder_ + ": the run folder is gone");
  bool changed = read_params();
  const fs::path metrics = fs::path(folder_) / "metrics";
  std::vector<std::pair<std::string, std::string>> files;
  for (auto it = fs::recursive_directory_iterator(metrics, ec); !ec && it != fs::end(it);
       it.increment(ec)) {
    // A key with '/' is a sub-folder: metrics/train/loss is the key train/loss.
    if (it->is_regular_file(ec))
      files.emplace_back(it->path().lexically_relative(metrics).generic_string(), it->path());
  }
  for (const auto& [key, file] : files) changed = read_metric(key, file) || changed;
  return changed;
}

bool MlflowFileRun::read_metric(const std::string& key, const std::string& file) {
  std::error_code ec;
  const uint64_t size = fs::file_size(file, ec);
  if (ec) return false;
  uint64_t& offset = offsets_[key];
  if (size < offset) {  // written again from the start: read again
    data_.metrics.erase(key);
    offset = 0;
  }
  if (size == offset) return false;
  std::ifstream in(file, std::ios::binary);
  if (!in) throw IngestError("cannot read " + file);
  in.seekg(static_cast<std::streamoff>(offset));
  std::string chunk(size - offset, '\0');
  in.read(chunk.data(), static_cast<std::streamsize>(chunk.size()));
  chunk.resize(static_cast<size_t>(in.gcount()));
  // Only whole lines: a line still being written is left for the next read.
  const size_t last = chunk.rfind('\n');
  if (last == std::string::npos) return false;
  TagSeries& s = data_.metrics[key];
  for (size_t start = 0; start <= last;) {
    const size_t end = chunk.find('\n', start);
    int64_t timestamp = 0, step = 0;
    double value = 0;
    if (parse_mlflow_metric_line(std::string_view(chunk).substr(start, end - start), &timestamp,
                                 &value, &step)) {
      s.steps.push_back(step);
      s.values.push_back(value);
      s.wall_times.push_back(static_cast<double>(timestamp) / 1000.0);
    } else if (chunk.find_first_not_of(" \t\r", start) < end) {
      ++data_.bad_lines;
    }
    start = end + 1;
  }
  offset += last + 1;
  return true;
}

bool MlflowFileRun::read_params() {
  // Params are written once and never change: only the files not read yet are read.
  std::error_code ec;
  const fs::path params = fs::path(folder_) / "params";
  bool changed = false;
  for (auto it = fs::recursive_directory_iterator(params, ec); !ec && it != fs::end(it);
       it.increment(ec)) {
    if (!it->is_regular_file(ec)) continue;
    const std::string key = it->path().lexically_relative(params).generic_string();
    if (data_.params.count(key)) continue;
    if (auto value = read_small_file(it->path())) {
      data_.params[key] = std::move(*value);
      changed = true;
    }
  }
  return changed;
}

ImportedRun MlflowFileRun::run(const ImportOptions& options) const {
  ImportedRun run = mlflow_imported_run(data_, folder_, options);
  run.name = name_;
  return run;
}

}  // namespace parity::ingest
