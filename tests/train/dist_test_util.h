#pragma once
// Helpers for multi-rank tests: ranks as threads over a FileStore in a fresh temp folder.

#include <parity/config/run_config.h>
#include <parity/launch/step_record.h>
#include <parity/launch/worker_contract.h>
#include <parity/test_support/temp_dir.h>
#include <parity/train/trainer.h>

#include <functional>
#include <mutex>
#include <string>
#include <vector>

namespace parity::train::testing {

/// Collects what rank 0 reports.
class VectorSink : public launch::StepSink {
 public:
  void on_start(const launch::RunStart& s) override { start = s; }
  void on_step(const launch::StepRecord& r) override { steps.push_back(r); }
  void on_eval(const launch::EvalRecord& r) override { evals.push_back(r); }
  void on_end(const launch::RunEnd& e) override { end = e; }
  launch::RunStart start;
  std::vector<launch::StepRecord> steps;
  std::vector<launch::EvalRecord> evals;
  launch::RunEnd end;
};

/// A fresh private folder under $TMPDIR, removed by the destructor.
using test_support::TempDir;

struct ThreadedRun {
  VectorSink sink;                              // rank 0's records
  std::vector<std::vector<double>> parameters;  // final parameters per rank
  std::vector<std::vector<double>> buffers;     // final buffers per rank
  std::vector<launch::RunEnd> ends;             // per rank
};

/// Trains config with config.num_processes ranks as threads over a FileStore (Gloo, loopback).
/// hooks.final_parameters and final_buffers are set by this function (ThreadedRun::parameters,
/// ::buffers); the rest is passed on. transport: how the ranks sum gradients (kAuto: shm).
ThreadedRun train_threaded(const config::RunConfig& config, const TrainerTestHooks& hooks = {},
                           launch::TransportKind transport = launch::TransportKind::kAuto);

/// Small synthetic-regression config: linear model, zero init, SGD, constant lr.
config::RunConfig regression_config(int num_processes, int64_t per_device_batch,
                                    int accumulation = 1);

/// The linear regression model y = w x + b trained by hand in double: Parity's per-batch MSE, each
/// micro-batch's loss divided by k (a short last group under-weighted, as Accelerate does),
/// gradients summed over the ranks that had a micro-batch and divided by the world size (the
/// others add zeros, as under DDP's Join), plain SGD.
/// The batches are the sampler's (the shard rules have their own golden tests).
struct HandRun {
  std::vector<double> losses;  ///< per optimizer step: mean over participating ranks
  double w = 0, b = 0;         ///< final parameters (zero init)
};
/// under_weight=false divides a short group by its own size instead of k (what Accelerate does
/// not do), so tests can show they tell the two apart.
HandRun train_by_hand(const config::RunConfig& config, bool under_weight = true);

/// Mean of y^2 over the test split of a regression config (the eval loss of a zero model).
double zero_model_test_loss(const config::RunConfig& config);

}  // namespace parity::train::testing
