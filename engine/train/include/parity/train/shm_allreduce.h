#pragma once
// A sum-allreduce and a broadcast for the ranks of one machine through one shared-memory segment,
// the transport behind GradientSync on one node (Gloo's loopback TCP costs more than the sum).
//
// Segment: a header (barrier, pids), W input slots and one result area, each chunk_floats long.
// A buffer is processed chunk by chunk, two barriers a chunk: every rank copies its chunk into its
// slot; barrier; rank r sums its share of the chunk over slots 0..W-1 in rank order into the
// result; barrier; every rank copies the result out. The next chunk's copy-in only touches slots
// (all read before the second barrier) and its sums only the result (all copied out before the
// next first barrier), so no third barrier is needed.
//
// The barrier counts arrivals and bumps a generation counter; waiters spin briefly (only when
// there is a core per rank) and then sleep on the generation with FUTEX_WAIT, waking every
// kPollMs to check the deadline (collective timeout) and whether a peer is gone (its pid dead or
// a zombie, or it left the segment). A rank that fails marks the segment aborted so the others
// fail at once. Failures throw TrainError. Not thread-safe: one object per rank.

#include <cstdint>
#include <string>

namespace parity::train {

struct ShmAllreduceOptions {
  /// Floats per slot: W+1 such areas make the segment (1 MiB each by default).
  int64_t chunk_floats = int64_t{1} << 18;
  /// How long one barrier may wait for the others (DistEnv::collective_timeout_s).
  double timeout_s = 300;
};

class ShmAllreduce {
 public:
  /// Rank 0 creates the segment file at `path` (which must not exist: a stale or concurrent run
  /// is refused) and the others open it, waiting up to timeout_s for it to appear. Returns once
  /// every rank is attached; rank 0 then unlinks the file, so nothing is left behind even if a
  /// rank is killed later. Throws TrainError.
  ShmAllreduce(std::string path, int rank, int world_size, ShmAllreduceOptions options = {});
  ~ShmAllreduce();
  ShmAllreduce(const ShmAllreduce&) = delete;
  ShmAllreduce& operator=(const ShmAllreduce&) = delete;

  /// data[i] = sum over ranks r = 0..W-1, in that order, of rank r's data[i].
  void allreduce_sum(float* data, int64_t n);
  /// data = root's data on every rank.
  void broadcast(float* data, int64_t n, int root);

  /// Bytes of the segment for world_size ranks and chunk_floats.
  static int64_t segment_bytes(int world_size, int64_t chunk_floats);

 private:
  struct Header;
  void create();
  void release();
  void open_existing();
  void barrier();
  void wait_for_generation(uint32_t generation);
  void check_peers();
  [[noreturn]] void fail(const std::string& message);
  float* slot(int r) const;
  float* result() const;

  std::string path_;
  int rank_;
  int world_size_;
  ShmAllreduceOptions options_;
  bool spin_;  // a core per rank: spinning a little before sleeping pays
  void* map_ = nullptr;
  int64_t map_bytes_ = 0;
  Header* header_ = nullptr;
  bool linked_ = false;  // rank 0: the file is still on disk
};

}  // namespace parity::train
