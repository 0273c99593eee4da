#pragma once
/// What every test binary shares: a private temporary folder, removed with everything in it when
/// the test ends. Under $TMPDIR when set (a small tmpfs for the disk-full tests), else /tmp.

#include <string>

namespace parity::test_support {

class TempDir {
 public:
  TempDir();
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::string& path() const { return path_; }
  std::string file(const std::string& name) const { return path_ + "/" + name; }

 private:
  std::string path_;
};

}  // namespace parity::test_support
