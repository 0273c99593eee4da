// The rank monitor's poll loop (rank_monitor.h): reading the ranks' pipes (or srun's), reaping
// them, the hang clock and the stop, one poll at a time.
#include <parity/launch/launcher_prefix.h>
#include <poll.h>

#include <fstream>
#include <tuple>

#include "rank_monitor.h"

namespace parity::launch::rank_monitor {

void Monitor::run() {
  while (std::any_of(ranks_.begin(), ranks_.end(), [](const Rank& r) { return !r.reaped; })) {
    poll_once(50);
    const auto now = Clock::now();
    if (step_) {
      watch_step(now);
    } else {
      std::vector<Rank*> failed;
      for (auto& r : ranks_) {
        if (r.reaped) continue;
        pid_t got = ::waitpid(r.pid, &r.wait_status, WNOHANG);
        if (got != r.pid) continue;
        r.reaped = true;
        if (!cause_ && exit_failure(r)) failed.push_back(&r);
      }
      if (!cause_ && !failed.empty()) begin_stop(first_failure(failed, now), now);
    }
    if (!cause_ && options_.stop && options_.stop->load())
      begin_stop({RunOutcome::kStopped, -1, "stopped by the user"}, now);
    if (!cause_) {
      if (auto why = sink_.failure())
        begin_stop({RunOutcome::kFailed, -1, "cannot record the run: " + *why}, now);
    }
    if (!cause_ && options_.hang_timeout_s > 0) check_hangs(now);
    if (cause_ && !killed_ && now >= kill_at_) {
      signal_all(SIGKILL);
      killed_ = true;
    }
  }
  // A rank's last lines (rank 0's RunEnd) may still sit in its pipe after it was reaped.
  for (auto& r : ranks_) drain(r);
  if (step_) drain_step();
}

void Monitor::poll_once(int timeout_ms) {
  std::vector<pollfd> fds;
  std::vector<Rank*> owners;
  for (auto& r : ranks_) {
    if (r.status.get() < 0) continue;
    fds.push_back({r.status.get(), POLLIN, 0});
    owners.push_back(&r);
  }
  if (step_ && step_->out.get() >= 0) {
    fds.push_back({step_->out.get(), POLLIN, 0});
    owners.push_back(nullptr);
  }
  // Every pipe closed: the ranks are exiting, and only waitpid says when; a short wait reaps
  // them soon after instead of up to timeout_ms later.
  if (fds.empty()) timeout_ms = std::min(timeout_ms, 5);
  int n = ::poll(fds.data(), fds.size(), timeout_ms);
  if (n <= 0) return;  // timeout or EINTR: the caller's checks run either way
  for (size_t i = 0; i < fds.size(); ++i) {
    if (!fds[i].revents) continue;
    if (owners[i]) {
      drain(*owners[i]);
    } else {
      drain_step();
    }
  }
}

void Monitor::drain_step() {
  char buf[65536];
  while (step_->out.get() >= 0) {
    ssize_t n = ::read(step_->out.get(), buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && errno == EAGAIN) return;
    if (n > 0) step_->buffer.append(buf, static_cast<size_t>(n));
    size_t pos;
    while ((pos = step_->buffer.find('\n')) != std::string::npos) {
      const std::string line = step_->buffer.substr(0, pos);
      step_->buffer.erase(0, pos + 1);
      const auto labelled = split_srun_label(line);
      if (!labelled) continue;
      const int rank = labelled->first;
      if (rank >= 0 && rank < static_cast<int>(ranks_.size())) {
        if (!step_started_) {
          // The step runs: a job that waited in Slurm's queue was not hung meanwhile.
          step_started_ = true;
          for (auto& r : ranks_) r.last_seen = Clock::now();
        }
        handle_line(ranks_[static_cast<size_t>(rank)], std::string(labelled->second));
      }
    }
    if (n == 0) step_->out.reset();
  }
}

void Monitor::watch_step(Clock::time_point now) {
  if (step_->reaped || ::waitpid(step_->pid, &step_->wait_status, WNOHANG) != step_->pid) return;
  step_->reaped = true;
  for (auto& r : ranks_) r.reaped = true;
  if (cause_) return;
  Rank srun;
  srun.global = -1;
  srun.log_path = step_->log_path;
  srun.wait_status = step_->wait_status;
  auto failure = exit_failure(srun);
  if (!failure) return;
  Cause cause{RunOutcome::kFailed, -1, *failure, false};
  cause.message.replace(0, cause.message.find(' ', 5), "srun (the Slurm job step)");
  // "R: parity-worker rank R: why" is the failed rank's own last word.
  std::ifstream log(step_->log_path);
  for (std::string line; std::getline(log, line);) {
    const auto at = line.find(": parity-worker rank ");
    if (at == std::string::npos) continue;
    cause.message = line.substr(at + 15) + " (under srun, the Slurm job step)";
    try {
      cause.rank = std::stoi(line.substr(at + 21));
    } catch (const std::exception&) {
    }
    break;
  }
  begin_stop(cause, now);
}

void Monitor::signal_all(int sig) {
  if (step_) {
    if (!step_->reaped && ::kill(-step_->pid, sig) != 0) ::kill(step_->pid, sig);
    return;
  }
  for (auto& r : ranks_) signal_rank(r, sig);
}

void Monitor::drain(Rank& r) {
  char buf[65536];
  while (r.status.get() >= 0) {
    ssize_t n = ::read(r.status.get(), buf, sizeof buf);
    if (n > 0) {
      r.buffer.append(buf, static_cast<size_t>(n));
      size_t pos;
      while ((pos = r.buffer.find('\n')) != std::string::npos) {
        std::string line = r.buffer.substr(0, pos);
        r.buffer.erase(0, pos + 1);
        handle_line(r, line);
      }
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && errno == EAGAIN) return;
    if (!r.buffer.empty()) handle_line(r, r.buffer);
    r.buffer.clear();
    r.eof_at = Clock::now();
    r.status.reset();
  }
}

void Monitor::handle_line(Rank& r, const std::string& line) {
  auto message = decode_line(line);
  if (!message) return;
  if (is_progress(r, *message)) r.last_seen = Clock::now();
  if (r.global != 0) return;  // other ranks only send heartbeats
  if (auto* start = std::get_if<RunStart>(&*message)) sink_.on_start(*start);
  if (auto* step = std::get_if<StepRecord>(&*message)) sink_.on_step(*step);
  if (auto* eval = std::get_if<EvalRecord>(&*message)) sink_.on_eval(*eval);
  if (auto* end = std::get_if<RunEnd>(&*message)) end_ = *end;
}

bool Monitor::is_progress(Rank& r, const ProgressMessage& message) {
  int64_t step = -1;
  if (const auto* h = std::get_if<Heartbeat>(&message)) step = h->step;
  if (const auto* s = std::get_if<StepRecord>(&message)) step = s->step;
  if (step < 0) return true;  // RunStart, EvalRecord, RunEnd
  if (step <= r.last_step) return false;
  r.last_step = step;
  return true;
}

Cause Monitor::first_failure(const std::vector<Rank*>& failed, Clock::time_point now) {
  auto key = [&](const Rank* r) {
    return std::make_tuple(r->eof_at.value_or(now), WIFSIGNALED(r->wait_status) ? 0 : 1, r->global);
  };
  const Rank* first = *std::min_element(
      failed.begin(), failed.end(), [&](const Rank* a, const Rank* b) { return key(a) < key(b); });
  const bool peer_gone =
      WIFEXITED(first->wait_status) && WEXITSTATUS(first->wait_status) == kExitPeerGone;
  return {RunOutcome::kFailed, first->global, *exit_failure(*first), peer_gone};
}

void Monitor::check_hangs(Clock::time_point now) {
  if (step_ && !step_started_) return;  // still queued: Slurm's --time bounds the wait
  const Rank* silent = nullptr;
  for (const auto& r : ranks_) {
    if (r.reaped || seconds_between(r.last_seen, now) <= options_.hang_timeout_s) continue;
    if (!silent || r.last_seen < silent->last_seen) silent = &r;
  }
  if (silent)
    begin_stop({RunOutcome::kFailed, silent->global,
                "rank " + std::to_string(silent->global) + " made no progress for " +
                    format_seconds(options_.hang_timeout_s) + " s",
                true},
               now);
}

void Monitor::begin_stop(Cause cause, Clock::time_point now) {
  cause_ = std::move(cause);
  signal_all(SIGTERM);
  kill_at_ = now + std::chrono::duration_cast<Clock::duration>(
                       std::chrono::duration<double>(std::max(0.0, options_.term_grace_s)));
}

}  // namespace parity::launch::rank_monitor
