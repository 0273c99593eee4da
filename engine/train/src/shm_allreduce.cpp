#include <fcntl.h>
#include <linux/futex.h>
#include <parity/train/shm_allreduce.h>
#include <parity/train/train_error.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <climits>
#include <cstring>
#include <fstream>
#include <new>
#include <thread>

namespace parity::train {
namespace {

constexpr uint64_t kMagic = 0x5041524954595348ULL;  // "PARITYSH"
constexpr int kMaxWorld = 256;
constexpr int kPollMs = 20;   // a sleeping waiter wakes this often to check the deadline and peers
constexpr int kSpins = 2000;  // pause instructions before sleeping (only with a core per rank)
constexpr int64_t kPage = 4096;

using Clock = std::chrono::steady_clock;

void cpu_relax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#else
  std::this_thread::yield();
#endif
}

// Not FUTEX_PRIVATE: the word is shared between processes.
void futex_wait(std::atomic<uint32_t>* word, uint32_t expected, int timeout_ms) {
  timespec ts{timeout_ms / 1000, static_cast<long>(timeout_ms % 1000) * 1000000L};
  syscall(SYS_futex, reinterpret_cast<uint32_t*>(word), FUTEX_WAIT, expected, &ts, nullptr, 0);
}

void futex_wake_all(std::atomic<uint32_t>* word) {
  syscall(SYS_futex, reinterpret_cast<uint32_t*>(word), FUTEX_WAKE, INT_MAX, nullptr, nullptr, 0);
}

// A process that no longer runs: gone, or a zombie its parent has not reaped yet.
bool process_gone(pid_t pid) {
  if (::kill(pid, 0) == -1 && errno == ESRCH) return true;
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  std::string line;
  if (!std::getline(stat, line)) return false;
  const auto close = line.rfind(')');
  if (close == std::string::npos || close + 2 >= line.size()) return false;
  const char state = line[close + 2];
  return state == 'Z' || state == 'X';
}

}  // namespace

struct ShmAllreduce::Header {
  std::atomic<uint64_t> magic{0};
  int32_t world_size = 0;
  int64_t chunk_floats = 0;
  alignas(64) std::atomic<uint32_t> arrived{0};
  alignas(64) std::atomic<uint32_t> generation{0};
  alignas(64) std::atomic<uint32_t> aborted{0};
  std::atomic<int32_t> pids[kMaxWorld] = {};
  std::atomic<uint32_t> departed[kMaxWorld] = {};
};

namespace {
// The data areas start on a page of their own.
constexpr int64_t header_bytes() { return 4 * kPage; }
}  // namespace

int64_t ShmAllreduce::segment_bytes(int world_size, int64_t chunk_floats) {
  return header_bytes() + (world_size + 1) * chunk_floats * static_cast<int64_t>(sizeof(float));
}

ShmAllreduce::ShmAllreduce(std::string path, int rank, int world_size, ShmAllreduceOptions options)
    : path_(std::move(path)),
      rank_(rank),
      world_size_(world_size),
      options_(options),
      spin_(world_size <= static_cast<int>(std::thread::hardware_concurrency())) {
  static_assert(sizeof(Header) <= 4 * kPage, "the header outgrew its pages");
  if (world_size < 1 || world_size > kMaxWorld || rank < 0 || rank >= world_size ||
      options_.chunk_floats < 16) {
    throw TrainError("shared-memory allreduce: rank " + std::to_string(rank) + " of " +
                     std::to_string(world_size) + " with chunk " +
                     std::to_string(options_.chunk_floats) + " is not a valid setup");
  }
  map_bytes_ = segment_bytes(world_size, options_.chunk_floats);
  try {
    if (rank_ == 0) {
      create();
    } else {
      open_existing();
    }
    barrier();  // every rank attached
  } catch (...) {
    release();
    throw;
  }
  if (rank_ == 0) {
    ::unlink(path_.c_str());
    linked_ = false;
  }
}

ShmAllreduce::~ShmAllreduce() { release(); }

