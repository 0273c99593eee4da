#pragma once
/// The data-parallel training loop of one rank. Torch-free declaration; runs in a rank process
/// (app/worker, which reads its DistEnv from the worker contract) or, for tests, in a thread per
/// rank over a shared FileStore.

#include <parity/config/run_config.h>
#include <parity/launch/step_record.h>
#include <parity/launch/worker_contract.h>
#include <parity/train/train_error.h>
#include <parity/train/trainer_options.h>

namespace parity::train {

/// Trains config on this rank. Records go to sink on rank 0 only (sink may be null elsewhere).
/// Every rank returns the same outcome (finished or diverged); errors throw TrainError.
launch::RunEnd train(const config::RunConfig& config, const launch::DistEnv& env,
                     launch::StepSink* sink, const TrainerOptions& options = {});

}  // namespace parity::train
