#include <parity/launch/rank_capacity.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <climits>
#include <cmath>
#include <fstream>

namespace parity::launch {
namespace {

constexpr int kNoLimit = INT_MAX;

int clamp_limit(rlim_t v) {
  return v == RLIM_INFINITY || v > static_cast<rlim_t>(kNoLimit) ? kNoLimit : static_cast<int>(v);
}

// Local ports available to connections: hi - lo + 1 of ip_local_port_range.
long long local_ports() {
  std::ifstream in("/proc/sys/net/ipv4/ip_local_port_range");
  long long lo = 0, hi = 0;
  if (!(in >> lo >> hi) || hi < lo) return 28232;  // Linux's default range, 32768..60999
  return hi - lo + 1;
}

}  // namespace

RankCapacity rank_capacity() {
  RankCapacity cap{kNoLimit, ""};
  auto consider = [&](int limit, std::string reason) {
    if (limit < cap.max_ranks) cap = {std::max(limit, 0), std::move(reason)};
  };
  rlimit lim{};
  if (::getrlimit(RLIMIT_NPROC, &lim) == 0 && ::geteuid() != 0) {
    const int nproc = clamp_limit(lim.rlim_cur);
    if (nproc != kNoLimit)
      consider(nproc / kTasksPerRank, "the process limit (ulimit -u " + std::to_string(nproc) +
                                          ") at " + std::to_string(kTasksPerRank) +
                                          " tasks a rank");
  }
  if (::getrlimit(RLIMIT_NOFILE, &lim) == 0) {
    const int files = clamp_limit(lim.rlim_cur);
    if (files != kNoLimit)
      consider(files - kSpareFiles, "the open-file limit (ulimit -n " + std::to_string(files) +
                                        "): each rank needs one per other rank, plus " +
                                        std::to_string(kSpareFiles));
  }
  // n ranks use n(n-1)/2 + n = n(n+1)/2 ports: the largest n with that <= ports.
  const long long ports = local_ports();
  const int by_ports =
      static_cast<int>((std::sqrt(1.0 + 8.0 * static_cast<double>(ports)) - 1.0) / 2.0);
  consider(by_ports, "the " + std::to_string(ports) +
                         " local ports of net.ipv4.ip_local_port_range: Gloo connects every pair "
                         "of ranks");
  return cap;
}

}  // namespace parity::launch
