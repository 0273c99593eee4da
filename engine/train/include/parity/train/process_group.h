#pragma once
// c10d process groups: Gloo on CPU (device bound to 127.0.0.1 on one node), NCCL on CUDA when the
// LibTorch found has it. Rendezvous through a FileStore on one node (no listening port) or a
// TCPStore for multi-node runs.

#include <torch/version.h>

#include <torch/csrc/distributed/c10d/Store.hpp>
#if TORCH_VERSION_MAJOR >= 2
#include <torch/csrc/distributed/c10d/Backend.hpp>
#else
#include <torch/csrc/distributed/c10d/ProcessGroup.hpp>
#endif

#include <parity/config/run_config.h>
#include <parity/launch/worker_contract.h>
#include <parity/train/train_error.h>

namespace parity::train {

/// What the trainer calls allreduce and broadcast on. LibTorch 1.x: the process group itself.
/// LibTorch 2.x: ProcessGroupGloo and ProcessGroupNCCL are c10d::Backend subclasses (the
/// c10d::ProcessGroup in front of them dispatches through registered ops); Parity uses the
/// backend directly, which has the same allreduce(std::vector<Tensor>&) and broadcast.
#if TORCH_VERSION_MAJOR >= 2
using Collectives = c10d::Backend;
#else
using Collectives = c10d::ProcessGroup;
#endif

/// The store of env: FileStore(env.store_path) or TCPStore(master_addr:master_port, rank 0 hosts).
c10::intrusive_ptr<c10d::Store> make_store(const launch::DistEnv& env);

/// A process group over `store` for `device`. Throws TrainError for NCCL on a build without it
/// (CPU LibTorch, or CUDA without NCCL headers) and for Gloo on a build without Gloo.
c10::intrusive_ptr<Collectives> make_process_group(const c10::intrusive_ptr<c10d::Store>& store,
                                                   const launch::DistEnv& env,
                                                   config::Device device);

}  // namespace parity::train
