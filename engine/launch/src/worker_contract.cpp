#include <parity/launch/slurm.h>
#include <parity/launch/worker_contract.h>

#include <cstdlib>
#include <optional>
#include <stdexcept>

namespace parity::launch {
namespace {

int env_int(const char* name, std::optional<int> fallback) {
  const char* v = std::getenv(name);
  if (!v || !*v) {
    if (fallback) return *fallback;
    throw std::runtime_error(std::string("environment variable ") + name + " is not set");
  }
  char* end = nullptr;
  long x = std::strtol(v, &end, 10);
  if (*end != '\0') {
    throw std::runtime_error(std::string("environment variable ") + name + "='" + v +
                             "' is not an integer");
  }
  return static_cast<int>(x);
}

}  // namespace

DistEnv DistEnv::from_environment() {
  DistEnv e;
  const char* rank = std::getenv(kEnvRank);
  // A task that srun started (no RANK: not torchrun, not Parity's own launcher) stands where
  // Slurm's variables say (slurm.h).
  auto slurm = rank && *rank ? std::nullopt
                             : dist_env_from_slurm([](const char* n) { return std::getenv(n); });
  if (slurm) {
    e = *slurm;
  } else {
    e.rank = env_int(kEnvRank, std::nullopt);
    e.world_size = env_int(kEnvWorldSize, std::nullopt);
    e.local_rank = env_int(kEnvLocalRank, e.rank);
    e.local_world_size = env_int(kEnvLocalWorldSize, e.world_size);
    if (const char* a = std::getenv(kEnvMasterAddr); a && *a) e.master_addr = a;
    e.master_port = env_int(kEnvMasterPort, kDefaultMasterPort);
  }
  if (const char* s = std::getenv(kEnvStore); s && *s) e.store_path = s;
  e.threads = env_int(kEnvThreads, 0);
  if (const char* f = std::getenv(kEnvForceProcessGroup); f && *f && std::string(f) != "0") {
    e.force_process_group = true;
  }
  if (const char* t = std::getenv(kEnvTransport); t && *t) {
    const std::string v = t;
    if (v == "gloo") {
      e.transport = TransportKind::kGloo;
    } else if (v == "shm") {
      e.transport = TransportKind::kShm;
    } else {
      throw std::runtime_error(std::string(kEnvTransport) + "='" + v + "' is not gloo or shm");
    }
  }
  if (e.world_size < 1 || e.rank < 0 || e.rank >= e.world_size) {
    throw std::runtime_error(std::string(kEnvRank) + "=" + std::to_string(e.rank) + " is outside " +
                             kEnvWorldSize + "=" + std::to_string(e.world_size));
  }
  return e;
}

EnvVars to_environment(const DistEnv& env, const std::string& config_path, int status_fd) {
  EnvVars vars = {{kEnvRank, std::to_string(env.rank)},
                  {kEnvWorldSize, std::to_string(env.world_size)},
                  {kEnvLocalRank, std::to_string(env.local_rank)},
                  {kEnvLocalWorldSize, std::to_string(env.local_world_size)},
                  {kEnvMasterAddr, env.master_addr},
                  {kEnvMasterPort, std::to_string(env.master_port)},
                  {kEnvConfig, config_path},
                  {kEnvStatusFd, std::to_string(status_fd)}};
  if (env.threads > 0) {
    const std::string t = std::to_string(env.threads);
    vars.emplace_back(kEnvThreads, t);
    for (const char* name : kEnvLibraryThreads) vars.emplace_back(name, t);
  }
  if (!env.store_path.empty()) vars.emplace_back(kEnvStore, env.store_path);
  return vars;
}

std::string config_path_from_environment() {
  const char* path = std::getenv(kEnvConfig);
  if (!path || !*path) throw std::runtime_error(std::string(kEnvConfig) + " is not set");
  return path;
}

int status_fd_from_environment() {
  const char* fd = std::getenv(kEnvStatusFd);
  return fd && *fd ? std::atoi(fd) : -1;
}

}  // namespace parity::launch
