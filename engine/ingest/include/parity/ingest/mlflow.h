#pragma once
/// MLflow's two tracking stores (shared/research/import-formats.md §3):
/// - the legacy file store (`mlflow/store/tracking/file_store.py`): `mlruns/<experiment_id>/`
///   holds the experiment's `meta.yaml` and one folder per run with its `meta.yaml`,
///   `metrics/<key>` (one "timestamp value step" line per point, the step optional),
///   `params/<key>` and `tags/<key>` (the file's content is the value); a key with '/' is a
///   subfolder (`metrics/train/loss`); `.trash/` holds deleted experiments;
/// - the SQLite store (`mlflow.db`, the default since MLflow 3.7; its tables in
///   `mlflow/store/tracking/dbmodels/models.py`): experiments, runs, metrics (with `is_nan`),
///   params, tags. It is opened read-only (`mode=ro`, else `immutable=1`) and never written.
/// Each run not deleted becomes one ImportedRun named "<experiment>/<run name>" (the run name
/// from `run_name` / the tag `mlflow.runName`); its params (Hugging Face's TrainingArguments,
/// Accelerate's config) are read as facts.
/// Following a live run reads only what is new: the bytes appended to each metric file since its
/// offset (a half-written last line is left for the next read), the rows past the last rowid.
/// Thread affinity: the readers of one store share state; poll them from one thread.

#include <parity/ingest/run_reader.h>
#include <parity/ingest/tensorboard.h>

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace parity::ingest {

/// What one MLflow run logged, as read so far.
struct MlflowRunData {
  std::string run_id, experiment, run_name;
  std::map<std::string, TagSeries> metrics;   ///< key as logged -> its points (NaN kept)
  std::map<std::string, std::string> params;  ///< as logged: MLflow keeps every value as text
  int64_t bad_lines = 0;                      ///< metric lines that were no point (skipped)
};

/// `data` as an imported run: the loss, lr and evaluation series chosen as for the other formats
/// (`options` names others), the params read as facts. `store` names the store in the identity
/// and as the source.
ImportedRun mlflow_imported_run(const MlflowRunData& data, const std::string& store,
                                const ImportOptions& options = {});

/// One line of a file-store metric file: "timestamp value [step]" (timestamp in ms; Python's
/// `nan`, `inf` read). False when the line is no point.
bool parse_mlflow_metric_line(std::string_view line, int64_t* timestamp_ms, double* value,
                              int64_t* step);

/// One run of a file store (`mlruns/<experiment_id>/<run_id>`).
class MlflowFileRun : public RunReader {
 public:
  MlflowFileRun(std::string name, std::string run_folder, std::string experiment,
                std::string run_name);
  std::string name() const override { return name_; }
  /// Reads the lines appended to each metric file (and new metric and param files).
  bool poll() override;
  ImportedRun run(const ImportOptions& options) const override;

 private:
  bool read_metric(const std::string& key, const std::string& file);
  bool read_params();
  std::string name_, folder_;
  MlflowRunData data_;
  std::map<std::string, uint64_t> offsets_;  ///< metric key -> bytes read
};

class MlflowSqliteStore;

/// One run of an SQLite store. The runs of one store share its connection, and one query a poll
/// reads the rows of all of them past the last rowid: following N runs costs N index look-ups
/// and the new rows, not N scans.
class MlflowSqliteRun : public RunReader {
 public:
  MlflowSqliteRun(std::string name, std::shared_ptr<MlflowSqliteStore> store, std::string run_id);
  std::string name() const override { return name_; }
  bool poll() override;
  ImportedRun run(const ImportOptions& options) const override;

 private:
  std::string name_, run_id_;
  std::shared_ptr<MlflowSqliteStore> store_;
  int64_t seen_ = -1;  ///< the store's version of this run at the last poll
};

/// Whether `file` is an SQLite database with MLflow's tables (opened read-only; a file that is
/// not SQLite is not one).
bool is_mlflow_sqlite(const std::string& file);

/// The MLflow runs under `path`: a run folder, an experiment folder, a file store (a folder named
/// `mlruns` or holding experiment folders), an SQLite store (a `.db` file with MLflow's tables),
/// else the stores in the folders below (4 levels). Deleted experiments and runs are left out.
/// Empty when there are none. Throws IngestError when a store cannot be read.
RunReaders find_mlflow_runs(const std::string& path);

}  // namespace parity::ingest
