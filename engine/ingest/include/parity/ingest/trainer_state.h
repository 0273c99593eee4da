#pragma once
/// The Hugging Face Trainer's `trainer_state.json` (transformers' `TrainerState.save_to_json`),
/// which every checkpoint holds (`output_dir/checkpoint-N/`) and `trainer.save_state()` writes to
/// `output_dir/`. Its `log_history` gives the training loss (`loss`, the mean over each logging
/// interval), `learning_rate`, `epoch` and `grad_norm` per logged step, the evaluations
/// (`eval_loss`, `eval_accuracy`), and a last entry with the speed metrics. Python writes bare
/// `NaN` and `Infinity`, which strict JSON refuses: they are read.
/// Facts: `train_batch_size` is the per-device batch (args.train_batch_size =
/// per_device_train_batch_size x max(1, n_gpu), one GPU a process under DDP), known;
/// `num_train_epochs` known; the global batch derived from train_samples_per_second /
/// train_steps_per_second, and with it processes x accumulation when that is 1; transformers'
/// seedable sampler (its default) derived.

#include <parity/ingest/imported_run.h>
#include <parity/ingest/run_reader.h>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace parity::ingest {

/// One trainer_state.json's text as a run (the entry point over bytes). `source` names the file
/// in facts and notes. Throws IngestError when the text is not a trainer state.
ImportedRun read_trainer_state(std::string_view json_text, const std::string& source,
                               const ImportOptions& options = {});

/// A Hugging Face output_dir (or one checkpoint folder, or one trainer_state.json) as a run that
/// can be read again while training goes on: each read takes the newest state (the checkpoint
/// with the highest global step, or output_dir/trainer_state.json when it is newer).
class TrainerStateRun : public RunReader {
 public:
  TrainerStateRun(std::string name, std::string folder_or_file);
  std::string name() const override { return name_; }
  /// The Trainer's output_dir: the folder given, or the one above a checkpoint-N (a state file's
  /// folder is taken as given).
  std::string output_dir() const;
  /// A note the run carries (what was left out beside it, say).
  void add_note(std::string note) { extra_notes_.push_back(std::move(note)); }
  /// Reads the newest state when it changed since the last read; true when it did. A state still
  /// being written is passed over for the one before it. Throws IngestError when none can be
  /// read.
  bool poll() override;
  ImportedRun run(const ImportOptions& options = {}) const override;
  /// True for a TensorBoard run under output_dir/runs/ (TrainingArguments.logging_dir's
  /// default, where the Trainer's report_to="tensorboard" logs the same training): this run,
  /// which also says the per-device batch, notes it was left out.
  bool holds_same_training(const RunReader& other) override;

 private:
  std::string name_, path_;
  std::vector<std::string> extra_notes_;
  std::string file_;  ///< the state read last
  std::string text_;
  int64_t stamp_ = -1;  ///< its modification time and size, to read it again only when changed
  int64_t size_ = -1;
};

/// The Hugging Face runs under `path`: `path` itself when it is a trainer_state.json, a folder
/// holding one, or an output_dir with checkpoint-N folders; else every such folder below it
/// (named by its path under `path`). Checkpoint folders are not runs of their own.
std::vector<TrainerStateRun> find_trainer_state_runs(const std::string& path);

}  // namespace parity::ingest