void ShmAllreduce::release() {
  if (header_) header_->departed[rank_].store(1, std::memory_order_release);
  if (linked_) ::unlink(path_.c_str());
  if (map_) ::munmap(map_, static_cast<size_t>(map_bytes_));
  header_ = nullptr;
  map_ = nullptr;
  linked_ = false;
}

void ShmAllreduce::create() {
  const std::string tmp = path_ + ".init." + std::to_string(::getpid());
  const int fd = ::open(tmp.c_str(), O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  if (fd < 0) fail("cannot create " + tmp + ": " + std::strerror(errno));
  const bool sized = ::ftruncate(fd, map_bytes_) == 0;
  void* map = sized ? ::mmap(nullptr, static_cast<size_t>(map_bytes_), PROT_READ | PROT_WRITE,
                             MAP_SHARED, fd, 0)
                    : MAP_FAILED;
  const int err = errno;
  ::close(fd);
  if (map == MAP_FAILED) {
    ::unlink(tmp.c_str());
    throw TrainError("shared-memory allreduce: cannot map " + std::to_string(map_bytes_) +
                     " bytes at " + tmp + ": " + std::strerror(err));
  }
  map_ = map;
  header_ = new (map_) Header();
  header_->world_size = world_size_;
  header_->chunk_floats = options_.chunk_floats;
  header_->pids[0].store(::getpid());
  header_->magic.store(kMagic, std::memory_order_release);
  // link() refuses an existing name, so a leftover or another run's segment is never reused.
  const bool published = ::link(tmp.c_str(), path_.c_str()) == 0;
  const int link_err = errno;
  ::unlink(tmp.c_str());
  if (!published) {
    throw TrainError("shared-memory allreduce: cannot publish the segment at " + path_ + ": " +
                     std::strerror(link_err));
  }
  linked_ = true;
}

void ShmAllreduce::open_existing() {
  const auto deadline = Clock::now() + std::chrono::duration<double>(options_.timeout_s);
  int fd = -1;
  while ((fd = ::open(path_.c_str(), O_RDWR | O_CLOEXEC)) < 0) {
    if (errno != ENOENT || Clock::now() > deadline) {
      throw TrainError("shared-memory allreduce: rank " + std::to_string(rank_) +
                       " cannot open the segment " + path_ + ": " + std::strerror(errno));
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  struct stat st {};
  const bool sized = ::fstat(fd, &st) == 0 && st.st_size == map_bytes_;
  void* map = sized ? ::mmap(nullptr, static_cast<size_t>(map_bytes_), PROT_READ | PROT_WRITE,
                             MAP_SHARED, fd, 0)
                    : MAP_FAILED;
  ::close(fd);
  if (map == MAP_FAILED) {
    throw TrainError("shared-memory allreduce: the segment " + path_ + " is not " +
                     std::to_string(map_bytes_) + " bytes or cannot be mapped");
  }
  map_ = map;
  header_ = static_cast<Header*>(map_);
  if (header_->magic.load(std::memory_order_acquire) != kMagic ||
      header_->world_size != world_size_ || header_->chunk_floats != options_.chunk_floats) {
    throw TrainError("shared-memory allreduce: the segment " + path_ +
                     " was made for another world size or chunk");
  }
  header_->pids[rank_].store(::getpid());
}

float* ShmAllreduce::slot(int r) const {
  return reinterpret_cast<float*>(static_cast<char*>(map_) + header_bytes()) +
         static_cast<int64_t>(r) * options_.chunk_floats;
}

float* ShmAllreduce::result() const { return slot(world_size_); }

void ShmAllreduce::fail(const std::string& message) {
  if (header_) {
    header_->aborted.store(1, std::memory_order_release);
    futex_wake_all(&header_->generation);
  }
  throw TrainError("shared-memory allreduce, rank " + std::to_string(rank_) + " of " +
                   std::to_string(world_size_) + ": " + message);
}

void ShmAllreduce::barrier() {
  Header& h = *header_;
  const uint32_t generation = h.generation.load(std::memory_order_acquire);
  if (h.arrived.fetch_add(1, std::memory_order_acq_rel) + 1 == static_cast<uint32_t>(world_size_)) {
    h.arrived.store(0, std::memory_order_relaxed);
    h.generation.store(generation + 1, std::memory_order_release);
    futex_wake_all(&h.generation);
    return;
  }
  wait_for_generation(generation);
}

void ShmAllreduce::wait_for_generation(uint32_t generation) {
  Header& h = *header_;
  if (spin_) {
    for (int i = 0; i < kSpins; ++i) {
      if (h.generation.load(std::memory_order_acquire) != generation) return;
      cpu_relax();
    }
  }
  const auto start = Clock::now();
  const auto deadline = start + std::chrono::duration<double>(options_.timeout_s);
  while (h.generation.load(std::memory_order_acquire) == generation) {
    if (h.aborted.load(std::memory_order_acquire)) fail("another rank failed in a collective");
    if (Clock::now() >= deadline) {
      fail("timed out after " + std::to_string(options_.timeout_s) + " s with " +
           std::to_string(h.arrived.load()) + " of " + std::to_string(world_size_) +
           " ranks at the barrier");
    }
    futex_wait(&h.generation, generation, kPollMs);
    if (h.generation.load(std::memory_order_acquire) != generation) return;
    check_peers();
  }
}

void ShmAllreduce::check_peers() {
  // A failed rank marks the segment before it leaves it: its failure is the news, not its leaving.
  if (header_->aborted.load(std::memory_order_acquire)) {
    fail("another rank failed in a collective");
  }
  const pid_t self = ::getpid();
  for (int r = 0; r < world_size_; ++r) {
    if (r == rank_) continue;
    if (header_->departed[r].load(std::memory_order_acquire)) {
      fail("rank " + std::to_string(r) + " left the collective (it failed or ended)");
    }
    const pid_t pid = header_->pids[r].load();
    if (pid > 0 && pid != self && process_gone(pid)) {
      fail("rank " + std::to_string(r) + " (pid " + std::to_string(pid) + ") is gone");
    }
  }
}

void ShmAllreduce::allreduce_sum(float* data, int64_t n) {
  const int64_t chunk = options_.chunk_floats;
  float* const out = result();
  for (int64_t offset = 0; offset < n; offset += chunk) {
    const int64_t m = std::min(chunk, n - offset);
    std::memcpy(slot(rank_), data + offset, static_cast<size_t>(m) * sizeof(float));
    barrier();
    // This rank's share of the chunk, 16 floats aligned (a cache line).
    const int64_t share = ((m + world_size_ - 1) / world_size_ + 15) / 16 * 16;
    const int64_t begin = std::min(m, rank_ * share);
    const int64_t end = std::min(m, begin + share);
    if (end > begin) {
      // ((s0 + s1) + s2) + ...: rank order, the same association for every element.
      float* dst = out + begin;
      const float* s0 = slot(0) + begin;
      const int64_t len = end - begin;
      if (world_size_ == 1) {
        std::memcpy(dst, s0, static_cast<size_t>(len) * sizeof(float));
      } else {
        const float* s1 = slot(1) + begin;
        for (int64_t i = 0; i < len; ++i) dst[i] = s0[i] + s1[i];
      }
      for (int r = 2; r < world_size_; ++r) {
        const float* s = slot(r) + begin;
        for (int64_t i = 0; i < len; ++i) dst[i] += s[i];
      }
    }
    barrier();
    std::memcpy(data + offset, out, static_cast<size_t>(m) * sizeof(float));
  }
}

void ShmAllreduce::broadcast(float* data, int64_t n, int root) {
  // Through the root's slot, not the result area: a rank may still be copying the result of the
  // previous allreduce out, while every slot was read before that allreduce's last barrier.
  const int64_t chunk = options_.chunk_floats;
  for (int64_t offset = 0; offset < n; offset += chunk) {
    const int64_t m = std::min(chunk, n - offset);
    const size_t bytes = static_cast<size_t>(m) * sizeof(float);
    if (rank_ == root) std::memcpy(slot(root), data + offset, bytes);
    barrier();
    if (rank_ != root) std::memcpy(data + offset, slot(root), bytes);
    barrier();
  }
}

}  // namespace parity::train
