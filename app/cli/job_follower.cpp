#include "job_follower.h"

#include <parity/launch/launch_error.h>
#include <parity/launch/slurm_job.h>
#include <parity/launch/steps_file.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <set>
#include <thread>
#include <utility>

#include "cli_common.h"
#include "db_sink.h"
#include "progress_line.h"

namespace parity::cli {
namespace {

using Clock = std::chrono::steady_clock;
using launch::RunOutcome;

double seconds_since(Clock::time_point t) {
  return std::chrono::duration<double>(Clock::now() - t).count();
}

// The last non-empty line of a file (at most 300 characters of it), "" when none.
std::string last_line_of(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return "";
  in.seekg(0, std::ios::end);
  const std::streamoff size = in.tellg();
  const std::streamoff from = size > 8192 ? size - 8192 : 0;
  in.seekg(from);
  std::string tail((std::istreambuf_iterator<char>(in)), {});
  while (!tail.empty() && (tail.back() == '\n' || tail.back() == '\r' || tail.back() == ' '))
    tail.pop_back();
  const auto nl = tail.find_last_of('\n');
  std::string line = nl == std::string::npos ? tail : tail.substr(nl + 1);
  return line.size() > 300 ? line.substr(0, 300) : line;
}

struct Ending {
  RunOutcome outcome = RunOutcome::kFailed;
  std::string message;
  std::string job_state;  ///< the job's last state, as the run keeps it
};

bool starts_with(const std::string& s, const char* prefix) { return s.rfind(prefix, 0) == 0; }

// How Slurm says the job ended: squeue's last terminal state, else accounting's record.
std::pair<std::string, std::string> slurm_end_state(const std::string& job,
                                                    const launch::JobState& last) {
  if (last.ended()) return {last.state, ""};
  if (auto a = launch::job_accounting(job)) return {a->state, a->exit_code};
  return {"", ""};
}

// The end of a job that left the queue without its end record in the steps file.
Ending ending_without_record(const std::string& job, const launch::JobState& last,
                             bool cancel_requested, const std::string& folder) {
  const auto [state, exit_code] = slurm_end_state(job, last);
  const std::string out = last_line_of(folder + "/job.out");
  const std::string tail = out.empty() ? "" : "; its output (job.out) ends: " + out;
  const std::string who = "Slurm job " + job;
  const std::string steps = folder + "/" + launch::kStepsFileName;
  if (cancel_requested || starts_with(state, "CANCELLED"))
    return {RunOutcome::kStopped,
            who + " was cancelled" + (cancel_requested ? " (parity-cli stop)" : " (scancel)"),
            state.empty() ? "CANCELLED" : state};
  if (state == "TIMEOUT")
    return {RunOutcome::kFailed, who + " reached its time limit (--time)" + tail, state};
  if (!state.empty() && state != "COMPLETED")
    return {RunOutcome::kFailed,
            who + " ended " + state + (exit_code.empty() ? "" : " (exit code " + exit_code + ")") +
                tail,
            state};
  if (state == "COMPLETED")
    return {RunOutcome::kFailed, who + " completed without the run's end record in " + steps + tail,
            state};
  return {RunOutcome::kFailed,
          who + " left the queue without the run's end record in " + steps +
              " (no accounting here says how it ended)" + tail,
          "ended"};
}

// Reads the steps file into the sink, skipping what the database already has.
class StepsFollower {
 public:
  StepsFollower(const storage::RunRow& row, storage::Database& db, DbSink& sink)
      : reader_(row.job_folder + "/" + launch::kStepsFileName),
        sink_(sink),
        run_id_(row.id),
        resume_at_(row.steps_done),
        started_(row.started_at > 0),
        notes_(row.notes) {
    for (const storage::EvalRow& e : db.evals(row.id)) evals_.insert({e.epoch, e.step});
  }

  /// Reads what is new; returns the end record once it is read.
  std::optional<launch::RunEnd> poll() {
    for (launch::StepsFileEntry& entry : reader_.poll()) {
      if (auto* start = std::get_if<launch::RunStart>(&entry)) {
        if (!started_) sink_.on_start(*start);
        started_ = true;
      } else if (auto* step = std::get_if<launch::StepRecord>(&entry)) {
        // The last stored step again: its rank rows may not all have been stored.
        if (step->step < resume_at_) continue;
        sink_.on_step(*step);
        ++steps_read_;
      } else if (auto* eval = std::get_if<launch::EvalRecord>(&entry)) {
        if (!evals_.insert({eval->epoch, eval->step}).second) continue;
        sink_.on_eval(*eval);
      } else if (auto* note = std::get_if<launch::StepsFileNote>(&entry)) {
        if (notes_.find(note->text) != std::string::npos) continue;
        notes_ += (notes_.empty() ? "" : "; ") + note->text;
        sink_.update(
            [id = run_id_, notes = notes_](storage::Database& d) { d.set_notes(id, notes); });
      } else if (auto* command = std::get_if<launch::StepsFileCommand>(&entry)) {
        sink_.update([id = run_id_, text = command->text](storage::Database& d) {
          d.set_origin(id, storage::RunOrigin::kCommand, text);
        });
      } else if (auto* end = std::get_if<launch::RunEnd>(&entry)) {
        return *end;
      }
    }
    return std::nullopt;
  }

