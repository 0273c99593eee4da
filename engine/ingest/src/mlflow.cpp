// MLflow runs, whichever store holds them: what a run logged to an imported run (the same for
// both stores), and the stores found under a path.
#include <parity/ingest/ingest_error.h>
#include <parity/ingest/mlflow.h>
#include <parity/ingest/params.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <vector>

#include "mlflow_stores.h"
#include "series.h"

namespace parity::ingest {

namespace fs = std::filesystem;
using config::Fact;

namespace {

// MLflow keeps every param as text (str(value)): numbers and Python's True/False are read back.
ParamValue mlflow_param(const std::string& text) {
  ParamValue p = param_text(text);
  char* end = nullptr;
  const double d = std::strtod(text.c_str(), &end);
  if (!text.empty() && !std::isspace(static_cast<unsigned char>(text[0])) && end && *end == '\0')
    p.number = d;
  return p;
}

// The Hugging Face Trainer's last log (its train() summary) is no point of the curve: its
// train_loss is the mean over the whole run (trainer_state.json's final entry, the same logs).
const char* const kHfSummary[] = {"train_runtime", "train_samples_per_second",
                                  "train_steps_per_second", "total_flos", "train_loss"};

// TrainingArguments as MLflowCallback logs them (args.to_dict()); its accelerator_config is one
// param holding a Python dict's repr unless MLFLOW_FLATTEN_PARAMS flattened it.
void fill_hf_facts(ImportedRun& run, const MlflowRunData& d) {
  const bool training_arguments =
      d.params.count("per_device_train_batch_size") && d.params.count("logging_steps");
  if (!training_arguments || run.facts.use_seedable_sampler.has_value()) return;
  if (const auto it = d.params.find("accelerator_config"); it != d.params.end()) {
    for (const bool v : {true, false}) {
      if (it->second.find(std::string("'use_seedable_sampler': ") + (v ? "True" : "False")) !=
          std::string::npos) {
        run.facts.use_seedable_sampler =
            Fact<bool>::known(v, "MLflow params: accelerator_config.use_seedable_sampler");
        return;
      }
    }
  }
  run.facts.use_seedable_sampler = Fact<bool>::derived(
      true, "transformers' Trainer default (accelerator_config.use_seedable_sampler)");
}

}  // namespace

bool parse_mlflow_metric_line(std::string_view line, int64_t* timestamp_ms, double* value,
                              int64_t* step) {
  std::vector<std::string> fields;
  size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && std::isspace(static_cast<unsigned char>(line[i]))) ++i;
    const size_t start = i;
    while (i < line.size() && !std::isspace(static_cast<unsigned char>(line[i]))) ++i;
    if (i > start) fields.emplace_back(line.substr(start, i - start));
  }
  if (fields.size() != 2 && fields.size() != 3) return false;
  const auto whole = [](const std::string& s, int64_t* out) {
    char* end = nullptr;
    errno = 0;
    *out = std::strtoll(s.c_str(), &end, 10);
    return end && *end == '\0' && errno == 0;
  };
  char* end = nullptr;
  *value = std::strtod(fields[1].c_str(), &end);
  if (!end || *end != '\0') return false;
  *step = 0;  // file_store.py reads a line without a step as step 0
  return whole(fields[0], timestamp_ms) && (fields.size() == 2 || whole(fields[2], step));
}

ImportedRun mlflow_imported_run(const MlflowRunData& d, const std::string& store,
                                const ImportOptions& options) {
  ImportedRun run;
  run.name = d.experiment + "/" + d.run_name;
  run.format = "mlflow";
  run.source_path = store;
  std::error_code ec;
  run.identity = "mlflow:" + fs::weakly_canonical(store, ec).string() + "#" + d.run_id;
  ParamMap params;
  for (const auto& [key, value] : d.params) params[key] = mlflow_param(value);
  fill_facts(run.facts, params, "MLflow params");
  fill_hf_facts(run, d);
  if (d.bad_lines > 0) {
    run.notes.push_back(std::to_string(d.bad_lines) +
                        " metric line(s) are not \"timestamp value step\": skipped");
  }
  std::map<std::string, TagSeries> scalars = d.metrics;
  if (scalars.count("train_runtime")) {
    bool dropped = false;
    for (const char* key : kHfSummary) {
      if (key == options.loss_tag) continue;
      dropped = scalars.erase(key) > 0 || dropped;
    }
    if (dropped) {
      run.notes.push_back(
          "the Hugging Face Trainer's end-of-training summary (train_loss = the run's mean, "
          "train_runtime, ...) is no point of the curve: left out");
    }
  }
  detail::build_points(run, scalars, options);
  detail::derive_lr_scaling(run);
  return run;
}

namespace {

bool sqlite_name(const fs::path& p) {
  std::string ext = p.extension().string();
  for (char& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return ext == ".db" || ext == ".sqlite" || ext == ".sqlite3";
}

void collect(const fs::path& folder, int depth, std::vector<detail::MlflowFound>& out) {
  if (detail::find_file_store_runs(folder, out)) return;
  std::error_code ec;
  std::vector<fs::path> files, folders;
  for (const auto& e : fs::directory_iterator(folder, ec)) {
    if (e.path().filename().string().rfind('.', 0) == 0) continue;  // .trash, .git, ...
    if (e.is_directory(ec) && !e.is_symlink(ec))
      folders.push_back(e.path());
    else if (e.is_regular_file(ec) && sqlite_name(e.path()))
      files.push_back(e.path());
  }
  std::sort(files.begin(), files.end());
  std::sort(folders.begin(), folders.end());
  for (const fs::path& f : files) detail::find_sqlite_runs(f.string(), out);
  if (depth >= 4) return;
  for (const fs::path& f : folders) collect(f, depth + 1, out);
}

}  // namespace

RunReaders find_mlflow_runs(const std::string& path) {
  std::error_code ec;
  if (!fs::exists(path, ec)) throw IngestError(path + " does not exist");
  std::vector<detail::MlflowFound> found;
  if (fs::is_regular_file(path, ec)) {
    if (sqlite_name(path)) detail::find_sqlite_runs(path, found);
  } else if (fs::is_directory(path, ec)) {
    collect(path, 0, found);
  }
  // MLflow lets runs share a name (the Trainer names each run after its output_dir): those are
  // told apart by their id.
  std::map<std::string, int> uses;
  for (const auto& f : found) ++uses[f.experiment + "/" + f.run_name];
  std::vector<std::unique_ptr<RunReader>> out;
  for (auto& f : found) {
    std::string name = f.experiment + "/" + f.run_name;
    if (uses[name] > 1) name += " (" + f.run_id.substr(0, 8) + ")";
    out.push_back(f.make(name));
  }
  return out;
}

}  // namespace parity::ingest
