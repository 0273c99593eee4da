#include <fcntl.h>
#include <parity/launch/command_supervisor.h>
#include <parity/launch/command_template.h>
#include <parity/launch/launcher_prefix.h>
#include <parity/launch/parity_line.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstring>
#include <string_view>

#include "rank_process.h"

namespace parity::launch {

using rank_process::errno_text;
using rank_process::Fd;
using rank_process::safe_fd;
using Clock = std::chrono::steady_clock;

namespace {

double seconds_since(Clock::time_point t) {
  return std::chrono::duration<double>(Clock::now() - t).count();
}

// The command in a process group of its own (rank_process::spawn_child), its stdout read here.
// The exec's errno comes back, so "no such program" is an exception here, not a failed run.
pid_t spawn_command(const std::vector<std::string>& words, const std::vector<std::string>& env,
                    const std::string& workdir, int out_fd, int log_fd) {
  rank_process::ChildSetup setup;
  setup.args = words;
  setup.env = env;
  setup.search_path = true;
  // The command's own launcher (torchrun, accelerate launch) passes SIGTERM on to its workers.
  setup.death_signal = SIGTERM;
  setup.stdout_fd = out_fd;
  setup.stderr_fd = log_fd;
  setup.workdir = workdir;
  return rank_process::spawn_child(setup,
                                   "cannot run '" + (words.empty() ? "" : words.front()) + "'");
}

std::vector<std::string> command_environment(
    const std::vector<std::pair<std::string, std::string>>& vars) {
  std::vector<std::string> env;
  for (char** e = environ; *e; ++e) {
    const std::string_view entry(*e);
    const std::string_view name = entry.substr(0, entry.find('='));
    bool replaced = false;
    for (const auto& [k, v] : vars) replaced = replaced || name == k;
    if (!replaced) env.emplace_back(entry);
  }
  for (const auto& [k, v] : vars) env.push_back(k + "=" + v);
  return env;
}

// One command's run: the pipe reader, the clocks and the outcome.
class CommandRun {
 public:
  CommandRun(const CommandOptions& options, StepSink& sink, int log_fd, pid_t pid, int out_fd)
      : options_(options), sink_(sink), log_fd_(log_fd), pid_(pid), out_fd_(out_fd) {}

  CommandResult run() {
    result_.pid = pid_;
    while (!exited_ || out_open_) {
      poll_once();
      if (options_.side_capture && seconds_since(last_side_) >= 0.5) capture_side();
      if (!stop_reason_.empty()) break;
      check_limits();
      if (!stop_reason_.empty()) break;
      if (exited_ && out_open_ && seconds_since(exit_time_) > 2) break;  // a child holds stdout
    }
    if (!line_.empty()) handle_line(line_);
    stop_group();
    if (options_.side_capture && stop_reason_.empty()) capture_side();  // what it wrote last
    return finish();
  }

 private:
  void poll_once() {
    if (out_open_) {
      pollfd p{out_fd_, POLLIN, 0};
      const int r = ::poll(&p, 1, 50);
      if (r > 0) read_output();
    } else {
      ::usleep(50 * 1000);
    }
    if (!exited_) {
      int status = 0;
      if (::waitpid(pid_, &status, WNOHANG) == pid_) {
        exited_ = true;
        status_ = status;
        exit_time_ = Clock::now();
      }
    }
  }

  void read_output() {
    char buf[65536];
    const ssize_t n = ::read(out_fd_, buf, sizeof buf);
    if (n <= 0) {
      if (n == 0 || (errno != EINTR && errno != EAGAIN)) out_open_ = false;
      return;
    }
    for (ssize_t i = 0; i < n; ++i) {
      if (buf[i] == '\n') {
        handle_line(line_);
        line_.clear();
      } else if (line_.size() < (1u << 20)) {
        line_ += buf[i];
      }
    }
  }

  void log(const std::string& text) {
    const std::string l = text + "\n";
    ssize_t ignored = ::write(log_fd_, l.data(), l.size());
    (void)ignored;
  }