  bool started() const { return started_; }
  int64_t steps_read() const { return steps_read_; }
  const launch::StepsFileReader& reader() const { return reader_; }

 private:
  launch::StepsFileReader reader_;
  DbSink& sink_;
  int64_t run_id_;
  int64_t resume_at_;
  bool started_;
  std::string notes_;
  std::set<std::pair<int, int64_t>> evals_;
  int64_t steps_read_ = 0;
};

// A run whose job ended before this follower came: its stored outcome.
FollowReport already_ended(const storage::RunRow& row) {
  FollowReport report;
  report.ended = true;
  report.outcome = row.status == storage::RunStatus::kFinished   ? RunOutcome::kFinished
                   : row.status == storage::RunStatus::kStopped  ? RunOutcome::kStopped
                   : row.status == storage::RunStatus::kDiverged ? RunOutcome::kDiverged
                                                                 : RunOutcome::kFailed;
  report.message = row.error;
  std::cerr << "run " << row.id << " (Slurm job " << row.job_id
            << ") has already ended: " << storage::to_string(row.status) << "\n";
  return report;
}

// The end the job's supervisor recorded, with Slurm's own word on it: the job leaves RUNNING
// once its supervisor, which wrote the record, has exited (a moment; not waited for past a few
// seconds). A stop is said by whom where Slurm can tell.
Ending ending_with_record(const std::string& job, const launch::RunEnd& end,
                          bool cancel_requested) {
  Ending ending;
  ending.outcome = end.outcome;
  ending.message = end.message;
  ending.job_state = "ended";
  launch::JobState now;
  for (int tries = 0; tries < 10; ++tries) {
    try {
      now = launch::query_job(job);
    } catch (const launch::LaunchError&) {
      break;
    }
    if (!now.in_queue || now.ended()) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
  }
  const auto [state, code] = slurm_end_state(job, now);
  if (!state.empty()) ending.job_state = state;
  if (end.outcome != RunOutcome::kStopped) return ending;
  if (cancel_requested) {
    ending.message = "Slurm job " + job + " was cancelled (parity-cli stop)";
  } else if (state == "TIMEOUT") {
    ending.outcome = RunOutcome::kFailed;
    ending.message = "Slurm job " + job + " reached its time limit (--time)";
  } else if (starts_with(state, "CANCELLED")) {
    ending.message = "Slurm job " + job + " was cancelled (scancel)";
  }
  if (state.empty() && cancel_requested) ending.job_state = "CANCELLED";
  return ending;
}

// One follow of a job: its steps file read into the database, Slurm asked about the job now
// and then, until the end record comes or the job has been gone from the queue a while.
class JobFollow {
 public:
  JobFollow(storage::Database& db, const storage::RunRow& row, const FollowOptions& o)
      : o_(o),
        run_id_(row.id),
        name_("run " + std::to_string(row.id)),
        job_(row.job_id),
        progress_(row.label, ProgressLine::detect(o.quiet)),
        sink_(db, row.id, &progress_, o.busy_wait_s, DbSink::Role::kFollower),
        follower_(row, db, sink_),
        state_said_(row.job_state),
        running_(row.status == storage::RunStatus::kRunning) {
    if (row.started_at > 0) {
      launch::RunStart known;
      known.total_steps = row.total_steps;
      progress_.start(known);
    }
    last_.in_queue = true;
  }

