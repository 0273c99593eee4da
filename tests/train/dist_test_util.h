#pragma once
// Helpers for multi-rank tests: ranks as threads over a FileStore in a fresh temp folder.

#include <functional>
#include <mutex>
#include <string>
#include <vector>

#include <parity/config/run_config.h>
#include <parity/launch/step_record.h>
#include <parity/train/trainer.h>

namespace parity::engine::testing {

/// Collects what rank 0 reports.
class VectorSink : public StepSink {
 public:
  void on_start(const RunStart& s) override { start = s; }
  void on_step(const StepRecord& r) override { steps.push_back(r); }
  void on_eval(const EvalRecord& r) override { evals.push_back(r); }
  void on_end(const RunEnd& e) override { end = e; }
  RunStart start;
  std::vector<StepRecord> steps;
  std::vector<EvalRecord> evals;
  RunEnd end;
};

/// A fresh private folder under $TMPDIR, removed by the destructor.
class TempDir {
 public:
  TempDir();
  ~TempDir();
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

struct ThreadedRun {
  VectorSink sink;                              // rank 0's records
  std::vector<std::vector<double>> parameters;  // final parameters per rank
  std::vector<RunEnd> ends;                     // per rank
};

/// Trains config with config.num_processes ranks as threads over a FileStore (Gloo, loopback).
ThreadedRun train_threaded(const RunConfig& config);

/// Small synthetic-regression config: linear model, zero init, SGD, constant lr.
RunConfig regression_config(int num_processes, int64_t per_device_batch, int accumulation = 1);

}  // namespace parity::engine::testing
