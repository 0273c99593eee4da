// A stand-in for parity-worker: checks the launcher's environment contract, echoes it to stderr
// (the rank log), then behaves as the config's label says. It spells the variable names out
// instead of using worker_contract.h, as a worker written against torchrun would, so the tests
// pin the names themselves:
//   ok        every rank takes max_steps steps; rank 0 reports start, steps, an eval and the end
//   exit1     rank 1 exits 1 with a message at step 2, once rank 0 has sent step 1 (a file in
//             the run folder says so); the others keep going until stopped
//   sigkill   rank 1 kills itself with SIGKILL at step 2
//   hang      rank 1 goes silent at step 2 (and stays alive)
//   hang0     rank 0 goes silent at step 2 (and stays alive)
//   chatty    rank 1 stops making progress at step 2 but keeps writing lines: junk, and
//             heartbeats that repeat step 2
//   stubborn  like exit1, but every rank ignores SIGTERM (the launcher must escalate to SIGKILL)
//   forever   every rank keeps going until stopped
//   diverge   rank 0 reports a diverged end at step 3; every rank exits 0
//   noend     every rank exits 0 but rank 0 never reports the end
#include <dirent.h>
#include <parity/config/run_config.h>
#include <parity/launch/progress_protocol.h>
#include <parity/launch/worker_contract.h>
#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

using namespace parity::launch;
namespace config = parity::config;

namespace {

int status_fd = -1;

std::string env(const char* name) {
  const char* v = std::getenv(name);
  return v ? v : "";
}

[[noreturn]] void fail(const std::string& why) {
  std::fprintf(stderr, "fake-worker: %s\n", why.c_str());
  std::exit(3);
}

void send(const ProgressMessage& m) {
  std::string line = encode_line(m);
  if (::write(status_fd, line.data(), line.size()) != static_cast<ssize_t>(line.size()))
    fail("cannot write to PARITY_STATUS_FD");
}

// Only stdio and the status pipe may be inherited (plus the descriptor reading the folder).
void check_descriptors() {
  DIR* dir = ::opendir("/proc/self/fd");
  if (!dir) return;
  while (dirent* e = ::readdir(dir)) {
    if (e->d_name[0] == '.') continue;
    int fd = std::atoi(e->d_name);
    if (fd > 2 && fd != status_fd && fd != ::dirfd(dir))
      fail("descriptor " + std::to_string(fd) + " was inherited");
  }
  ::closedir(dir);
}

void pause_ms(int ms) { std::this_thread::sleep_for(std::chrono::milliseconds(ms)); }

void wait_for_file(const std::string& path, int timeout_ms) {
  for (int waited = 0; waited < timeout_ms && !std::ifstream(path); waited += 10) pause_ms(10);
}

}  // namespace