  /// Follows to the end, or returns early (report.ended false) when the rows cannot be
  /// recorded or following is stopped.
  FollowReport run(const std::string& job_folder) {
    std::cerr << "following " << name_ << " (Slurm job " << job_ << ", "
              << follower_.reader().path() << ")\n";
    FollowReport report;
    if (!follow_until_end(report)) return report;
    std::error_code ec;
    const bool cancel_requested =
        std::filesystem::exists(job_folder + "/" + kCancelRequestFile, ec);
    const Ending ending = end_ ? ending_with_record(job_, *end_, cancel_requested)
                               : ending_without_record(job_, last_, cancel_requested, job_folder);
    sink_.update([run_id = run_id_, state = ending.job_state](storage::Database& d) {
      d.set_job_state(run_id, state);
    });
    progress_.finish();
    const DbSink::Ending stored =
        sink_.finish(ending.outcome, ending.message, end_ ? end_->samples_per_s : 0);
    report.ended = true;
    report.outcome = stored.outcome;
    report.message = stored.message;
    report.steps_read = follower_.steps_read();
    if (follower_.reader().bad_lines() > 0)
      std::cerr << name_ << ": " << follower_.reader().bad_lines() << " line(s) of "
                << follower_.reader().path() << " were no record and were skipped\n";
    return report;
  }

 private:
  // True when the job ended (its end record read, or gone from the queue past the grace);
  // false, with `report` said, when following stops first.
  bool follow_until_end(FollowReport& report) {
    while (true) {
      end_ = follower_.poll();
      if (follower_.started() && !running_) said_running();
      if (end_) return true;
      if (auto why = sink_.failure()) {
        progress_.finish();
        report.message = "cannot record the run: " + *why;
        std::cerr << name_ << ": " << report.message << "; Slurm job " << job_ << " goes on\n";
        return false;
      }
      if (o_.stop && o_.stop->load()) {
        progress_.finish();
        report.steps_read = follower_.steps_read();
        std::cerr << "stopped following " << name_ << "; Slurm job " << job_
                  << " goes on (parity-cli follow " << run_id_ << " reads on, parity-cli stop "
                  << run_id_ << " cancels it)\n";
        return false;
      }
      if (gone_at_) {
        if (seconds_since(*gone_at_) > o_.end_grace_s) return true;
      } else if (!asked_ || seconds_since(*asked_) >= o_.squeue_every_s) {
        ask_slurm();
      }
      std::this_thread::sleep_for(std::chrono::duration<double>(o_.poll_s));
    }
  }

  // The start record set it running: so does its job state, before squeue's next word.
  void said_running() {
    running_ = true;
    if (state_said_ == "RUNNING") return;
    state_said_ = "RUNNING";
    std::cerr << name_ << ": Slurm job " << job_ << " RUNNING\n";
    sink_.update([run_id = run_id_](storage::Database& d) { d.set_job_state(run_id, "RUNNING"); });
  }

  // squeue's word on the job: gone (the end is near), or a new state, recorded.
  void ask_slurm() {
    asked_ = Clock::now();
    try {
      last_ = launch::query_job(job_);
      squeue_failing_ = false;
    } catch (const launch::LaunchError& e) {
      // The controller not answering is not the job's end: ask again at the next turn.
      if (!squeue_failing_) std::cerr << name_ << ": " << e.what() << "\n";
      squeue_failing_ = true;
      last_.in_queue = true;
    }
    if (squeue_failing_) return;
    if (!last_.in_queue || last_.ended()) {
      gone_at_ = Clock::now();
      return;
    }
    if (last_.text() == state_said_ || last_.state.empty()) return;
    state_said_ = last_.text();
    progress_.finish();
    std::cerr << name_ << ": Slurm job " << job_ << " " << state_said_ << "\n";
    const bool runs = last_.state != "PENDING";
    sink_.update(
        [run_id = run_id_, text = state_said_, runs, was_running = running_](storage::Database& d) {
          d.set_job_state(run_id, text);
          if (runs && !was_running) d.set_status(run_id, storage::RunStatus::kRunning);
        });
    running_ = running_ || runs;
  }

  const FollowOptions& o_;
  int64_t run_id_;
  std::string name_, job_;
  ProgressLine progress_;
  DbSink sink_;
  StepsFollower follower_;
  std::string state_said_;
  bool running_;
  launch::JobState last_;
  std::optional<Clock::time_point> gone_at_, asked_;
  bool squeue_failing_ = false;
  std::optional<launch::RunEnd> end_;
};

}  // namespace

FollowReport follow_job(storage::Database& db, int64_t run_id, const FollowOptions& o) {
  const auto row = db.get_run(run_id);
  if (!row) throw UsageError("no run " + std::to_string(run_id) + " in " + db.path());
  if (row->job_id.empty())
    throw UsageError("run " + std::to_string(run_id) +
                     " was not submitted as a Slurm job (run --launcher slurm --submit): there "
                     "is nothing to follow");
  if (!storage::is_active(row->status)) return already_ended(*row);
  return JobFollow(db, *row, o).run(row->job_folder);
}

}  // namespace parity::cli
