#pragma once
// c10d process groups: Gloo on CPU (device bound to 127.0.0.1 on one node), NCCL on CUDA when the
// LibTorch found has it. Rendezvous through a FileStore on one node (no listening port) or a
// TCPStore for multi-node runs.

#include <torch/csrc/distributed/c10d/ProcessGroup.hpp>
#include <torch/csrc/distributed/c10d/Store.hpp>

#include <parity/train/trainer.h>

namespace parity::engine {

/// The store of env: FileStore(env.store_path) or TCPStore(master_addr:master_port, rank 0 hosts).
c10::intrusive_ptr<c10d::Store> make_store(const DistEnv& env);

/// A process group over `store` for `device`. Throws TrainError for NCCL on a CPU-only build.
c10::intrusive_ptr<c10d::ProcessGroup> make_process_group(const c10::intrusive_ptr<c10d::Store>& store,
                                                          const DistEnv& env, Device device);

}  // namespace parity::engine
