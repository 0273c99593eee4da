#include <dirent.h>
#include <fcntl.h>
#include <parity/launch/launch_error.h>
#include <parity/launch/run_folders.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <vector>

namespace parity::launch {
namespace {

namespace fs = std::filesystem;

std::string errno_text() { return std::strerror(errno); }

constexpr double kOwnerlessGraceS = 3600;

}  // namespace

std::string run_folder_parent() {
  const char* tmp = std::getenv("TMPDIR");
  return tmp && *tmp ? tmp : "/tmp";
}

int remove_stale_run_folders(const std::string& parent,
                             const std::function<bool(const std::string& owner)>& owner_gone) {
  DIR* dir = ::opendir(parent.c_str());
  if (!dir) return 0;
  std::vector<std::string> names;
  while (dirent* e = ::readdir(dir)) {
    if (std::strncmp(e->d_name, kRunFolderPrefix, std::strlen(kRunFolderPrefix)) == 0)
      names.emplace_back(e->d_name);
  }
  ::closedir(dir);
  int removed = 0;
  for (const auto& name : names) {
    const std::string path = parent + "/" + name;
    struct stat st {};
    // lstat: a symlink named like a run folder is someone's trap, not ours to follow.
    if (::lstat(path.c_str(), &st) != 0 || !S_ISDIR(st.st_mode) || st.st_uid != ::geteuid())
      continue;
    std::ifstream in(path + "/owner");
    std::stringstream owner;
    if (in) owner << in.rdbuf();
    // No owner yet (or an empty one: a launcher between creating the file and writing it): judged
    // by age alone, so a folder being set up is never taken away.
    const std::string text = owner.str();
    const bool gone = !text.empty()
                          ? owner_gone(text)
                          : std::difftime(std::time(nullptr), st.st_mtime) > kOwnerlessGraceS;
    if (!gone) continue;
    std::error_code ec;
    fs::remove_all(path, ec);
    if (!ec) ++removed;
  }
  return removed;
}

void make_private_folder(const std::string& path) {
  if (path.empty()) throw LaunchError("make_private_folder: the path is empty");
  fs::path p = fs::path(path).lexically_normal();
  // Create each missing component ourselves, so it is 0700 whatever the umask.
  fs::path partial;
  for (const auto& part : p) {
    partial /= part;
    if (partial == p.root_path() || part.empty()) continue;
    if (::mkdir(partial.c_str(), 0700) == 0) {
      if (::chmod(partial.c_str(), 0700) != 0)
        throw LaunchError("cannot make " + partial.string() + " private (0700): " + errno_text());
    } else if (errno != EEXIST) {
      throw LaunchError("cannot create folder " + partial.string() + ": " + errno_text());
    }
  }
  struct stat st {};
  if (::lstat(p.c_str(), &st) != 0)
    throw LaunchError("cannot read folder " + p.string() + ": " + errno_text());
  if (S_ISLNK(st.st_mode))
    throw LaunchError("the log folder " + p.string() +
                      " is a symlink; Parity does not follow it (remove it or pick another)");
  if (!S_ISDIR(st.st_mode)) throw LaunchError(p.string() + " is not a folder");
}

int open_private_file(const std::string& path) {
  // An old log (or anything planted in its place) goes first; unlink removes a symlink itself.
  if (::unlink(path.c_str()) != 0 && errno != ENOENT)
    throw LaunchError("cannot replace " + path + ": " + errno_text());
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
  if (fd < 0) throw LaunchError("cannot open " + path + ": " + errno_text());
  // The umask can only take bits away from 0600; fchmod states the mode outright anyway.
  ::fchmod(fd, 0600);
  return fd;
}

void write_private_file(const std::string& path, const std::string& text) {
  const int fd = open_private_file(path);
  size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      const std::string why = errno_text();
      ::close(fd);
      throw LaunchError("cannot write " + path + ": " + why);
    }
    done += static_cast<size_t>(n);
  }
  if (::close(fd) != 0) throw LaunchError("cannot write " + path + ": " + errno_text());
}

}  // namespace parity::launch
