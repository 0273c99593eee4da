#include <parity/test_support/small_tmpfs.h>
#include <stdlib.h>
#include <sys/mount.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

namespace parity::test_support {

namespace fs = std::filesystem;

SmallTmpfs::SmallTmpfs(int kib) {
  std::string pattern = (fs::temp_directory_path() / "parity-tmpfs-XXXXXX").string();
  if (!::mkdtemp(pattern.data())) {
    why_ = "mkdtemp failed";
    return;
  }
  path_ = pattern;
  const std::string options = "size=" + std::to_string(kib) + "k,mode=0755";
  if (::mount("tmpfs", path_.c_str(), "tmpfs", 0, options.c_str()) != 0) {
    why_ = std::string("cannot mount a tmpfs (needs root): ") + std::strerror(errno);
    return;
  }
  mounted_ = true;
}

SmallTmpfs::~SmallTmpfs() {
  if (mounted_) ::umount2(path_.c_str(), MNT_DETACH);
  if (!path_.empty()) ::rmdir(path_.c_str());
}

bool SmallTmpfs::make_read_only() {
  if (::mount("tmpfs", path_.c_str(), "tmpfs", MS_REMOUNT | MS_RDONLY, nullptr) != 0) {
    why_ = std::string("cannot remount read-only: ") + std::strerror(errno);
    return false;
  }
  return true;
}

long long SmallTmpfs::free_bytes() const {
  struct statvfs st {};
  if (::statvfs(path_.c_str(), &st) != 0) return -1;
  return static_cast<long long>(st.f_bavail) * static_cast<long long>(st.f_frsize);
}

}  // namespace parity::test_support
