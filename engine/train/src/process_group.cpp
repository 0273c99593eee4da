#include <parity/launch/launch_error.h>
#include <parity/launch/route_address.h>
#include <parity/train/process_group.h>

#include <cstdlib>
#include <torch/csrc/distributed/c10d/FileStore.hpp>
#include <torch/csrc/distributed/c10d/TCPStore.hpp>
#ifndef PARITY_NO_GLOO
#include <torch/csrc/distributed/c10d/ProcessGroupGloo.hpp>
#endif
#ifdef PARITY_WITH_NCCL
#include <torch/csrc/distributed/c10d/ProcessGroupNCCL.hpp>
#endif

#include <chrono>

namespace parity::train {

c10::intrusive_ptr<c10d::Store> make_store(const launch::DistEnv& env) {
  const auto timeout =
      std::chrono::milliseconds(static_cast<int64_t>(env.collective_timeout_s * 1000));
  if (!env.store_path.empty()) {
    auto store = c10::make_intrusive<c10d::FileStore>(env.store_path, env.world_size);
    store->setTimeout(timeout);
    return store;
  }
  c10d::TCPStoreOptions opts;
  opts.port = static_cast<uint16_t>(env.master_port);
  opts.isServer = env.rank == 0;
  opts.numWorkers = static_cast<size_t>(env.world_size);
  opts.waitWorkers = true;
  opts.timeout = timeout;
  return c10::make_intrusive<c10d::TCPStore>(env.master_addr, opts);
}

c10::intrusive_ptr<Collectives> make_process_group(const c10::intrusive_ptr<c10d::Store>& store,
                                                   const launch::DistEnv& env,
                                                   config::Device device) {
  const auto timeout =
      std::chrono::milliseconds(static_cast<int64_t>(env.collective_timeout_s * 1000));
  (void)timeout;  // unused when neither backend is compiled in
  if (device == config::Device::kCuda) {
#if defined(PARITY_WITH_NCCL)
    auto opts = c10d::ProcessGroupNCCL::Options::create();
    opts->timeout = timeout;
    return c10::make_intrusive<c10d::ProcessGroupNCCL>(store, env.rank, env.world_size, opts);
#elif defined(PARITY_WITH_CUDA)
    throw TrainError(
        "device cuda with several processes: this build of Parity has CUDA but no NCCL (built "
        "with PARITY_NCCL=OFF); use --num-processes 1");
#else
    throw TrainError(
        "device cuda: this build of Parity has no CUDA (LibTorch CPU); use --device cpu");
#endif
  }
#ifdef PARITY_NO_GLOO
  (void)store;
  throw TrainError(
      "device cpu with several processes: this build of Parity has no c10d Gloo (built with "
      "PARITY_GLOO=OFF); use --num-processes 1");
#else
  auto opts = c10d::ProcessGroupGloo::Options::create();
  opts->timeout = timeout;
  // On one node the Gloo device binds to loopback so nothing is reachable from the network. A
  // multi-node run binds to the interface GLOO_SOCKET_IFNAME names (PyTorch's convention), else
  // to the local address of the route to the master: the address the host name resolves to is
  // loopback on an ordinary host, and the other machines would be told to connect there.
  const bool multi_node =
      env.store_path.empty() && env.master_addr != "127.0.0.1" && env.master_addr != "localhost";
  const char* ifname = std::getenv(launch::kGlooInterfaceVar);
  if (!multi_node) {
    opts->devices.push_back(c10d::ProcessGroupGloo::createDeviceForHostname("127.0.0.1"));
  } else if (ifname && *ifname) {
    opts->devices.push_back(c10d::ProcessGroupGloo::createDeviceForInterface(ifname));
  } else {
    try {
      opts->devices.push_back(c10d::ProcessGroupGloo::createDeviceForHostname(
          launch::route_address(env.master_addr, env.master_port)));
    } catch (const launch::LaunchError& e) {
      throw TrainError(e.what());
    }
  }
  return c10::make_intrusive<c10d::ProcessGroupGloo>(store, env.rank, env.world_size, opts);
#endif
}

}  // namespace parity::train
