#include <parity/ingest/formats.h>
#include <parity/ingest/mlflow.h>
#include <parity/ingest/table_log.h>
#include <parity/ingest/tensorboard_logdir.h>
#include <parity/ingest/trainer_state.h>

namespace parity::ingest {

namespace {

// The one adapter: a format whose finder returns its runs by value, as readers.
template <class Run, std::vector<Run> (*Find)(const std::string&)>
RunReaders readers(const std::string& path) {
  RunReaders out;
  for (Run& r : Find(path)) out.push_back(std::make_unique<Run>(std::move(r)));
  return out;
}

}  // namespace

const std::vector<Format>& formats() {
  // One line a format, in the order their runs are listed.
  static const std::vector<Format> all = {
      {"tensorboard", "event files", readers<TensorBoardRun, find_tensorboard_runs>},
      {"trainer_state", "trainer_state.json", readers<TrainerStateRun, find_trainer_state_runs>},
      {"csv", "CSV", readers<TableLogRun, find_table_log_runs>},
      {"mlflow", "MLflow store", find_mlflow_runs, /*owns_file=*/true},
  };
  return all;
}

std::string formats_in_words() {
  const std::vector<Format>& all = formats();
  std::string out;
  for (size_t i = 0; i < all.size(); ++i)
    out += (i == 0 ? "" : i + 1 == all.size() ? " or " : ", ") + all[i].what;
  return out;
}

}  // namespace parity::ingest
