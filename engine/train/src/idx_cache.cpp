#include <fcntl.h>
#include <parity/config/dataset_error.h>
#include <parity/train/idx_cache.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <memory>
#include <optional>
#include <thread>

namespace parity::train {
namespace {

struct GzFile {
  gzFile f = nullptr;
  ~GzFile() {
    if (f) gzclose(f);
  }
};

void read_exact(gzFile f, void* out, size_t n, const std::string& path) {
  auto* p = static_cast<char*>(out);
  while (n > 0) {
    int got = gzread(f, p, static_cast<unsigned>(std::min<size_t>(n, 1u << 30)));
    if (got <= 0) throw config::DatasetError(path + ": truncated IDX file (expected more data)");
    p += got;
    n -= static_cast<size_t>(got);
  }
}

namespace fs = std::filesystem;

constexpr char kMagic[8] = {'P', 'A', 'R', 'I', 'D', 'X', '0', '1'};
// The header takes one page, so the payload is page-aligned in the mapping.
constexpr size_t kHeaderBytes = 4096;
// A lock held longer than this (a stopped process) is not waited for: the source is decoded.
constexpr auto kLockWait = std::chrono::seconds(30);

// The source as the cache knows it: its real path, size and modification time.
struct Source {
  std::string path;
  uint64_t size = 0;
  int64_t mtime_ns = 0;
};

// The cache file's first bytes (host byte order: the cache never leaves the machine).
struct Header {
  char magic[8];
  uint64_t source_size;
  int64_t source_mtime_ns;
  uint32_t dims;
  uint32_t path_bytes;
  int64_t shape[4];
  uint64_t payload_bytes;
  uint64_t checksum;  // FNV-1a of the fields above and the path that follows them
};
static_assert(sizeof(Header) < kHeaderBytes);

uint64_t fnv1a(const void* data, size_t n, uint64_t h = 1469598103934665603ull) {
  const auto* p = static_cast<const unsigned char*>(data);
  for (size_t i = 0; i < n; ++i) h = (h ^ p[i]) * 1099511628211ull;
  return h;
}

uint64_t header_checksum(Header h, const char* path) {
  h.checksum = 0;
  return fnv1a(path, h.path_bytes, fnv1a(&h, sizeof h));
}

std::optional<Source> identify(const std::string& path) {
  char real[PATH_MAX];
  struct stat st {};
  if (!::realpath(path.c_str(), real) || ::stat(real, &st) != 0) return std::nullopt;
  Source s;
  s.path = real;
  s.size = static_cast<uint64_t>(st.st_size);
  s.mtime_ns = static_cast<int64_t>(st.st_mtim.tv_sec) * 1000000000 + st.st_mtim.tv_nsec;
  if (sizeof(Header) + s.path.size() > kHeaderBytes) return std::nullopt;
  return s;
}

std::string cache_file(const std::string& folder, const Source& s) {
  char name[40];
  std::snprintf(name, sizeof name, "idx-%016llx.u8",
                static_cast<unsigned long long>(fnv1a(s.path.data(), s.path.size())));
  return folder + "/" + name;
}

struct Fd {
  int fd = -1;
  explicit Fd(int f) : fd(f) {}
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  ~Fd() {
    if (fd >= 0) ::close(fd);
  }
};

// The cache file mapped, when it holds exactly this source's decoded bytes.
std::optional<torch::Tensor> map_entry(const std::string& file, const Source& src) {
  Fd f(::open(file.c_str(), O_RDONLY | O_CLOEXEC));
  if (f.fd < 0) return std::nullopt;
  struct stat st {};
  if (::fstat(f.fd, &st) != 0 || static_cast<size_t>(st.st_size) < kHeaderBytes)
    return std::nullopt;
  char page[kHeaderBytes];
  if (::pread(f.fd, page, kHeaderBytes, 0) != static_cast<ssize_t>(kHeaderBytes))
    return std::nullopt;
  Header h;
  std::memcpy(&h, page, sizeof h);
  const char* path = page + sizeof h;
  if (std::memcmp(h.magic, kMagic, sizeof kMagic) != 0 || h.path_bytes != src.path.size() ||
      h.checksum != header_checksum(h, path) || h.source_size != src.size ||
      h.source_mtime_ns != src.mtime_ns || std::memcmp(path, src.path.data(), h.path_bytes) != 0 ||
      h.dims < 1 || h.dims > 4) {
    return std::nullopt;
  }
  uint64_t count = 1;
  for (uint32_t i = 0; i < h.dims; ++i) {
    if (h.shape[i] < 0) return std::nullopt;
    count *= static_cast<uint64_t>(h.shape[i]);
  }
  if (count != h.payload_bytes || static_cast<uint64_t>(st.st_size) != kHeaderBytes + count)
    return std::nullopt;
  const auto bytes = static_cast<size_t>(st.st_size);
  void* base = ::mmap(nullptr, bytes, PROT_READ, MAP_SHARED, f.fd, 0);
  if (base == MAP_FAILED) return std::nullopt;
  std::vector<int64_t> shape(h.shape, h.shape + h.dims);
  return torch::from_blob(
      static_cast<char*>(base) + kHeaderBytes, shape,
      [base, bytes](void*) { ::munmap(base, bytes); }, torch::TensorOptions().dtype(torch::kUInt8));
}

bool write_all(int fd, const void* data, size_t n) {
  const auto* p = static_cast<const char*>(data);
  while (n > 0) {
    const ssize_t w = ::write(fd, p, n);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) return false;
    p += w;
    n -= static_cast<size_t>(w);
  }
  return true;
}

// Writes the entry under a name of its own, then renames it into place: a reader sees the old
// file, no file, or the whole new one.
bool write_entry(const std::string& file, const Source& src, const torch::Tensor& decoded) {
  static std::atomic<int> counter{0};
  const std::string tmp =
      file + ".tmp." + std::to_string(::getpid()) + "." + std::to_string(counter.fetch_add(1));
  Fd f(::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644));
  if (f.fd < 0) return false;
  char page[kHeaderBytes] = {};
  Header h{};
  std::memcpy(h.magic, kMagic, sizeof kMagic);
  h.source_size = src.size;
  h.source_mtime_ns = src.mtime_ns;
  h.dims = static_cast<uint32_t>(decoded.dim());
  h.path_bytes = static_cast<uint32_t>(src.path.size());
  for (int64_t i = 0; i < decoded.dim(); ++i) h.shape[i] = decoded.size(i);
  h.payload_bytes = static_cast<uint64_t>(decoded.numel());
  h.checksum = header_checksum(h, src.path.data());
  std::memcpy(page, &h, sizeof h);
  std::memcpy(page + sizeof h, src.path.data(), src.path.size());
  const bool ok = write_all(f.fd, page, kHeaderBytes) &&
                  write_all(f.fd, decoded.data_ptr<uint8_t>(), h.payload_bytes) &&
                  ::close(f.fd) == 0;
  f.fd = -1;
  if (ok && ::rename(tmp.c_str(), file.c_str()) == 0) return true;
  ::unlink(tmp.c_str());
  return false;
}

