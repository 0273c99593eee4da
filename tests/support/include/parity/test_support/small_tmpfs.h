#pragma once
/// A small tmpfs for the tests that fill or freeze a disk for real (root only; where mounting is
/// not allowed, mounted() is false and why() says so, for ci_skip.h's PARITY_SKIP_OR_FAIL).

#include <string>

namespace parity::test_support {

/// A tmpfs of `kib` KiB mounted on a fresh folder, unmounted (and the folder removed) on
/// destruction. mounted() is false, with why(), where mounting is not allowed (not root).
class SmallTmpfs {
 public:
  explicit SmallTmpfs(int kib);
  ~SmallTmpfs();
  SmallTmpfs(const SmallTmpfs&) = delete;
  SmallTmpfs& operator=(const SmallTmpfs&) = delete;
  bool mounted() const { return mounted_; }
  const std::string& why() const { return why_; }
  const std::string& path() const { return path_; }
  std::string file(const std::string& name) const { return path_ + "/" + name; }
  /// Remounts it read-only; false (with why()) when that fails.
  bool make_read_only();
  /// Bytes still free.
  long long free_bytes() const;

 private:
  std::string path_;
  bool mounted_ = false;
  std::string why_;
};

}  // namespace parity::test_support