  void handle_line(const std::string& line) {
    // torchrun --tee and srun --label put each process's lines behind a prefix: rank 0's PARITY
    // lines are read, the other ranks' (the same steps, or their local losses) only logged.
    const LauncherLine behind = strip_launcher_prefixes(line);
    if (!behind.from_rank0) {
      if (behind.text.substr(0, 7) == "PARITY ") ++result_.other_rank_lines;
      log(line);
      return;
    }
    std::optional<ParityLine> parsed;
    try {
      parsed = parse_parity_line(behind.text);
    } catch (const LaunchError& e) {
      ++result_.protocol_errors;
      log(line);
      log(std::string("parity: ") + e.what());
      return;
    }
    if (!parsed) {
      log(line);
      return;
    }
    for (const auto& [k, v] : parsed->hparams) result_.hparams[k] = v;
    if (parsed->step) {
      ++parity_steps_;
      record_step(*parsed->step);
    }
    if (parsed->eval) sink_.on_eval(*parsed->eval);
  }

  void capture_side() {
    last_side_ = Clock::now();
    std::vector<StepRecord> steps;
    std::vector<EvalRecord> evals;
    options_.side_capture(parity_steps_ > 0, steps, evals);
    for (const StepRecord& s : steps) {
      record_step(s);
      if (!stop_reason_.empty()) return;
    }
    for (const EvalRecord& e : evals) sink_.on_eval(e);
  }

  void record_step(StepRecord s) {
    if (!started_) {
      sink_.on_start(RunStart{});
      started_ = true;
    }
    if (s.samples == 0 && options_.samples_per_step > 0)
      s.samples = s.step * options_.samples_per_step;
    if (s.time_s == 0) s.time_s = seconds_since(start_);
    last_step_ = Clock::now();
    ++result_.steps;
    sink_.on_step(s);
    if (!std::isfinite(s.loss) && stop_reason_.empty()) {
      diverged_ = true;
      stop_reason_ = "the loss is " + std::string(std::isnan(s.loss) ? "NaN" : "infinite") +
                     " at step " + std::to_string(s.step);
    }
  }

  void check_limits() {
    if (options_.stop && options_.stop->load()) {
      stopped_ = true;
      stop_reason_ = "stopped";
      return;
    }
    if (auto why = sink_.failure()) {
      stop_reason_ = *why;
      return;
    }
    if (exited_ || options_.hang_timeout_s <= 0) return;
    const double first = options_.first_step_timeout_s > 0 ? options_.first_step_timeout_s
                                                           : 3 * options_.hang_timeout_s;
    const double quiet = seconds_since(result_.steps > 0 ? last_step_ : start_);
    const double limit = result_.steps > 0 ? options_.hang_timeout_s : first;
    if (quiet > limit) {
      stop_reason_ = "hung: no new step for " + std::to_string(static_cast<int>(quiet)) +
                     " s (the hang timeout is " + std::to_string(static_cast<int>(limit)) + " s)";
    }
  }

  // SIGTERM to the whole group, SIGKILL after the grace; reaps the command. Any process left in
  // the group (a worker its launcher left behind) is killed too.
  void stop_group() {
    const bool alive = !exited_ || ::kill(-pid_, 0) == 0;
    if (!alive) return;
    reap_group_quickly();
    if (exited_ && ::kill(-pid_, 0) != 0) return;
    ::kill(-pid_, SIGTERM);
    const auto t = Clock::now();
    while (seconds_since(t) < options_.term_grace_s) {
      if (!exited_) {
        int status = 0;
        if (::waitpid(pid_, &status, WNOHANG) == pid_) {
          exited_ = true;
          status_ = status;
        }
      }
      while (::waitpid(-pid_, nullptr, WNOHANG) > 0) {
      }
      if (exited_ && ::kill(-pid_, 0) != 0) return;
      if (out_open_) {
        pollfd p{out_fd_, POLLIN, 0};
        if (::poll(&p, 1, 50) > 0) read_output();
      } else {
        ::usleep(50 * 1000);
      }
    }
    ::kill(-pid_, SIGKILL);
    if (!exited_) {
      int status = 0;
      ::waitpid(pid_, &status, 0);
      exited_ = true;
      status_ = status;
    }
    reap_group();
  }

