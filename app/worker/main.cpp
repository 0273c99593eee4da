// parity-worker: one rank process. Reads the worker contract from the environment (see
// parity/launch/worker_contract.h), trains, and writes progress lines to the status pipe.
// Exit status: 0 when the run ended normally (finished, diverged or stopped: rank 0's end line
// says which), 1 with one line on stderr otherwise.

#include <parity/launch/progress_protocol.h>
#include <parity/launch/startup_trace.h>
#include <parity/launch/worker_contract.h>
#include <parity/train/allocator.h>
#include <parity/train/model_summary.h>
#include <parity/train/trainer.h>
#include <parity/version.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <utility>

namespace {

std::atomic<bool> g_stop{false};

void on_signal(int) { g_stop.store(true); }

// Writes whole lines to the status pipe; a launcher that went away ends the rank.
class StatusPipe {
 public:
  explicit StatusPipe(int fd) : fd_(fd) {}
  void write_line(const std::string& line) {
    if (fd_ < 0) return;
    const char* p = line.data();
    size_t left = line.size();
    while (left > 0) {
      ssize_t n = ::write(fd_, p, left);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) {
        std::fprintf(stderr, "parity-worker: status pipe closed (%s); stopping\n",
                     std::strerror(errno));
        std::_Exit(1);
      }
      p += n;
      left -= static_cast<size_t>(n);
    }
  }

 private:
  int fd_;
};

class PipeSink : public parity::launch::StepSink {
 public:
  explicit PipeSink(StatusPipe& pipe) : pipe_(pipe) {}
  void on_start(const parity::launch::RunStart& s) override { send(s); }
  void on_step(const parity::launch::StepRecord& r) override { send(r); }
  void on_eval(const parity::launch::EvalRecord& r) override { send(r); }
  void on_end(const parity::launch::RunEnd& e) override { send(e); }

 private:
  void send(const parity::launch::ProgressMessage& m) {
    pipe_.write_line(parity::launch::encode_line(m));
  }
  StatusPipe& pipe_;
};

std::string read_file(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot read config " + path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

}  // namespace

// `parity-worker --inspect-model CONFIG.json`: the model's summary as one JSON line (for the
// window, which does not load LibTorch), or one line on stderr and exit 1.
int inspect_model(const char* config_path) {
  try {
    const auto config = parity::config::from_json(read_file(config_path));
    std::printf("%s\n", parity::config::to_json(parity::train::inspect_model(config)).c_str());
    return 0;
  } catch (const std::exception& e) {
    std::string msg = e.what();
    if (auto nl = msg.find('\n'); nl != std::string::npos) msg = msg.substr(0, nl);
    std::fprintf(stderr, "%s\n", msg.c_str());
    return 1;
  }
}

// `parity-worker --help`: what a rank is and the environment it reads (the worker contract's
// names, spelled in worker_contract.h). The manual page is made from this text.
void print_help() {
  namespace l = parity::launch;
  std::printf(
      "Usage: parity-worker\n"
      "  or:  parity-worker --inspect-model CONFIG.json\n"
      "One rank of a Parity run: trains the run's model on its share of every batch and sums\n"
      "the gradients with the other ranks (c10d Gloo, shared memory on one machine, NCCL on\n"
      "CUDA). parity-cli starts one per process with the worker contract in its environment\n"
      "(as torchrun starts a script); it is not meant to be run by hand.\n"
      "\n"
      "Options:\n"
      "  --inspect-model CONFIG.json  print the model CONFIG.json builds (parameter count,\n"
      "                               layer kinds) as one JSON line and exit; a TorchScript\n"
      "                               model file is a program, and loading it runs its code\n"
      "  -h, --help                   print this help and exit\n"
      "  --version                    print the version and exit\n"
      "\n"
      "Environment:\n"
      "  %s, %s, %s, %s, %s, %s\n"
      "                               where the rank stands, as torchrun sets them (under srun,\n"
      "                               Slurm's task variables instead)\n",
      l::kEnvRank, l::kEnvWorldSize, l::kEnvLocalRank, l::kEnvLocalWorldSize, l::kEnvMasterAddr,
      l::kEnvMasterPort);
  const std::pair<std::string, const char*> variables[] = {
      {l::kEnvConfig, "the run's config (JSON)"},
      {l::kEnvStore, "the c10d FileStore file (unset: a TCPStore on the master)"},
      {l::kEnvStatusFd, "the descriptor progress lines go to"},
      {l::kEnvThreads, "intra-op threads of this rank"},
      {std::string(l::kEnvTransport) + "=gloo|shm",
       "how CPU ranks sum gradients (default: shm on one machine)"},
  };
  for (const auto& [name, what] : variables) std::printf("  %-29s%s\n", name.c_str(), what);
  std::printf(
      "\n"
      "Exit status: 0 when the run ended (finished, diverged or stopped), %d when another rank\n"
      "is gone, 1 otherwise, with one line on stderr.\n",
      l::kExitPeerGone);
}

