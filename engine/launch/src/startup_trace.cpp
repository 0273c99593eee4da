#include <parity/launch/startup_trace.h>
#include <parity/launch/worker_contract.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>

namespace parity::launch {

namespace {

bool enabled() {
  static const bool on = [] {
    const char* v = std::getenv(kEnvStartupTrace);
    return v && std::strcmp(v, "1") == 0;
  }();
  return on;
}

const std::string& who() {
  static const std::string name = [] {
    const char* rank = std::getenv(kEnvRank);
    return rank ? "rank" + std::string(rank) : std::string("launcher");
  }();
  return name;
}

}  // namespace

void startup_mark(const char* phase) {
  if (!enabled()) return;
  const auto now = std::chrono::system_clock::now().time_since_epoch();
  const double t = std::chrono::duration<double>(now).count();
  std::fprintf(stderr, "parity-startup %s %s %.6f\n", who().c_str(), phase, t);
  std::fflush(stderr);
}

void startup_peak_rss() {
  if (!enabled()) return;
  // kB: the peak resident set, then what is resident now: anonymous, file-backed (libraries, the
  // mapped dataset cache), shared memory, and the proportional share of pages other processes map.
  long long kb[5] = {0, 0, 0, 0, 0};
  const char* keys[5] = {"VmHWM:", "RssAnon:", "RssFile:", "RssShmem:", "Pss:"};
  for (const char* file : {"/proc/self/status", "/proc/self/smaps_rollup"}) {
    std::ifstream in(file);
    for (std::string line; std::getline(in, line);) {
      for (int i = 0; i < 5; ++i) {
        const size_t n = std::strlen(keys[i]);
        if (line.compare(0, n, keys[i]) == 0) kb[i] = std::atoll(line.c_str() + n);
      }
    }
  }
  std::fprintf(stderr, "parity-startup-rss %s %lld anon %lld file %lld shmem %lld pss %lld\n",
               who().c_str(), kb[0], kb[1], kb[2], kb[3], kb[4]);
  std::fflush(stderr);
}

}  // namespace parity::launch
