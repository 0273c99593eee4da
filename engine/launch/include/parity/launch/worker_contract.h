#pragma once
/// The worker contract: what the rank supervisor puts into each rank process's environment and
/// what the rank reads back. The variable names are spelled here and nowhere else: the supervisor
/// formats them with to_environment(), a worker parses them with DistEnv::from_environment(),
/// config_path_from_environment() and status_fd_from_environment(). Torch-free.
///
/// Every rank process gets:
///   RANK, WORLD_SIZE, LOCAL_RANK, LOCAL_WORLD_SIZE, MASTER_ADDR, MASTER_PORT  (as torchrun)
///   PARITY_CONFIG      path of the run's config JSON (to_json of RunConfig)
///   PARITY_STORE       path of the c10d FileStore file; unset (multi-node) = TCPStore on
///                      MASTER_ADDR:MASTER_PORT, rank 0 hosting it
///   PARITY_STATUS_FD   file descriptor to write progress_protocol lines to (every rank)
///   PARITY_THREADS     intra-op threads for this rank (OMP_NUM_THREADS, OPENBLAS_NUM_THREADS and
///                      MKL_NUM_THREADS are set to the same; OMP_WAIT_POLICY=PASSIVE unless set)
/// A rank also reads, when the user sets them (device checks):
///   PARITY_FORCE_PROCESS_GROUP=1  build the process group even for one process (a W=1 check of
///                                 the NCCL path: one GPU cannot host two NCCL ranks)
///   PARITY_CUDNN_TF32=0           no TF32 in cuDNN convolutions (CPU-vs-CUDA comparisons)
///   PARITY_TRANSPORT=gloo|shm     how CPU ranks sum gradients: shm (the default on one node, with
///                                 PARITY_STORE set) through a shared-memory segment in /dev/shm;
///                                 gloo through the process group (loopback TCP), always the way
///                                 across machines and for CUDA. The sums are the same: bitwise
///                                 at two ranks, within fp32 reordering above.
/// What else a rank can rely on (its process group, its log, its exit status) is stated with the
/// supervisor, <parity/launch/rank_supervisor.h>.

#include <string>
#include <utility>
#include <vector>

namespace parity::launch {

/// torchrun's variables.
inline constexpr char kEnvRank[] = "RANK";
inline constexpr char kEnvWorldSize[] = "WORLD_SIZE";
inline constexpr char kEnvLocalRank[] = "LOCAL_RANK";
inline constexpr char kEnvLocalWorldSize[] = "LOCAL_WORLD_SIZE";
inline constexpr char kEnvMasterAddr[] = "MASTER_ADDR";
inline constexpr char kEnvMasterPort[] = "MASTER_PORT";
/// Parity's own.
inline constexpr char kEnvConfig[] = "PARITY_CONFIG";
inline constexpr char kEnvStore[] = "PARITY_STORE";
inline constexpr char kEnvStatusFd[] = "PARITY_STATUS_FD";
inline constexpr char kEnvThreads[] = "PARITY_THREADS";
inline constexpr char kEnvForceProcessGroup[] = "PARITY_FORCE_PROCESS_GROUP";
inline constexpr char kEnvCudnnTf32[] = "PARITY_CUDNN_TF32";
inline constexpr char kEnvTransport[] = "PARITY_TRANSPORT";
/// Thread counts of the libraries under LibTorch, each set to PARITY_THREADS.
inline constexpr const char* kEnvLibraryThreads[] = {"OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS",
                                                     "MKL_NUM_THREADS"};
/// OpenMP's spin-or-sleep policy (the supervisor sets PASSIVE unless the user set one).
inline constexpr char kEnvOmpWaitPolicy[] = "OMP_WAIT_POLICY";

/// A rank's exit status when a peer's connection closed or reset under it (another rank is gone:
/// its machine's run ended or was killed, or the network is down); any other failure exits 1. A
/// machine other than machine 0 then asks machine 0's store why (store_probe.h).
inline constexpr int kExitPeerGone = 3;

/// MASTER_PORT when none is given (torchrun's and Accelerate's default).
inline constexpr int kDefaultMasterPort = 29500;

/// Environment entries (name, value), in the order they are set.
using EnvVars = std::vector<std::pair<std::string, std::string>>;

/// How a CPU rank's gradients are summed (PARITY_TRANSPORT); kAuto: shm on one node, else gloo.
enum class TransportKind { kAuto, kGloo, kShm };

/// Where this rank stands in the process group (torchrun's variables).
struct DistEnv {
  int rank = 0;
  int world_size = 1;
  int local_rank = 0;
  int local_world_size = 1;
  std::string master_addr = "127.0.0.1";
  int master_port = kDefaultMasterPort;
  std::string store_path;  ///< FileStore file (single node); empty = TCPStore on master_addr:port
  int threads = 0;         ///< intra-op threads; 0 = leave LibTorch's default
  double collective_timeout_s = 300;  ///< not in the environment: the worker's default
  /// A process group (and gradient sync through it) even for one process.
  bool force_process_group = false;
  TransportKind transport = TransportKind::kAuto;  ///< PARITY_TRANSPORT

  /// Worker side. Reads RANK, WORLD_SIZE, LOCAL_RANK, LOCAL_WORLD_SIZE, MASTER_ADDR, MASTER_PORT,
  /// PARITY_STORE, PARITY_THREADS, PARITY_FORCE_PROCESS_GROUP, PARITY_TRANSPORT; a task started
  /// by srun without RANK stands where its SLURM_* variables say (<parity/launch/slurm.h>).
  /// Throws std::runtime_error naming a missing or malformed variable.
  static DistEnv from_environment();
};

/// Supervisor side: the contract's entries for one rank. torchrun's six, PARITY_CONFIG and
/// PARITY_STATUS_FD, then PARITY_THREADS and the library thread counts when env.threads > 0, then
/// PARITY_STORE when env.store_path is set.
EnvVars to_environment(const DistEnv& env, const std::string& config_path, int status_fd);

/// Worker side: PARITY_CONFIG. Throws std::runtime_error when it is unset or empty.
std::string config_path_from_environment();

/// Worker side: PARITY_STATUS_FD, or -1 when it is unset or empty (no status pipe).
int status_fd_from_environment();

}  // namespace parity::launch
