#pragma once
// Process plumbing of the launcher (internal to parity_launch): descriptors, the ranks'
// environment, fork + execve, and reading what a dead rank left behind.

#include <signal.h>
#include <sys/types.h>
#include <unistd.h>

#include <string>
#include <utility>
#include <vector>

namespace parity::launch::rank_process {

/// The status pipe's descriptor number in every rank (PARITY_STATUS_FD).
constexpr int kStatusFd = 3;

/// A file descriptor closed on destruction.
class Fd {
 public:
  explicit Fd(int fd = -1) : fd_(fd) {}
  ~Fd() { reset(); }
  Fd(Fd&& o) noexcept : fd_(o.release()) {}
  Fd& operator=(Fd&& o) noexcept {
    if (this != &o) {
      reset();
      fd_ = o.release();
    }
    return *this;
  }
  int get() const { return fd_; }
  int release() {
    int fd = fd_;
    fd_ = -1;
    return fd;
  }
  void reset() {
    if (fd_ >= 0) ::close(fd_);
    fd_ = -1;
  }

 private:
  int fd_;
};

// Moves fd above 2 (a parent started with stdin closed would otherwise hand out 0, which the
// child's dup2 onto its stdio would clobber) and sets close-on-exec.
Fd safe_fd(int fd);

/// strerror(errno).
std::string errno_text();

/// Cores this process may run on (affinity mask), at least 1.
int available_cores();

/// "SIGKILL", "SIGSEGV", ... or strsignal's text.
std::string signal_name(int sig);

/// The last non-empty line of a log file (at most 500 characters), "" when none.
std::string last_line(const std::string& path);

/// This process's environment with `vars` set (and PARITY_STORE removed when drop_store).
std::vector<std::string> rank_environment(
    const std::vector<std::pair<std::string, std::string>>& vars, bool drop_store);

/// How a child is set up between fork and exec: the one set-up of every process this library
/// starts (a rank, srun, the user's command).
struct ChildSetup {
  std::vector<std::string> args;  ///< args[0]: the program's path (or name, with search_path)
  std::vector<std::string> env;
  bool search_path = false;    ///< args[0] looked up on the child's PATH (execvpe)
  int death_signal = SIGKILL;  ///< what the child gets when this process dies
  int stdout_fd = -1;          ///< becomes its stdout
  int stderr_fd = -1;          ///< becomes its stderr
  int status_fd = -1;          ///< >= 0: inherited as kStatusFd, the one descriptor past stdio
  std::string workdir;         ///< entered before the exec; "" = this process's
};

/// fork + exec of `setup` in a process group of its own, its signals default and unblocked,
/// stdin /dev/null, no descriptor beyond stdio (and the status one) inherited, whatever the
/// caller left open. Between fork and exec only async-signal-safe calls (the caller may have
/// threads). Throws LaunchError: "cannot enter the working directory DIR: ..." when it cannot,
/// else "`cannot_start`: <strerror>" when the exec fails.
pid_t spawn_child(const ChildSetup& setup, const std::string& cannot_start);

/// fork + execve of one rank (spawn_child). Throws LaunchError when the exec fails.
pid_t spawn(const std::string& worker, const std::vector<std::string>& env, int status_fd,
            int log_fd);
/// The same for a program with arguments (args[0] is its path); with status_on_stdout the status
/// pipe is also its stdout (srun, whose tasks' stdout carries their status lines).
pid_t spawn(const std::vector<std::string>& args, const std::vector<std::string>& env,
            int status_fd, int log_fd, bool status_on_stdout);

/// The path of `program`: itself when it holds a '/', else the first executable of that name on
/// PATH. Throws LaunchError when there is none.
std::string find_program(const std::string& program);

}  // namespace parity::launch::rank_process
