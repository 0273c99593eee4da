#include "fault_util.h"

#include <parity/storage/database.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <thread>
#include <vector>

namespace parity::cli::testing {

namespace fs = std::filesystem;

bool process_alive(pid_t pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
  std::string line;
  if (!std::getline(in, line)) return false;
  const size_t close = line.rfind(')');
  return close != std::string::npos && close + 2 < line.size() && line[close + 2] != 'Z';
}

std::vector<pid_t> rank_pids(const std::string& log_dir) {
  std::vector<pid_t> pids;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(log_dir, ec)) {
    std::ifstream in(entry.path());
    std::stringstream text;
    text << in.rdbuf();
    std::smatch m;
    const std::string s = text.str();
    if (std::regex_search(s, m, std::regex("PID=([0-9]+)"))) pids.push_back(std::stoi(m[1]));
  }
  return pids;
}

std::vector<std::string> run_folders_in(const std::string& folder) {
  std::vector<std::string> names;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(folder, ec)) {
    const std::string name = entry.path().filename().string();
    if (name.rfind("parity-run-", 0) == 0) names.push_back(name);
  }
  return names;
}

bool wait_for(const std::function<bool()>& done, std::chrono::milliseconds limit) {
  const auto deadline = std::chrono::steady_clock::now() + limit;
  while (std::chrono::steady_clock::now() < deadline) {
    if (done()) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return done();
}

int64_t steps_done_of(const std::string& db_path, int64_t run_id) {
  if (!fs::exists(db_path)) return -1;
  try {
    storage::Database db(db_path, storage::OpenMode::kReadOnly);
    auto run = db.get_run(run_id);
    return run ? run->steps_done : -1;
  } catch (const storage::StorageError&) {
    return -1;  // not created yet, or mid-migration
  }
}

namespace {

bool write_text(const std::string& path, const std::string& text) {
  std::ofstream out(path);
  out << text;
  out.flush();
  return static_cast<bool>(out);
}

}  // namespace

MemoryCgroup::MemoryCgroup(long long bytes) {
  // v1: the memory controller's own hierarchy; v2: the unified one, where it lists "memory".
  const std::string name = "parity-test-" + std::to_string(::getpid());
  struct Kind {
    std::string root, limit_file;
  };
  std::string v2_controllers;
  {
    std::ifstream in("/sys/fs/cgroup/cgroup.controllers");
    std::getline(in, v2_controllers);
  }
  std::vector<Kind> kinds = {{"/sys/fs/cgroup/memory", "memory.limit_in_bytes"}};
  if (v2_controllers.find("memory") != std::string::npos)
    kinds.push_back({"/sys/fs/cgroup", "memory.max"});
  for (const Kind& k : kinds) {
    if (!fs::is_directory(k.root)) continue;
    const std::string path = k.root + "/" + name;
    if (::mkdir(path.c_str(), 0755) != 0 && errno != EEXIST) {
      why_ =
          "cannot make a memory cgroup under " + k.root + " (needs root): " + std::strerror(errno);
      continue;
    }
    if (!write_text(path + "/" + k.limit_file, std::to_string(bytes))) {
      ::rmdir(path.c_str());
      why_ = "cannot limit the memory of " + path;
      continue;
    }
    root_ = k.root;
    path_ = path;
    return;
  }
  if (why_.empty()) why_ = "no cgroup memory controller is mounted";
}

MemoryCgroup::~MemoryCgroup() {
  if (path_.empty()) return;
  // Its processes may take a moment to be reaped after they were killed.
  for (int i = 0; i < 200 && ::rmdir(path_.c_str()) != 0 && errno == EBUSY; ++i) ::usleep(10000);
}

bool MemoryCgroup::enter(pid_t pid) {
  return made() && write_text(path_ + "/cgroup.procs", std::to_string(pid));
}

bool MemoryCgroup::leave(pid_t pid) {
  return made() && write_text(root_ + "/cgroup.procs", std::to_string(pid));
}

}  // namespace parity::cli::testing
