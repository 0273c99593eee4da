#pragma once
/// A TensorBoard logdir as runs: every folder holding event files is a run named by its path
/// under the logdir (TensorBoard's rule), except the child folders that `add_hparams` and
/// `add_scalars` write, which are folded into their parent run as Accelerate lays them out
/// (`{run}/events...`, `{run}/{time}/events...` with the `_hparams_/...` tags,
/// `{run}/{time}/hparams.yml`; `{run}/{main}_{sub}/events...` with tag `main`).
/// Facts come from the hparams plugin's session start info, hparams.yml and the Hugging Face
/// Trainer's `args/text_summary` (its TrainingArguments as JSON).

#include <parity/ingest/imported_run.h>
#include <parity/ingest/run_reader.h>
#include <parity/ingest/tensorboard.h>

#include <map>
#include <string>
#include <vector>

namespace parity::ingest {

/// One run of a logdir and the files it reads, kept between reads so that following a live
/// logdir reads only the bytes appended since.
class TensorBoardRun : public RunReader {
 public:
  TensorBoardRun(std::string name, std::string folder);
  std::string name() const override { return name_; }
  const std::string& folder() const { return folder_; }

  /// Reads what was appended to its files (and files that appeared) since the last call.
  /// Returns whether anything new was read. Throws IngestError for an unreadable file.
  bool poll() override;
  /// The run as read so far.
  ImportedRun run(const ImportOptions& options = {}) const override;

 private:
  struct Part {
    std::string folder;
    std::string add_scalars_sub;  ///< an add_scalars folder's sub-series name; else ""
    EventData data;
  };
  void rescan_parts();
  std::string name_, folder_;
  std::vector<Part> parts_;
  std::map<std::string, uint64_t> offsets_;  ///< event file -> bytes read
  ParamMap yaml_params_;
  bool accelerate_layout_ = false;  ///< an hparams.yml beside: Accelerate's TensorBoardTracker
  int damaged_ = 0;
  std::vector<std::string> notes_;
};

/// The runs under `path` (a logdir, a run folder, or one event file's folder). Empty when none.
/// Throws IngestError when `path` does not exist or cannot be listed.
std::vector<TensorBoardRun> find_tensorboard_runs(const std::string& path);

}  // namespace parity::ingest
