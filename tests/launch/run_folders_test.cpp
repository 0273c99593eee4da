// The launcher's folders and files on disk: stale private run folders of dead supervisors, 0700
// folders and 0600 files that follow no symlink.
#include <gtest/gtest.h>
#include <parity/launch/launch_error.h>
#include <parity/launch/run_folders.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace parity::launch {
namespace {

namespace fs = std::filesystem;

class Folder {
 public:
  Folder() {
    std::string pattern = (fs::temp_directory_path() / "parity-folders-test-XXXXXX").string();
    path_ = ::mkdtemp(pattern.data());
  }
  ~Folder() { fs::remove_all(path_); }
  std::string file(const std::string& name) const { return path_ + "/" + name; }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

mode_t mode_of(const std::string& path) {
  struct stat st {};
  if (::lstat(path.c_str(), &st) != 0) return 0;
  return st.st_mode & 07777;
}

void make_run_folder(const Folder& f, const std::string& name, const std::string& owner) {
  fs::create_directories(f.file(name));
  std::ofstream(f.file(name + "/store")) << "c10d";
  if (!owner.empty()) std::ofstream(f.file(name + "/owner")) << owner << "\n";
}

TEST(RunFolders, StaleFoldersOfGoneOwnersAreRemovedAndNothingElse) {
  Folder f;
  make_run_folder(f, "parity-run-dead", "dead");
  make_run_folder(f, "parity-run-live", "live");
  make_run_folder(f, "parity-run-young", "");  // being created: no owner file yet
  make_run_folder(f, "parity-run-empty", "");  // its owner file created, not yet written
  std::ofstream(f.file("parity-run-empty/owner")).close();
  make_run_folder(f, "unrelated", "dead");
  fs::create_directories(f.file("target"));
  std::ofstream(f.file("target/owner")) << "dead\n";
  fs::create_directory_symlink(f.file("target"), f.file("parity-run-link"));
  make_run_folder(f, "parity-run-foreign", "dead");
  const bool root = ::geteuid() == 0;
  if (root) {
    ASSERT_EQ(::chown(f.file("parity-run-foreign").c_str(), 65534, 65534), 0);
  }

  std::vector<std::string> asked;
  const int removed = remove_stale_run_folders(f.path(), [&](const std::string& owner) {
    asked.push_back(owner);
    return owner == "dead\n";
  });
  EXPECT_EQ(removed, root ? 1 : 2);
  EXPECT_FALSE(fs::exists(f.file("parity-run-dead")));
  EXPECT_TRUE(fs::exists(f.file("parity-run-live/store")));
  EXPECT_TRUE(fs::exists(f.file("parity-run-young/store")));
  EXPECT_TRUE(fs::exists(f.file("parity-run-empty/store")));
  EXPECT_EQ(std::count(asked.begin(), asked.end(), ""), 0) << "an empty owner was judged";
  EXPECT_TRUE(fs::exists(f.file("unrelated/store")));
  EXPECT_TRUE(fs::is_symlink(f.file("parity-run-link")));
  EXPECT_TRUE(fs::exists(f.file("target/owner"))) << "followed a symlink";
  if (root) {
    EXPECT_TRUE(fs::exists(f.file("parity-run-foreign/store"))) << "another user's";
  }

  // An ownerless folder counts as stale once it is an hour old.
  const auto old = fs::file_time_type::clock::now() - std::chrono::hours(2);
  fs::last_write_time(f.file("parity-run-young"), old);
  remove_stale_run_folders(f.path(), [](const std::string&) { return false; });
  EXPECT_FALSE(fs::exists(f.file("parity-run-young")));
}

TEST(RunFolders, PrivateFoldersAndFilesWhateverTheUmask) {
  Folder f;
  const mode_t old = ::umask(0);
  make_private_folder(f.file("a/b/logs"));
  const int fd = open_private_file(f.file("a/b/logs/rank0.log"));
  ::umask(old);
  ASSERT_GE(fd, 0);
  ::close(fd);
  EXPECT_EQ(mode_of(f.file("a")), 0700);
  EXPECT_EQ(mode_of(f.file("a/b/logs")), 0700);
  EXPECT_EQ(mode_of(f.file("a/b/logs/rank0.log")), 0600);
  // An existing folder the user named keeps its mode (it may be shared).
  fs::create_directories(f.file("shared"));
  fs::permissions(f.file("shared"), fs::perms(0755));
  make_private_folder(f.file("shared"));
  EXPECT_EQ(mode_of(f.file("shared")), 0755);
}

TEST(RunFolders, SymlinksAreNeitherFollowedNorWrittenThrough) {
  Folder f;
  std::ofstream(f.file("victim")) << "keep me";
  fs::create_symlink(f.file("victim"), f.file("rank0.log"));
  const int fd = open_private_file(f.file("rank0.log"));
  ASSERT_GE(fd, 0);
  ASSERT_EQ(::write(fd, "log", 3), 3);
  ::close(fd);
  std::ifstream victim(f.file("victim"));
  std::string text;
  std::getline(victim, text);
  EXPECT_EQ(text, "keep me");
  EXPECT_FALSE(fs::is_symlink(f.file("rank0.log")));

  fs::create_directories(f.file("real"));
  fs::create_directory_symlink(f.file("real"), f.file("logs"));
  try {
    make_private_folder(f.file("logs"));
    FAIL() << "a symlinked folder was accepted";
  } catch (const LaunchError& e) {
    EXPECT_NE(std::string(e.what()).find("symlink"), std::string::npos) << e.what();
  }
  EXPECT_THROW(make_private_folder(f.file("victim")), LaunchError);  // a file, not a folder
}

}  // namespace
}  // namespace parity::launch
