#pragma once
// Private to parity_ingest: the runs each kind of MLflow store holds, found before they are
// named (find_mlflow_runs names them "<experiment>/<run name>", and tells apart runs of the same
// name by their id).

#include <parity/ingest/run_reader.h>

#include <filesystem>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace parity::ingest::detail {

struct MlflowFound {
  std::string experiment, run_name, run_id;
  std::function<std::unique_ptr<RunReader>(std::string name)> make;
};

/// The runs of `folder` when it is a file store, one of its experiment folders or one of its run
/// folders; true when it was one of them (then its sub-folders are no other stores).
bool find_file_store_runs(const std::filesystem::path& folder, std::vector<MlflowFound>& out);

/// The runs of `file` when it is an SQLite database with MLflow's tables; else nothing.
void find_sqlite_runs(const std::string& file, std::vector<MlflowFound>& out);

}  // namespace parity::ingest::detail
