#include <parity/ingest/find_runs.h>
#include <parity/ingest/ingest_error.h>
#include <parity/ingest/mlflow.h>
#include <parity/ingest/table_log.h>
#include <parity/ingest/tensorboard_logdir.h>
#include <parity/ingest/trainer_state.h>

#include <filesystem>

namespace parity::ingest {

namespace {

class TrainerStateReader : public RunReader {
 public:
  explicit TrainerStateReader(TrainerStateRun run) : run_(std::move(run)) {}
  std::string name() const override { return run_.name(); }
  bool poll() override { return run_.poll(); }
  ImportedRun run(const ImportOptions& options) const override { return run_.run(options); }

 private:
  TrainerStateRun run_;
};

class TableLogReader : public RunReader {
 public:
  explicit TableLogReader(TableLogRun run) : run_(std::move(run)) {}
  std::string name() const override { return run_.name(); }
  bool poll() override { return run_.poll(); }
  ImportedRun run(const ImportOptions& options) const override { return run_.run(options); }

 private:
  TableLogRun run_;
};

class TensorBoardReader : public RunReader {
 public:
  explicit TensorBoardReader(TensorBoardRun run) : run_(std::move(run)) {}
  std::string name() const override { return run_.name(); }
  bool poll() override { return run_.poll(); }
  ImportedRun run(const ImportOptions& options) const override { return run_.run(options); }

 private:
  TensorBoardRun run_;
};

}  // namespace

std::vector<std::unique_ptr<RunReader>> find_runs(const std::string& path) {
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) throw IngestError(path + " does not exist");
  std::vector<std::unique_ptr<RunReader>> out;
  // An MLflow database is the whole answer: the other readers take a file's folder for a logdir.
  if (std::filesystem::is_regular_file(path, ec)) {
    out = find_mlflow_runs(path);
    if (!out.empty()) return out;
  }
  // The Trainer's own TensorBoard logging (report_to="tensorboard") writes the same training
  // under its output_dir's runs/ (TrainingArguments.logging_dir's default): it is one run, read
  // from trainer_state.json, which also says the per-device batch.
  std::vector<TrainerStateRun> states = find_trainer_state_runs(path);
  for (TensorBoardRun& r : find_tensorboard_runs(path)) {
    TrainerStateRun* same = nullptr;
    for (TrainerStateRun& s : states) {
      const std::string runs =
          (std::filesystem::path(s.output_dir()) / "runs").lexically_normal().string() + "/";
      const std::string folder = std::filesystem::path(r.folder()).lexically_normal().string();
      if ((folder + "/").rfind(runs, 0) == 0) same = &s;
    }
    if (same) {
      same->add_note("the TensorBoard files in " + r.folder() +
                     " log the same training (the Trainer's report_to): not imported again");
      continue;
    }
    out.push_back(std::make_unique<TensorBoardReader>(std::move(r)));
  }
  for (TrainerStateRun& r : states)
    out.push_back(std::make_unique<TrainerStateReader>(std::move(r)));
  for (TableLogRun& r : find_table_log_runs(path)) {
    out.push_back(std::make_unique<TableLogReader>(std::move(r)));
  }
  if (!std::filesystem::is_regular_file(path, ec))
    for (auto& r : find_mlflow_runs(path)) out.push_back(std::move(r));
  return out;
}

}  // namespace parity::ingest
