#pragma once
/// How many ranks this machine can host in one run, from its limits, so a run that cannot start
/// is refused before anything starts instead of failing half-way (fork refused, descriptors or
/// ports exhausted mid-rendezvous). Torch-free, POSIX.

#include <string>

namespace parity::launch {

struct RankCapacity {
  int max_ranks = 0;   ///< the smallest of the limits below
  std::string reason;  ///< which limit, in words, with its numbers
};

/// The limits, each a stated estimate:
/// - processes: RLIMIT_NPROC (not enforced for root) counts the user's tasks; a rank runs at least
///   kTasksPerRank of them (its main thread, intra-op and Gloo threads);
/// - open files: RLIMIT_NOFILE, which each rank needs one of per peer (Gloo's full mesh) plus
///   kSpareFiles of its own;
/// - ports: Gloo's mesh opens a TCP connection per pair of ranks, each taking a local port from
///   net.ipv4.ip_local_port_range, plus a listening port per rank.
RankCapacity rank_capacity();

inline constexpr int kTasksPerRank = 4;
inline constexpr int kSpareFiles = 64;

}  // namespace parity::launch