// An exclusive flock on `<file>.lock`, waited for up to kLockWait; not held when that fails.
class EntryLock {
 public:
  explicit EntryLock(const std::string& file)
      : fd_(::open((file + ".lock").c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644)) {
    if (fd_.fd < 0) return;
    const auto give_up = std::chrono::steady_clock::now() + kLockWait;
    while (::flock(fd_.fd, LOCK_EX | LOCK_NB) != 0) {
      if (errno != EWOULDBLOCK && errno != EINTR) return;
      if (std::chrono::steady_clock::now() > give_up) return;
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    held_ = true;
  }  // the lock goes with the descriptor
  bool held() const { return held_; }

 private:
  Fd fd_;
  bool held_ = false;
};

// Temporary copies of `file` left by a writer that was killed: nobody else writes them while the
// lock is held.
void remove_leftovers(const std::string& file) {
  const fs::path p(file);
  const std::string prefix = p.filename().string() + ".tmp.";
  std::error_code ec;
  for (fs::directory_iterator it(p.parent_path(), ec), end; !ec && it != end; it.increment(ec)) {
    if (it->path().filename().string().rfind(prefix, 0) == 0) fs::remove(it->path(), ec);
  }
}

}  // namespace

IdxCacheOptions IdxCacheOptions::from_environment() {
  IdxCacheOptions o;
  if (const char* v = std::getenv(kEnvDataCache); v && *v) {
    if (std::strcmp(v, "off") != 0) o.folder = v;
    return o;
  }
  if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg == '/') {
    o.folder = std::string(xdg) + "/parity";
  } else if (const char* home = std::getenv("HOME"); home && *home) {
    o.folder = std::string(home) + "/.cache/parity";
  }
  return o;
}

std::string idx_cache_file(const std::string& path, const IdxCacheOptions& options) {
  if (options.folder.empty()) return {};
  const auto src = identify(path);
  return src ? cache_file(options.folder, *src) : std::string();
}

torch::Tensor read_idx(const std::string& path) {
  GzFile g;
  g.f = gzopen(path.c_str(), "rb");  // reads plain files too
  if (!g.f) throw config::DatasetError("cannot open " + path);
  unsigned char magic[4];
  read_exact(g.f, magic, 4, path);
  if (magic[0] != 0 || magic[1] != 0 || magic[2] != 0x08) {
    throw config::DatasetError(path + ": not an IDX file of unsigned bytes (bad magic number)");
  }
  const int dims = magic[3];
  if (dims < 1 || dims > 4)
    throw config::DatasetError(path + ": IDX with " + std::to_string(dims) + " dims");
  std::vector<int64_t> shape;
  int64_t count = 1;
  for (int i = 0; i < dims; ++i) {
    unsigned char b[4];
    read_exact(g.f, b, 4, path);
    int64_t d = (int64_t{b[0]} << 24) | (int64_t{b[1]} << 16) | (int64_t{b[2]} << 8) | b[3];
    shape.push_back(d);
    count *= d;
  }
  auto out = torch::empty(shape, torch::kUInt8);
  read_exact(g.f, out.data_ptr<uint8_t>(), static_cast<size_t>(count), path);
  return out;
}

torch::Tensor read_idx_cached(const std::string& path, const IdxCacheOptions& options) {
  const auto src = options.folder.empty() ? std::nullopt : identify(path);
  if (!src || src->size < options.min_source_bytes) return read_idx(path);
  std::error_code ec;
  fs::create_directories(options.folder, ec);
  const std::string file = cache_file(options.folder, *src);
  if (auto mapped = map_entry(file, *src)) return *mapped;
  EntryLock lock(file);
  if (auto mapped = map_entry(file, *src)) return *mapped;  // built while this one waited
  if (lock.held()) remove_leftovers(file);
  torch::Tensor decoded = read_idx(path);
  if (write_entry(file, *src, decoded)) {
    if (auto mapped = map_entry(file, *src)) return *mapped;
  }
  return decoded;
}

}  // namespace parity::train
