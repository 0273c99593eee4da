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
  std::ifstream status("/proc/self/status");
  for (std::string line; std::getline(status, line);) {
    if (line.rfind("VmHWM:", 0) != 0) continue;
    std::fprintf(stderr, "parity-startup-rss %s %lld\n", who().c_str(),
                 std::atoll(line.c_str() + 6));
    std::fflush(stderr);
  }
}

}  // namespace parity::launch