int main() {
  for (const char* name :
       {"RANK", "WORLD_SIZE", "LOCAL_RANK", "LOCAL_WORLD_SIZE", "MASTER_ADDR", "MASTER_PORT",
        "PARITY_CONFIG", "PARITY_STATUS_FD", "PARITY_THREADS", "OMP_NUM_THREADS"}) {
    if (env(name).empty()) fail(std::string(name) + " is not set");
  }
  std::fprintf(stderr,
               "env RANK=%s WORLD_SIZE=%s LOCAL_RANK=%s LOCAL_WORLD_SIZE=%s MASTER_ADDR=%s "
               "MASTER_PORT=%s PARITY_STORE=%s PARITY_THREADS=%s OMP_NUM_THREADS=%s "
               "PARITY_STATUS_FD=%s PID=%d\n",
               env("RANK").c_str(), env("WORLD_SIZE").c_str(), env("LOCAL_RANK").c_str(),
               env("LOCAL_WORLD_SIZE").c_str(), env("MASTER_ADDR").c_str(),
               env("MASTER_PORT").c_str(), env("PARITY_STORE").c_str(),
               env("PARITY_THREADS").c_str(), env("OMP_NUM_THREADS").c_str(),
               env("PARITY_STATUS_FD").c_str(), static_cast<int>(::getpid()));

  const int rank = std::stoi(env("RANK"));
  const int world = std::stoi(env("WORLD_SIZE"));
  const int local_rank = std::stoi(env("LOCAL_RANK"));
  const int local_world = std::stoi(env("LOCAL_WORLD_SIZE"));
  status_fd = std::stoi(env("PARITY_STATUS_FD"));
  check_descriptors();

  std::ifstream in(env("PARITY_CONFIG"));
  if (!in) fail("cannot read PARITY_CONFIG " + env("PARITY_CONFIG"));
  std::stringstream text;
  text << in.rdbuf();
  const config::RunConfig config = config::from_json(text.str());

  if (world != config.num_processes) fail("WORLD_SIZE != num_processes");
  if (world % local_world != 0) fail("WORLD_SIZE does not divide by LOCAL_WORLD_SIZE");
  if (rank < 0 || rank >= world || rank % local_world != local_rank)
    fail("RANK and LOCAL_RANK disagree");
  if (env("PARITY_THREADS") != env("OMP_NUM_THREADS")) fail("OMP_NUM_THREADS != PARITY_THREADS");
  const std::string store = env("PARITY_STORE");
  const std::string config_dir = env("PARITY_CONFIG").substr(0, env("PARITY_CONFIG").rfind('/'));
  if (!store.empty() && store.substr(0, store.rfind('/')) != config_dir)
    fail("PARITY_STORE is not in the run folder");

  const std::string mode = config.label;
  const std::string stepped = config_dir + "/rank0-stepped";  // rank 0 sent step 1
  if (mode == "stubborn") ::signal(SIGTERM, SIG_IGN);
  const bool endless = mode == "exit1" || mode == "sigkill" || mode == "hang" || mode == "hang0" ||
                       mode == "chatty" || mode == "stubborn" || mode == "forever" ||
                       mode == "hog" || mode == "peergone";
  const int64_t steps = config.max_steps > 0 ? config.max_steps : 5;

  if (rank == 0) {
    // A line that is no message must be skipped, not end the run.
    const char junk[] = "not a progress line\n";
    if (::write(status_fd, junk, sizeof junk - 1) < 0) fail("cannot write to PARITY_STATUS_FD");
    RunStart start;
    start.total_steps = steps;
    start.steps_per_epoch = steps;
    start.train_samples = 1000;
    start.effective_lr = config.lr;
    send(start);
  }
  for (int64_t step = 1; endless || step <= steps; ++step) {
    if (step == 2 && rank == 1) {
      if (mode == "exit1" || mode == "stubborn") {
        // Fails only once rank 0's first step is in its pipe: the tests check that the steps
        // before a failure are forwarded, and on busy cores rank 0 may start long after rank 1.
        wait_for_file(stepped, 30000);
        std::fprintf(stderr, "fake-worker: rank 1 failed on purpose\n");
        return 1;
      }
      if (mode == "sigkill") ::raise(SIGKILL);
      if (mode == "peergone") {
        std::fprintf(stderr, "fake-worker: another rank is gone\n");
        return kExitPeerGone;
      }
      if (mode == "hog") {
        // Takes memory (every page touched) until something stops it: an OOM killer's victim.
        std::vector<std::unique_ptr<char[]>> held;
        for (;;) {
          held.emplace_back(new char[16 << 20]);
          std::memset(held.back().get(), 1, 16 << 20);
          pause_ms(5);
        }
      }
      if (mode == "hang")
        for (;;) ::pause();
      if (mode == "chatty") {
        for (;;) {
          const char junk[] = "still here\n";
          if (::write(status_fd, junk, sizeof junk - 1) < 0) fail("cannot write");
          send(Heartbeat{rank, step});
          pause_ms(20);
        }
      }
    }
    if (step == 2 && rank == 0 && mode == "hang0")
      for (;;) ::pause();
    if (rank == 0 && step <= steps) {
      StepRecord r;
      r.step = step;
      r.epoch = static_cast<double>(step) / static_cast<double>(steps);
      r.samples = step * config.per_device_batch_size * world;
      r.loss = 1.0 / static_cast<double>(step);
      for (int i = 0; i < world; ++i) r.rank_losses.push_back(r.loss + 0.01 * i);
      r.lr = config.lr;
      r.time_s = 0.01 * static_cast<double>(step);
      send(r);
      if (step == 1) std::ofstream(stepped).put('1');
      if (mode == "diverge" && step == 3) {
        RunEnd end;
        end.outcome = RunOutcome::kDiverged;
        end.message = "loss is nan at step 3";
        send(end);
        return 0;
      }
    } else {
      send(Heartbeat{rank, step});
    }
    pause_ms(endless ? 20 : 5);
  }
  if (rank == 0 && mode != "noend") {
    EvalRecord eval;
    eval.epoch = 1;
    eval.step = steps;
    eval.loss = 0.5;
    eval.accuracy = 0.75;
    send(eval);
    RunEnd end;
    end.samples_per_s = 1234.5;
    send(end);
  }
  return 0;
}
