#pragma once
/// The data-parallel training loop of one rank. Torch-free declaration; runs in a rank process
/// (app/worker) or, for tests, in a thread per rank over a shared FileStore.

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <parity/engine/run_config.h>
#include <parity/engine/step_record.h>

namespace parity::engine {

/// Where this rank stands in the process group (torchrun's variables).
struct DistEnv {
  int rank = 0;
  int world_size = 1;
  int local_rank = 0;
  int local_world_size = 1;
  std::string master_addr = "127.0.0.1";
  int master_port = 29500;
  std::string store_path;  ///< FileStore file (single node); empty = TCPStore on master_addr:port
  int threads = 0;         ///< intra-op threads; 0 = leave LibTorch's default
  double collective_timeout_s = 300;
  /// Build the process group (and sync gradients through it) even for one process: a W=1 check of
  /// the NCCL or Gloo path, since one GPU cannot host two NCCL ranks. PARITY_FORCE_PROCESS_GROUP=1.
  bool force_process_group = false;

  /// Reads RANK, WORLD_SIZE, LOCAL_RANK, LOCAL_WORLD_SIZE, MASTER_ADDR, MASTER_PORT, PARITY_STORE,
  /// PARITY_THREADS, PARITY_FORCE_PROCESS_GROUP. Throws std::runtime_error naming a missing or
  /// malformed variable.
  static DistEnv from_environment();
};

/// Failure inside the training loop (bad data path, collective error, ...).
class TrainError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct TrainerOptions {
  /// Called on every rank after each optimizer step (for launcher heartbeats). May be empty.
  std::function<void(int64_t step)> heartbeat;
  /// Set from outside to stop after the current step (outcome kStopped).
  const std::atomic<bool>* stop = nullptr;
  /// When set, filled at the end with every parameter, flattened in module order (for tests that
  /// compare the models different setups end with).
  std::vector<double>* final_parameters = nullptr;
};

/// Trains config on this rank. Records go to sink on rank 0 only (sink may be null elsewhere).
/// Every rank returns the same outcome (finished or diverged); errors throw TrainError.
RunEnd train(const RunConfig& config, const DistEnv& env, StepSink* sink,
             const TrainerOptions& options = {});

}  // namespace parity::engine
