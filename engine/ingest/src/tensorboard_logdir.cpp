// A TensorBoard logdir's runs, with Accelerate's and torch's child folders folded into their
// parent run (see tensorboard_logdir.h).
#include <parity/ingest/ingest_error.h>
#include <parity/ingest/tensorboard_logdir.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <system_error>

#include "series.h"

namespace parity::ingest {

namespace fs = std::filesystem;
using config::Fact;

namespace {

std::vector<std::string> event_files(const fs::path& folder) {
  std::vector<std::string> files;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(folder, ec)) {
    if (e.is_regular_file(ec) && is_event_file_name(e.path().filename().string())) {
      files.push_back(e.path().string());
    }
  }
  std::sort(files.begin(), files.end());  // filename order is timestamp order
  return files;
}

std::vector<fs::path> child_folders(const fs::path& folder) {
  std::vector<fs::path> out;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(folder, ec)) {
    if (e.is_directory(ec)) out.push_back(e.path());
  }
  std::sort(out.begin(), out.end());
  return out;
}

bool has_file(const fs::path& folder, const char* name) {
  std::error_code ec;
  return fs::is_regular_file(folder / name, ec);
}

std::string read_text(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw IngestError("cannot open " + path.string());
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// A child folder is folded into its parent run when it is what add_hparams or Accelerate's
// store_init_configuration writes (hparams events only, or hparams.yml) or an add_scalars
// folder ({main with / as _}_{sub}, holding tag main): TensorBoard would show it as a run of its
// own, which is what users complain of (pytorch/pytorch#32651).
bool folds_into_parent(const fs::path& child, std::string* add_scalars_sub) {
  const auto files = event_files(child);
  if (files.empty()) return has_file(child, "hparams.yml");
  EventData probe;
  for (const auto& f : files) read_event_file(f, 0, probe);
  if (!probe.hparams.empty() && probe.scalars.empty()) return true;
  if (probe.scalars.size() == 1) {
    std::string main = probe.scalars.begin()->first;
    std::replace(main.begin(), main.end(), '/', '_');
    const std::string name = child.filename().string();
    if (name.size() > main.size() + 1 && name.compare(0, main.size() + 1, main + "_") == 0) {
      *add_scalars_sub = name.substr(main.size() + 1);
      return true;
    }
  }
  return false;
}

void collect(const fs::path& folder, const fs::path& root, std::vector<TensorBoardRun>& runs) {
  const bool is_run = !event_files(folder).empty();
  if (is_run) {
    std::string name = fs::relative(folder, root).string();
    if (name == "." || name.empty()) name = folder.filename().string();
    runs.emplace_back(name, folder.string());
  }
  for (const auto& child : child_folders(folder)) {
    std::string sub;
    if (is_run && folds_into_parent(child, &sub)) continue;
    collect(child, root, runs);
  }
}

}  // namespace

TensorBoardRun::TensorBoardRun(std::string name, std::string folder)
    : name_(std::move(name)), folder_(std::move(folder)) {}

void TensorBoardRun::rescan_parts() {
  std::vector<Part> parts;
  parts.push_back(Part{folder_, "", {}});
  for (const auto& child : child_folders(folder_)) {
    std::string sub;
    if (!folds_into_parent(child, &sub)) continue;
    parts.push_back(Part{child.string(), sub, {}});
    if (has_file(child, "hparams.yml") && yaml_params_.empty()) {
      accelerate_layout_ = true;
      try {
        params_from_yaml(read_text(child / "hparams.yml"), yaml_params_);
      } catch (const IngestError& e) {
        notes_.push_back((child / "hparams.yml").string() + " does not read (" + e.what() +
                         "): skipped");
      }
    }
  }
  // Keep what was read: parts already known keep their data and offsets.
  for (auto& p : parts) {
    for (auto& old : parts_) {
      if (old.folder == p.folder) p.data = std::move(old.data);
    }
  }
  parts_ = std::move(parts);
}

bool TensorBoardRun::poll() {
  rescan_parts();
  bool changed = false;
  for (Part& part : parts_) {
    for (const std::string& file : event_files(part.folder)) {
      std::error_code ec;
      const auto size = fs::file_size(file, ec);
      uint64_t& offset = offsets_[file];
      if (ec || size <= offset) continue;
      bool damaged = false;
      const uint64_t before = part.data.records;
      offset = read_event_file(file, offset, part.data, &damaged);
      if (damaged) {
        ++damaged_;
        offset = size;  // the rest of a damaged file is skipped, not reread on every poll
      }
      changed = changed || part.data.records != before;
    }
  }
  return changed;
}

ImportedRun TensorBoardRun::run(const ImportOptions& options) const {
  ImportedRun run;
  run.name = name_;
  run.format = "tensorboard";
  run.source_path = folder_;
  std::error_code ec;
  run.identity = "tensorboard:" + fs::weakly_canonical(folder_, ec).string();
  run.damaged_files = damaged_;
  run.notes = notes_;
  std::map<std::string, TagSeries> scalars;
  for (const Part& part : parts_) {
    for (const auto& [tag, series] : part.data.scalars) {
      const std::string name =
          part.add_scalars_sub.empty() ? tag : tag + "/" + part.add_scalars_sub;
      TagSeries& into = scalars[name];
      into.steps.insert(into.steps.end(), series.steps.begin(), series.steps.end());
      into.values.insert(into.values.end(), series.values.begin(), series.values.end());
      into.wall_times.insert(into.wall_times.end(), series.wall_times.begin(),
                             series.wall_times.end());
    }
    fill_facts(run.facts, part.data.hparams, "TensorBoard hparams");
    run.notes.insert(run.notes.end(), part.data.notes.begin(), part.data.notes.end());
    if (const auto args = part.data.texts.find("args/text_summary");
        args != part.data.texts.end()) {
      ParamMap params;
      try {
        params_from_json(args->second, params);
        fill_facts(run.facts, params, "TrainingArguments (args/text_summary)");
        if (!run.facts.use_seedable_sampler.has_value()) {
          run.facts.use_seedable_sampler = Fact<bool>::derived(
              true, "transformers' Trainer default (accelerator_config.use_seedable_sampler)");
        }
      } catch (const IngestError&) {
        run.notes.push_back("args/text_summary is not TrainingArguments JSON: not read");
      }
    }
  }
  fill_facts(run.facts, yaml_params_, "hparams.yml");
  if (accelerate_layout_ && !run.facts.use_seedable_sampler.has_value()) {
    run.facts.use_seedable_sampler =
        Fact<bool>::derived(false,
                            "Accelerate's default; the logdir has its TensorBoard tracker's "
                            "layout (hparams.yml)");
  }
  detail::build_points(run, scalars, options);
  detail::derive_lr_scaling(run);
  return run;
}

std::vector<TensorBoardRun> find_tensorboard_runs(const std::string& path) {
  std::error_code ec;
  fs::path root(path);
  if (!fs::exists(root, ec)) throw IngestError(path + " does not exist");
  if (fs::is_regular_file(root, ec)) root = root.parent_path();
  if (!fs::is_directory(root, ec)) throw IngestError(path + " is not a folder or a file");
  fs::directory_iterator probe(root, ec);
  if (ec) throw IngestError("cannot list " + root.string() + ": " + ec.message());
  std::vector<TensorBoardRun> runs;
  collect(root, root, runs);
  return runs;
}

}  // namespace parity::ingest