int main(int argc, char** argv) {
  parity::launch::startup_mark("main");
  parity::train::keep_step_buffers_in_heap();
  if (argc == 3 && std::strcmp(argv[1], "--inspect-model") == 0) return inspect_model(argv[2]);
  if (argc == 2 && (std::strcmp(argv[1], "--help") == 0 || std::strcmp(argv[1], "-h") == 0)) {
    print_help();
    return 0;
  }
  if (argc == 2 && std::strcmp(argv[1], "--version") == 0) {
    std::printf("parity-worker %s\n", parity::kVersion);
    return 0;
  }
  int rank = -1;
  try {
    std::signal(SIGPIPE, SIG_IGN);
    std::signal(SIGINT, on_signal);
    const auto env = parity::launch::DistEnv::from_environment();
    rank = env.rank;
    const auto config =
        parity::config::from_json(read_file(parity::launch::config_path_from_environment()));
    StatusPipe pipe(parity::launch::status_fd_from_environment());
    PipeSink sink(pipe);

    parity::train::TrainerOptions options;
    options.stop = &g_stop;
    // Heartbeats at most every 0.5 s: enough for hang detection, no cost on fast steps.
    auto last = std::chrono::steady_clock::now() - std::chrono::seconds(1);
    options.heartbeat = [&](int64_t step) {
      auto now = std::chrono::steady_clock::now();
      if (now - last < std::chrono::milliseconds(500)) return;
      last = now;
      pipe.write_line(parity::launch::encode_line(parity::launch::Heartbeat{rank, step}));
    };
    pipe.write_line(parity::launch::encode_line(parity::launch::Heartbeat{rank, 0}));
    parity::train::train(config, env, env.rank == 0 ? &sink : nullptr, options);
    parity::launch::startup_mark("exit");
    parity::launch::startup_peak_rss();
    // The run is over: the trainer is gone (process group closed, shared memory unlinked) and the
    // pipe holds every line. LibTorch's static destructors, and those of the libraries it pulls
    // in, take 0.1-0.3 s and leave nothing behind, so they are skipped (not under ASan, whose
    // leak check runs at exit).
#ifndef __SANITIZE_ADDRESS__
    std::fflush(nullptr);
    std::_Exit(0);
#endif
    return 0;
  } catch (const std::exception& e) {
    // One line: the launcher shows the last line of a failed rank's stderr.
    std::string msg = e.what();
    if (auto nl = msg.find('\n'); nl != std::string::npos) msg = msg.substr(0, nl);
    // A peer's connection that closes or resets mid-collective is another rank that is gone (on
    // another machine: a killed launcher, a lost network): said first, Gloo's words after.
    bool peer_gone = false;
    for (const char* gone : {"Connection reset by peer", "Connection closed by peer",
                             "Connection refused", "Broken pipe"}) {
      if (msg.find(gone) == std::string::npos) continue;
      msg =
          "another rank is gone (its machine's run was stopped or killed, or the network "
          "between them is down): " +
          msg;
      peer_gone = true;
      break;
    }
    std::fprintf(stderr, "parity-worker rank %d: %s\n", rank, msg.c_str());
    return peer_gone ? parity::launch::kExitPeerGone : 1;
  }
}
