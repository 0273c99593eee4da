#include <parity/config/python_json.h>
#include <parity/ingest/ingest_error.h>
#include <parity/ingest/params.h>
#include <parity/ingest/tensorboard_logdir.h>
#include <parity/ingest/trainer_state.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

#include "series.h"

namespace parity::ingest {

namespace fs = std::filesystem;
using config::Fact;
using nlohmann::json;

namespace {

// Python's json writes NaN, Infinity and -Infinity bare: config::quote_non_finite makes them
// strings before parsing, and config::python_number reads them back.
std::optional<double> number(const json& v) { return config::python_number(v); }

std::optional<int64_t> whole(const json& state, const char* key) {
  const auto it = state.find(key);
  if (it == state.end()) return std::nullopt;
  const auto v = number(*it);
  return v ? config::whole_number(*v) : std::nullopt;
}

json parse_state(std::string_view text, const std::string& source) {
  const json state =
      json::parse(config::quote_non_finite(text), nullptr, /*allow_exceptions=*/false);
  if (!state.is_object()) throw IngestError(source + ": not a JSON object");
  if (!state.contains("log_history") || !state["log_history"].is_array())
    throw IngestError(source + ": no log_history (not a Hugging Face trainer_state.json)");
  return state;
}

// The batch facts: the per-device batch from train_batch_size; processes x accumulation from the
// speed metrics of the final entry (global batch ~ samples/s / steps/s), when that is 1.
void fill_batch_facts(ImportedRun& run, const json& state, const json* final_entry,
                      const std::string& source) {
  auto& f = run.facts;
  const auto batch = whole(state, "train_batch_size");
  if (batch && *batch > 0) {
    f.per_device_batch_size = Fact<int64_t>::known(
        *batch, source + ": train_batch_size (per_device_train_batch_size x GPUs a process)");
  }
  if (const auto epochs = whole(state, "num_train_epochs"); epochs && *epochs > 0)
    f.epochs = Fact<int64_t>::known(*epochs, source + ": num_train_epochs");
  if (!final_entry || !batch || *batch <= 0) return;
  const auto samples = number(final_entry->value("train_samples_per_second", json()));
  const auto steps = number(final_entry->value("train_steps_per_second", json()));
  if (!samples || !steps || !(*steps > 0) || !std::isfinite(*samples)) return;
  const double global = *samples / *steps;
  const double per_batch = global / static_cast<double>(*batch);
  if (!(per_batch < 1e9)) return;  // no machine runs that: speed metrics that say nothing
  const auto rounded = static_cast<int64_t>(std::llround(per_batch));
  const std::string how =
      "train_samples_per_second / train_steps_per_second = " + param_number(global).text +
      " samples a step (" + source + ")";
  if (rounded == 1 && std::abs(per_batch - 1) < 0.05) {
    f.num_processes = Fact<int64_t>::derived(1, how + " = train_batch_size: one process");
    f.gradient_accumulation_steps = Fact<int64_t>::derived(1, how + " = train_batch_size");
  } else if (rounded > 1) {
    run.notes.push_back(
        how + ", about " + std::to_string(rounded) +
        " x train_batch_size: processes x accumulation = " + std::to_string(rounded) +
        " (--num-processes and --gradient-accumulation-steps say which)");
  }
}

}  // namespace

ImportedRun read_trainer_state(std::string_view json_text, const std::string& source,
                               const ImportOptions& options) {
  const json state = parse_state(json_text, source);
  ImportedRun run;
  run.format = "trainer_state";
  run.source_path = source;
  std::map<std::string, TagSeries> scalars;
  const json* final_entry = nullptr;
  for (const json& entry : state["log_history"]) {
    if (!entry.is_object()) continue;
    // The last entry's speed metrics and mean train_loss are the run's summary, not a point.
    if (entry.contains("train_runtime")) {
      final_entry = &entry;
      continue;
    }
    const auto step = whole(entry, "step");
    if (!step) continue;
    for (const auto& [key, value] : entry.items()) {
      const auto v = number(value);
      if (!v || key == "step") continue;
      TagSeries& s = scalars[key];
      s.steps.push_back(*step);
      s.values.push_back(*v);
    }
  }
  fill_batch_facts(run, state, final_entry, fs::path(source).filename().string());
  if (!run.facts.use_seedable_sampler.has_value()) {
    run.facts.use_seedable_sampler = Fact<bool>::derived(
        true, "transformers' Trainer default (accelerator_config.use_seedable_sampler)");
  }
  if (const auto steps = whole(state, "global_step"); steps && !scalars.count("loss")) {
    run.notes.push_back("no training loss logged up to step " + std::to_string(*steps) +
                        " (logging_steps " +
                        std::to_string(whole(state, "logging_steps").value_or(0)) + ")");
  }
  detail::build_points(run, scalars, options);
  return run;
}

TrainerStateRun::TrainerStateRun(std::string name, std::string folder_or_file)
    : name_(std::move(name)), path_(std::move(folder_or_file)) {}

namespace {
int64_t checkpoint_number(const std::string& name);
}  // namespace

std::string TrainerStateRun::output_dir() const {
  std::error_code ec;
  fs::path p(path_);
  if (fs::is_regular_file(p, ec)) p = p.parent_path();
  if (checkpoint_number(p.filename().string()) >= 0) p = p.parent_path();
  return p.string();
}

bool TrainerStateRun::holds_same_training(const RunReader& other) {
  const auto* tensorboard = dynamic_cast<const TensorBoardRun*>(&other);
  if (!tensorboard) return false;
  const std::string runs = (fs::path(output_dir()) / "runs").lexically_normal().string() + "/";
  const std::string folder = fs::path(tensorboard->folder()).lexically_normal().string();
  if ((folder + "/").rfind(runs, 0) != 0) return false;
  add_note("the TensorBoard files in " + tensorboard->folder() +
           " log the same training (the Trainer's report_to): not imported again");
  return true;
}

namespace {

// checkpoint-N's number, or -1 for any other name.
int64_t checkpoint_number(const std::string& name) {
  const std::string prefix = "checkpoint-";
  if (name.rfind(prefix, 0) != 0 || name.size() == prefix.size()) return -1;
  int64_t n = 0;
  for (size_t i = prefix.size(); i < name.size(); ++i) {
    if (name[i] < '0' || name[i] > '9') return -1;
    n = n * 10 + (name[i] - '0');
  }
  return n;
}

// The states a folder holds: its own trainer_state.json and each checkpoint-N's.
std::vector<std::pair<int64_t, std::string>> states_in(const fs::path& folder) {
  std::vector<std::pair<int64_t, std::string>> out;
  std::error_code ec;
  if (fs::is_regular_file(folder / "trainer_state.json", ec))
    out.emplace_back(std::numeric_limits<int64_t>::max(), (folder / "trainer_state.json").string());
  for (const auto& e : fs::directory_iterator(folder, ec)) {
    const int64_t n = checkpoint_number(e.path().filename().string());
    if (n >= 0 && fs::is_regular_file(e.path() / "trainer_state.json", ec))
      out.emplace_back(n, (e.path() / "trainer_state.json").string());
  }
  return out;
}

std::string read_text(const std::string& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) throw IngestError("cannot read " + file);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

int64_t global_step_of(const std::string& file) {
  try {
    return whole(parse_state(read_text(file), file), "global_step").value_or(-1);
  } catch (const IngestError&) {
    return -1;  // a file being written: the next read takes it
  }
}

}  // namespace

bool TrainerStateRun::poll() {
  std::error_code ec;
  // Newest first: the checkpoint with the highest number (by number, not by name), or
  // output_dir's own file when its global step is higher (trainer.save_state() after the last
  // checkpoint). A state still being written (half a file) is passed over for the one before.
  std::vector<std::pair<int64_t, std::string>> candidates;
  if (fs::is_directory(path_, ec)) {
    for (const auto& [n, file] : states_in(path_)) {
      const int64_t step = n == std::numeric_limits<int64_t>::max() ? global_step_of(file) : n;
      candidates.emplace_back(step, file);
    }
    std::sort(candidates.rbegin(), candidates.rend());
    if (candidates.empty()) throw IngestError(path_ + " holds no trainer_state.json");
  } else {
    candidates.emplace_back(0, path_);
  }
  std::string why;
  for (const auto& [step, file] : candidates) {
    const auto time = fs::last_write_time(file, ec);
    const int64_t size = ec ? -1 : static_cast<int64_t>(fs::file_size(file, ec));
    const int64_t stamp = ec ? -1 : static_cast<int64_t>(time.time_since_epoch().count());
    if (file == file_ && stamp == stamp_ && size == size_) return false;
    try {
      std::string text = read_text(file);
      parse_state(text, file);
      file_ = file;
      text_ = std::move(text);
      stamp_ = stamp;
      size_ = size;
      return true;
    } catch (const IngestError& e) {
      if (why.empty()) why = e.what();
    }
  }
  throw IngestError(why);
}

ImportedRun TrainerStateRun::run(const ImportOptions& options) const {
  if (text_.empty()) throw IngestError(path_ + ": not read yet");
  ImportedRun run = read_trainer_state(text_, file_, options);
  run.name = name_;
  std::error_code ec;
  run.identity = "trainer_state:" + fs::weakly_canonical(path_, ec).string();
  run.source_path = path_;
  if (file_ != path_) run.notes.push_back("read " + file_ + " (the newest state)");
  run.notes.insert(run.notes.end(), extra_notes_.begin(), extra_notes_.end());
  return run;
}

namespace {

void collect(const fs::path& root, const fs::path& folder, std::vector<TrainerStateRun>& out,
             int depth) {
  std::error_code ec;
  if (!states_in(folder).empty()) {
    std::string name = fs::relative(folder, root, ec).string();
    if (name.empty() || name == ".") name = folder.filename().string();
    out.emplace_back(name, folder.string());
    return;  // its checkpoint folders are its states, not runs
  }
  if (depth >= 6) return;
  std::vector<fs::path> children;
  for (const auto& e : fs::directory_iterator(folder, ec))
    if (e.is_directory(ec) && !e.is_symlink(ec)) children.push_back(e.path());
  std::sort(children.begin(), children.end());
  for (const auto& c : children) collect(root, c, out, depth + 1);
}

}  // namespace

std::vector<TrainerStateRun> find_trainer_state_runs(const std::string& path) {
  std::error_code ec;
  const fs::path p(path);
  std::vector<TrainerStateRun> out;
  if (fs::is_regular_file(p, ec)) {
    if (p.filename() == "trainer_state.json") out.emplace_back(p.parent_path().filename(), path);
    return out;
  }
  if (fs::is_directory(p, ec)) collect(p, p, out, 0);
  return out;
}

}  // namespace parity::ingest
