#include <fcntl.h>
#include <parity/launch/command_template.h>
#include <parity/launch/launch_error.h>
#include <parity/launch/slurm_job.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstring>

#include "rank_process.h"

namespace parity::launch {

using rank_process::errno_text;
using rank_process::Fd;
using rank_process::safe_fd;

namespace {

struct ProgramOutput {
  int status = -1;  ///< the exit status; -1 when a signal (or the timeout) ended it
  std::string out, err;
};

// Runs argv without a shell, stdin /dev/null, and collects its stdout and stderr; killed past
// timeout_s (Slurm's tools wait for the controller, which may not answer). Between fork and exec
// only async-signal-safe calls: the caller may have threads.
ProgramOutput run_program(const std::vector<std::string>& argv, double timeout_s = 60) {
  const std::string path = rank_process::find_program(argv.front());
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  int out_pipe[2], err_pipe[2];
  if (::pipe2(out_pipe, O_CLOEXEC) != 0) throw LaunchError("pipe: " + errno_text());
  Fd out_read = safe_fd(out_pipe[0]), out_write = safe_fd(out_pipe[1]);
  if (::pipe2(err_pipe, O_CLOEXEC) != 0) throw LaunchError("pipe: " + errno_text());
  Fd err_read = safe_fd(err_pipe[0]), err_write = safe_fd(err_pipe[1]);
  const pid_t pid = ::fork();
  if (pid < 0) throw LaunchError("fork: " + errno_text());
  if (pid == 0) {
    for (int sig : {SIGINT, SIGTERM, SIGHUP, SIGPIPE, SIGCHLD}) ::signal(sig, SIG_DFL);
    sigset_t none;
    sigemptyset(&none);
    ::sigprocmask(SIG_SETMASK, &none, nullptr);
    const int null_fd = ::open("/dev/null", O_RDONLY);
    if (null_fd >= 0) ::dup2(null_fd, 0);
    ::dup2(out_write.get(), 1);
    ::dup2(err_write.get(), 2);
    ::execv(path.c_str(), args.data());
    ::_exit(127);
  }
  out_write.reset();
  err_write.reset();
  ProgramOutput result;
  const auto start = std::chrono::steady_clock::now();
  bool out_open = true, err_open = true, killed = false;
  while (out_open || err_open) {
    pollfd fds[2] = {{out_open ? out_read.get() : -1, POLLIN, 0},
                     {err_open ? err_read.get() : -1, POLLIN, 0}};
    const int r = ::poll(fds, 2, 100);
    if (r < 0 && errno != EINTR) break;
    for (int i = 0; i < 2; ++i) {
      if (!fds[i].revents) continue;
      char buf[4096];
      const ssize_t n = ::read(fds[i].fd, buf, sizeof buf);
      if (n > 0) {
        (i == 0 ? result.out : result.err).append(buf, static_cast<size_t>(n));
      } else if (n == 0 || errno != EINTR) {
        (i == 0 ? out_open : err_open) = false;
      }
    }
    if (!killed && std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() >
                       timeout_s) {
      ::kill(pid, SIGKILL);
      killed = true;
    }
  }
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (WIFEXITED(status) && !killed) result.status = WEXITSTATUS(status);
  if (killed)
    result.err +=
        "(no answer within " + std::to_string(static_cast<int>(timeout_s)) + " s; killed)";
  return result;
}

std::string trimmed(std::string s) {
  while (!s.empty() && (s.back() == '\n' || s.back() == '\r' || s.back() == ' ')) s.pop_back();
  size_t start = 0;
  while (start < s.size() && s[start] == ' ') ++start;
  return s.substr(start);
}

// A tool's complaint as one line: its stderr's lines joined, else its stdout.
std::string one_line(const ProgramOutput& p) {
  std::string text = trimmed(p.err.empty() ? p.out : p.err);
  for (char& c : text)
    if (c == '\n' || c == '\r') c = ' ';
  return text.empty() ? "exit status " + std::to_string(p.status) : text;
}

void require_word(const std::string& flag, const std::string& value) {
  for (unsigned char c : value) {
    if (c <= ' ' || c == 0x7f)
      throw LaunchError(flag + " '" + value +
                        "' is not one word (Slurm's values hold no spaces or control characters)");
  }
}

}  // namespace

std::vector<std::string> sbatch_argv(const SbatchOptions& o, const std::string& script) {
  std::vector<std::string> argv = {o.sbatch, "--parsable", "--no-requeue", "--export=ALL"};
  const auto add = [&](const std::string& flag, const std::string& value) {
    if (value.empty()) return;
    argv.push_back(flag + "=" + value);
  };
  require_word("--partition", o.partition);
  require_word("--time", o.time);
  require_word("--account", o.account);
  require_word("--gres", o.gres);
  add("--job-name", o.job_name);
  add("--ntasks", std::to_string(o.ntasks));
  if (o.nodes > 0) add("--nodes", std::to_string(o.nodes));
  if (o.cpus_per_task > 0) add("--cpus-per-task", std::to_string(o.cpus_per_task));
  add("--partition", o.partition);
  add("--time", o.time);
  add("--account", o.account);
  add("--gres", o.gres);
  add("--output", o.output);
  add("--chdir", o.workdir);
  argv.push_back(script);
  return argv;
}

std::string job_script(const SbatchOptions& options, const std::string& script_path,
                       const std::vector<std::string>& command, const std::string& comment) {
  std::string text = "#!/bin/sh\n";
  std::string line;
  const auto flush = [&] {
    text += "# " + line + "\n";
    line.clear();
  };
  for (char c : comment) {
    if (c == '\n') {
      flush();
    } else if (static_cast<unsigned char>(c) >= ' ' && c != 0x7f) {
      line += c;
    }
  }
  if (!line.empty()) flush();
  text += "# Submitted with:\n#   " + quote_command(sbatch_argv(options, script_path)) + "\n";
  text += "exec " + quote_command(command) + "\n";
  return text;
}

std::string submit_job(const SbatchOptions& options, const std::string& script_path) {
  const ProgramOutput p = run_program(sbatch_argv(options, script_path));
  if (p.status != 0) throw LaunchError("sbatch refused the job: " + one_line(p));
  std::string id = trimmed(p.out);
  id = id.substr(0, id.find(';'));
  if (id.empty() || id.find_first_not_of("0123456789_") != std::string::npos)
    throw LaunchError("sbatch did not print a job id (--parsable): '" + trimmed(p.out) + "'");
  return id;
}

bool JobState::ended() const {
  return in_queue && state != "PENDING" && state != "RUNNING" && state != "COMPLETING" &&
         state != "CONFIGURING" && state != "SUSPENDED" && state != "REQUEUED" &&
         state != "RESIZING" && state != "SIGNALING" && state != "STAGE_OUT" &&
         state != "STOPPED" && state != "RESV_DEL_HOLD" && state != "REQUEUE_HOLD" &&
         state != "REQUEUE_FED";
}

std::string JobState::text() const {
  if (!in_queue) return "gone from the queue";
  return reason.empty() ? state : state + " (" + reason + ")";
}

JobState query_job(const std::string& id, const std::string& squeue) {
  const ProgramOutput p = run_program({squeue, "-h", "-j", id, "-t", "all", "-o", "%T/%r"});
  JobState s;
  const std::string out = trimmed(p.out);
  if (p.status == 0 && !out.empty()) {
    const std::string first = out.substr(0, out.find('\n'));
    const auto slash = first.find('/');
    s.in_queue = true;
    s.state = first.substr(0, slash);
    s.reason = slash == std::string::npos ? "" : first.substr(slash + 1);
    if (s.reason == "None" || s.reason == "(null)") s.reason.clear();
    return s;
  }
  // squeue says "Invalid job id specified" for a job that left its memory; nothing at all for
  // one it lists no more.
  if ((p.status == 0 && out.empty()) || p.err.find("Invalid job id") != std::string::npos) return s;
  throw LaunchError("squeue cannot say how job " + id + " stands: " + one_line(p));
}

std::optional<JobAccounting> job_accounting(const std::string& id, const std::string& sacct) {
  ProgramOutput p;
  try {
    p = run_program({sacct, "-n", "-P", "-X", "-j", id, "-o", "State,ExitCode"});
  } catch (const LaunchError&) {
    return std::nullopt;  // no sacct here: no accounting to ask
  }
  const std::string out = trimmed(p.out);
  if (p.status != 0 || out.empty()) return std::nullopt;
  const std::string first = out.substr(0, out.find('\n'));
  const auto bar = first.find('|');
  JobAccounting a;
  a.state = first.substr(0, bar);
  a.exit_code = bar == std::string::npos ? "" : first.substr(bar + 1);
  if (a.state.empty()) return std::nullopt;
  return a;
}

void cancel_job(const std::string& id, const std::string& scancel) {
  const ProgramOutput p = run_program({scancel, id});
  if (p.status != 0) throw LaunchError("scancel " + id + " failed: " + one_line(p));
}

}  // namespace parity::launch
