#include "rank_process.h"

#include <fcntl.h>
#include <parity/launch/launch_error.h>
#include <parity/launch/worker_contract.h>
#include <sched.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <set>

extern char** environ;

namespace parity::launch::rank_process {
namespace {

// Closes every descriptor >= first; async-signal-safe.
void close_from(int first) {
#ifdef SYS_close_range
  if (::syscall(SYS_close_range, first, ~0U, 0) == 0) return;
#endif
  long max = ::sysconf(_SC_OPEN_MAX);
  if (max < 0 || max > 65536) max = 65536;
  for (int fd = first; fd < max; ++fd) ::close(fd);
}

}  // namespace

std::string errno_text() { return std::strerror(errno); }

// Moves fd above 2 (a parent started with stdin closed would otherwise hand out 0, which the
// child's dup2 onto its stdio would clobber) and sets close-on-exec.
Fd safe_fd(int fd) {
  if (fd < 0) return Fd();
  if (fd > 2) return Fd(fd);
  int moved = ::fcntl(fd, F_DUPFD_CLOEXEC, 3);
  ::close(fd);
  return Fd(moved);
}

int available_cores() {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (::sched_getaffinity(0, sizeof set, &set) == 0) {
    int n = CPU_COUNT(&set);
    if (n > 0) return n;
  }
  long n = ::sysconf(_SC_NPROCESSORS_ONLN);
  return n > 0 ? static_cast<int>(n) : 1;
}

std::string signal_name(int sig) {
  static const std::pair<int, const char*> kNames[] = {
      {SIGHUP, "SIGHUP"},   {SIGINT, "SIGINT"},   {SIGQUIT, "SIGQUIT"}, {SIGILL, "SIGILL"},
      {SIGTRAP, "SIGTRAP"}, {SIGABRT, "SIGABRT"}, {SIGBUS, "SIGBUS"},   {SIGFPE, "SIGFPE"},
      {SIGKILL, "SIGKILL"}, {SIGSEGV, "SIGSEGV"}, {SIGPIPE, "SIGPIPE"}, {SIGALRM, "SIGALRM"},
      {SIGTERM, "SIGTERM"}, {SIGXCPU, "SIGXCPU"}, {SIGXFSZ, "SIGXFSZ"}};
  for (const auto& [number, name] : kNames)
    if (number == sig) return name;
  const char* text = ::strsignal(sig);
  return text ? text : "unknown signal";
}

/// The last non-empty line of a log file (at most 500 characters), "" when none.
std::string last_line(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return "";
  in.seekg(0, std::ios::end);
  std::streamoff size = in.tellg();
  std::streamoff from = std::max<std::streamoff>(0, size - 8192);
  in.seekg(from);
  std::string tail(static_cast<size_t>(size - from), '\0');
  in.read(tail.data(), static_cast<std::streamsize>(tail.size()));
  while (!tail.empty() && (tail.back() == '\n' || tail.back() == '\r' || tail.back() == ' '))
    tail.pop_back();
  const size_t newline = tail.find_last_of('\n');
  std::string line = tail.substr(newline == std::string::npos ? 0 : newline + 1);
  if (!line.empty() && line.back() == '\r') line.pop_back();
  if (line.size() > 500) line = line.substr(0, 497) + "...";
  return line;
}

std::vector<std::string> rank_environment(
    const std::vector<std::pair<std::string, std::string>>& vars, bool drop_store) {
  std::set<std::string> ours;
  for (const auto& [k, v] : vars) ours.insert(k);
  if (drop_store) ours.insert(kEnvStore);
  std::vector<std::string> env;
  for (char** e = environ; e && *e; ++e) {
    std::string entry(*e);
    if (!ours.count(entry.substr(0, entry.find('=')))) env.push_back(entry);
  }
  for (const auto& [k, v] : vars) env.push_back(k + "=" + v);
  return env;
}

/// fork + execve of one rank. Between fork and exec the child uses async-signal-safe calls only
/// (the caller may have other threads). Throws LaunchError when the exec fails.
pid_t spawn(const std::string& worker, const std::vector<std::string>& env, int status_fd,
            int log_fd) {
  return spawn(std::vector<std::string>{worker}, env, status_fd, log_fd, false);
}

pid_t spawn(const std::vector<std::string>& args, const std::vector<std::string>& env,
            int status_fd, int log_fd, bool status_on_stdout) {
  ChildSetup setup;
  setup.args = args;
  setup.env = env;
  setup.death_signal = SIGKILL;
  setup.stdout_fd = status_on_stdout ? status_fd : log_fd;
  setup.stderr_fd = log_fd;
  setup.status_fd = status_fd;
  return spawn_child(setup, "cannot start " + args.at(0));
}

namespace {

// The child's side of spawn_child, after fork: only async-signal-safe calls. `failure` goes
// back through err_fd: {1, errno} when the working directory cannot be entered, {2, errno} when
// the exec fails.
[[noreturn]] void become_child(const ChildSetup& setup, char* const* argv, char* const* envp,
                               pid_t parent, int err_fd) {
  ::prctl(PR_SET_PDEATHSIG, setup.death_signal);
  if (::getppid() != parent) ::_exit(127);
  ::setpgid(0, 0);
  for (int sig : {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE, SIGCHLD}) ::signal(sig, SIG_DFL);
  sigset_t none;
  sigemptyset(&none);
  ::sigprocmask(SIG_SETMASK, &none, nullptr);
  // Park the exec-error pipe high so the dup2s below cannot land on it.
  int err = ::fcntl(err_fd, F_DUPFD_CLOEXEC, 10);
  const int null_fd = ::open("/dev/null", O_RDONLY);
  if (null_fd >= 0) ::dup2(null_fd, 0);
  ::dup2(setup.stdout_fd, 1);
  ::dup2(setup.stderr_fd, 2);
  // The status pipe becomes descriptor 3, the only one inherited beyond stdio: whatever else the
  // caller left open without close-on-exec (a GUI's sockets, a database) stays out of the child.
  int first_free = kStatusFd;
  if (setup.status_fd >= 0) {
    if (setup.status_fd != kStatusFd) ::dup2(setup.status_fd, kStatusFd);
    ::fcntl(kStatusFd, F_SETFD, 0);
    first_free = kStatusFd + 1;
  }
  if (err >= 0) err = ::dup3(err, first_free, O_CLOEXEC);
  close_from(first_free + 1);
  int failure[2] = {2, 0};
  if (!setup.workdir.empty() && ::chdir(setup.workdir.c_str()) != 0) {
    failure[0] = 1;
  } else if (setup.search_path) {
    ::execvpe(argv[0], argv, envp);
  } else {
    ::execve(argv[0], argv, envp);
  }
  failure[1] = errno;
  ssize_t ignored = err >= 0 ? ::write(err, failure, sizeof failure) : 0;
  (void)ignored;
  ::_exit(127);
}

}  // namespace

pid_t spawn_child(const ChildSetup& setup, const std::string& cannot_start) {
  std::vector<char*> argv, envp;
  for (const auto& a : setup.args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  for (const auto& e : setup.env) envp.push_back(const_cast<char*>(e.c_str()));
  envp.push_back(nullptr);
  if (setup.args.empty()) throw LaunchError(cannot_start + ": no program");

  int err_pipe[2];
  if (::pipe2(err_pipe, O_CLOEXEC) != 0) throw LaunchError("pipe: " + errno_text());
  Fd err_read = safe_fd(err_pipe[0]), err_write = safe_fd(err_pipe[1]);
  const pid_t parent = ::getpid();
  const pid_t pid = ::fork();
  if (pid < 0) throw LaunchError("fork: " + errno_text());
  if (pid == 0) become_child(setup, argv.data(), envp.data(), parent, err_write.get());
  ::setpgid(pid, pid);  // also here, so the group exists before we might signal it
  err_write.reset();
  int failure[2] = {0, 0};
  ssize_t n;
  while ((n = ::read(err_read.get(), failure, sizeof failure)) < 0 && errno == EINTR) {
  }
  if (n == static_cast<ssize_t>(sizeof failure)) {
    ::waitpid(pid, nullptr, 0);
    if (failure[0] == 1) {
      throw LaunchError("cannot enter the working directory " + setup.workdir + ": " +
                        std::strerror(failure[1]));
    }
    throw LaunchError(cannot_start + ": " + std::strerror(failure[1]));
  }
  return pid;
}

std::string find_program(const std::string& program) {
  if (program.find('/') != std::string::npos) {
    if (::access(program.c_str(), X_OK) == 0) return program;
    throw LaunchError(program + " is not an executable file");
  }
  const char* path = std::getenv("PATH");
  std::string dirs = path && *path ? path : "/usr/local/bin:/usr/bin:/bin";
  for (size_t start = 0; start <= dirs.size();) {
    size_t end = dirs.find(':', start);
    if (end == std::string::npos) end = dirs.size();
    const std::string dir = dirs.substr(start, end - start);
    const std::string candidate = (dir.empty() ? "." : dir) + "/" + program;
    if (::access(candidate.c_str(), X_OK) == 0) return candidate;
    start = end + 1;
  }
  throw LaunchError(program + " is not on PATH (" + dirs + ")");
}

}  // namespace parity::launch::rank_process
