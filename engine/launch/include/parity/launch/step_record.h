#pragma once
/// What a training run reports, and the interface it reports through. The engine does not know
/// where records go (SQLite, a pipe, a test's vector): the caller supplies a StepSink.

#include <parity/config/model_summary.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace parity::launch {

/// One optimizer step, as seen by the whole process group.
struct StepRecord {
  int64_t step = 0;     ///< optimizer step, from 1
  double epoch = 0;     ///< fractional: completed epochs + share of this epoch's batches done
  int64_t samples = 0;  ///< global samples seen so far (all ranks, padding included)
  double loss = 0;      ///< global mean loss (mean over ranks of each rank's micro-batch mean)
  std::vector<double> rank_losses;  ///< each rank's local loss (index = rank)
  double lr = 0;                    ///< learning rate used for this step
  double time_s = 0;                ///< wall time since training started
};

/// One evaluation over the test set (exactly N samples).
struct EvalRecord {
  int epoch = 0;  ///< 1-based epoch just finished
  int64_t step = 0;
  int64_t samples = 0;
  double loss = 0;
  double accuracy = -1;  ///< -1 for regression
};

/// Known before the first step.
struct RunStart {
  int64_t total_steps = 0;  ///< optimizer steps the run will take
  int64_t steps_per_epoch = 0;
  int64_t train_samples = 0;  ///< N of the training set
  int64_t test_samples = 0;
  double effective_lr = 0;
  std::string blas_warning;    ///< non-empty when the BLAS check found a slow GEMM
  config::ModelSummary model;  ///< the model as rank 0 built it (layers, dropout, batch norm)
};

enum class RunOutcome { kFinished, kDiverged, kFailed, kStopped };
std::string to_string(RunOutcome outcome);

/// Where a rank's training time went (seconds), for benchmarks. Not sent over the protocol.
struct PhaseTimes {
  double setup_s = 0;    ///< process group, data, model: from train() to the first step
  double data_s = 0;     ///< gathering batches
  double forward_s = 0;  ///< forward and loss
  double backward_s = 0;
  double sync_s = 0;  ///< gradient allreduce (with the step's metrics), waited on
  double optimizer_s = 0;
  double eval_s = 0;
};

struct RunEnd {
  RunOutcome outcome = RunOutcome::kFinished;
  std::string message;       ///< why, for anything but kFinished
  double samples_per_s = 0;  ///< global training samples per second (evaluation excluded)
  int64_t steps = 0;         ///< optimizer steps taken
  PhaseTimes phases;         ///< this rank's; filled by train(), not by the protocol
};

/// Receives a run's records. Called on the training thread of rank 0 only; keep it cheap
/// (queue and return).
class StepSink {
 public:
  virtual ~StepSink() = default;
  virtual void on_start(const RunStart& start) { (void)start; }
  virtual void on_step(const StepRecord& record) = 0;
  virtual void on_eval(const EvalRecord& record) { (void)record; }
  virtual void on_end(const RunEnd& end) { (void)end; }
  /// Why the sink can no longer record (its database failed: disk full, I/O error), or nothing.
  /// The supervisor polls it (every ~50 ms) and then stops the run as failed with that reason.
  virtual std::optional<std::string> failure() const { return std::nullopt; }
};

}  // namespace parity::launch