  // The group's orphans were reparented to this process (a subreaper, see run()): reap them, so
  // none is left even as a zombie.
  void reap_group_quickly() {
    while (::waitpid(-pid_, nullptr, WNOHANG) > 0) {
    }
  }

  void reap_group() {
    const auto t = Clock::now();
    while (::kill(-pid_, 0) == 0 && seconds_since(t) < 5) {
      if (::waitpid(-pid_, nullptr, WNOHANG) <= 0) ::usleep(10 * 1000);
    }
  }

  std::string status_text() {
    if (WIFSIGNALED(status_)) {
      result_.signal = WTERMSIG(status_);
      return "killed by signal " + std::to_string(result_.signal) + " (" +
             rank_process::signal_name(result_.signal) + ")";
    }
    result_.exit_code = WIFEXITED(status_) ? WEXITSTATUS(status_) : -1;
    return "exited with status " + std::to_string(result_.exit_code);
  }

  CommandResult finish() {
    const std::string status = status_text();
    const std::string tail = rank_process::last_line(options_.log_path);
    const std::string last = tail.empty() ? "" : "; its log ends: " + tail;
    if (stopped_) {
      result_.outcome = RunOutcome::kStopped;
      result_.message = "stopped";
    } else if (diverged_) {
      result_.outcome = RunOutcome::kDiverged;
      result_.message = stop_reason_;
    } else if (!stop_reason_.empty()) {
      result_.outcome = RunOutcome::kFailed;
      result_.message = stop_reason_;
    } else if (result_.signal != 0 || result_.exit_code != 0) {
      result_.outcome = RunOutcome::kFailed;
      result_.message = "the command " + status + last;
    } else if (result_.steps == 0) {
      result_.outcome = RunOutcome::kFailed;
      const std::string others = result_.other_rank_lines == 0
                                     ? ""
                                     : "; " + std::to_string(result_.other_rank_lines) +
                                           " came from other ranks than 0 (by their launcher's "
                                           "prefix), which are not read";
      result_.message =
          "the command exited 0 without printing a PARITY step line (see the README's three "
          "lines for your training loop)" +
          others + last;
    } else {
      result_.outcome = RunOutcome::kFinished;
    }
    RunEnd end;
    end.outcome = result_.outcome;
    end.message = result_.message;
    end.steps = result_.steps;
    sink_.on_end(end);
    return result_;
  }

  const CommandOptions& options_;
  StepSink& sink_;
  int log_fd_;
  pid_t pid_;
  int out_fd_;
  CommandResult result_;
  std::string line_;
  bool out_open_ = true, exited_ = false, started_ = false, stopped_ = false, diverged_ = false;
  int status_ = 0;
  int64_t parity_steps_ = 0;  ///< step records from PARITY lines (not the side capture)
  std::string stop_reason_;
  Clock::time_point start_ = Clock::now(), last_step_ = start_, exit_time_ = start_,
                    last_side_ = start_;
};

}  // namespace

CommandSupervisor::CommandSupervisor(std::vector<std::string> words, CommandOptions options)
    : words_(std::move(words)), options_(std::move(options)) {}

CommandResult CommandSupervisor::run(StepSink& sink) {
  if (words_.empty()) throw LaunchError("the command is empty");
  if (options_.log_path.empty()) throw LaunchError("a command run needs a log file");
  Fd log(::open(options_.log_path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC | O_NOFOLLOW,
                0600));
  if (log.get() < 0)
    throw LaunchError("cannot open the log " + options_.log_path + ": " + errno_text());
  // The command's launcher may leave workers behind when it exits; as their subreaper this
  // process can stop and reap them with the group.
  ::prctl(PR_SET_CHILD_SUBREAPER, 1);
  int out_pipe[2];
  if (::pipe2(out_pipe, O_CLOEXEC) != 0) throw LaunchError("pipe: " + errno_text());
  Fd out_read = safe_fd(out_pipe[0]), out_write = safe_fd(out_pipe[1]);
  const pid_t pid = spawn_command(words_, command_environment(options_.env), options_.workdir,
                                  out_write.get(), log.get());
  out_write.reset();
  CommandRun run(options_, sink, log.get(), pid, out_read.get());
  return run.run();
}

}  // namespace parity::launch
