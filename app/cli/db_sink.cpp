#include "db_sink.h"

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <thread>

#include "cli_common.h"

namespace parity::cli {
namespace {

/// 64 KiB: about 15 WAL frames, several times what marking the run's end writes.
constexpr off_t kReserveBytes = 64 * 1024;

storage::StepWriterOptions writer_options(int64_t run_id, double busy_wait_s, bool heartbeat) {
  storage::StepWriterOptions o;
  o.busy_wait_s = busy_wait_s;
  o.heartbeat_run_id = heartbeat ? run_id : 0;
  return o;
}

}  // namespace

DbSink::DbSink(storage::Database& db, int64_t run_id, ProgressLine* progress, double busy_wait_s,
               Role role)
    : run_id_(run_id),
      db_path_(db.path()),
      busy_wait_s_(busy_wait_s),
      writer_(db.path(), writer_options(run_id, busy_wait_s, role == Role::kSupervisor)),
      progress_(progress) {
  if (role == Role::kSupervisor) {
    const storage::SupervisorIdentity self = storage::SupervisorIdentity::current();
    writer_.push([run_id, self](storage::Database& d) { d.claim_run(run_id, self); });
  }
  make_reserve();
}

DbSink::~DbSink() { release_reserve(); }

void DbSink::make_reserve() {
  // Beside the database, hidden, this run's own: on the disk the database's WAL grows on.
  const auto slash = db_path_.find_last_of('/');
  const std::string folder = slash == std::string::npos ? "." : db_path_.substr(0, slash);
  const std::string name = slash == std::string::npos ? db_path_ : db_path_.substr(slash + 1);
  const std::string prefix = "." + name + ".reserve-";
  // Reserves of launchers that were killed (their pid gone) are given back first.
  if (DIR* dir = ::opendir(folder.c_str())) {
    while (const dirent* e = ::readdir(dir)) {
      const std::string entry = e->d_name;
      if (entry.rfind(prefix, 0) != 0) continue;
      const long pid = std::strtol(entry.c_str() + prefix.size(), nullptr, 10);
      if (pid > 0 && ::kill(static_cast<pid_t>(pid), 0) != 0 && errno == ESRCH)
        ::unlink((folder + "/" + entry).c_str());
    }
    ::closedir(dir);
  }
  const std::string path = folder + "/" + prefix + std::to_string(::getpid());
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
  if (fd < 0) return;  // a read-only folder, a full disk already: nothing to give back later
  const bool made = ::posix_fallocate(fd, 0, kReserveBytes) == 0;
  ::close(fd);
  if (made) {
    reserve_path_ = path;
  } else {
    ::unlink(path.c_str());
  }
}

void DbSink::release_reserve() {
  if (reserve_path_.empty()) return;
  ::unlink(reserve_path_.c_str());
  reserve_path_.clear();
}

void DbSink::on_start(const launch::RunStart& start) {
  writer_.push([run_id = run_id_, start](storage::Database& d) {
    d.set_started(run_id, start.total_steps, start.train_samples, config::to_json(start.model));
  });
  if (progress_) progress_->start(start);
}

void DbSink::on_step(const launch::StepRecord& r) {
  storage::StepRow row;
  row.run_id = run_id_;
  row.step = r.step;
  row.epoch = r.epoch;
  row.samples = r.samples;
  row.lr = r.lr;
  row.time_s = r.time_s;
  row.rank = -1;
  row.loss = r.loss;
  writer_.push(row);
  for (size_t rank = 0; rank < r.rank_losses.size(); ++rank) {
    row.rank = static_cast<int>(rank);
    row.loss = r.rank_losses[rank];
    writer_.push(row);
  }
  last_step_ = r;
  if (progress_) progress_->step(r);
}

void DbSink::on_eval(const launch::EvalRecord& r) {
  storage::EvalRow row;
  row.run_id = run_id_;
  row.epoch = r.epoch;
  row.step = r.step;
  row.samples = r.samples;
  row.loss = r.loss;
  if (r.accuracy >= 0) row.accuracy = r.accuracy;
  writer_.push(row);
  last_eval_ = r;
  if (progress_) progress_->eval(r);
}

void DbSink::on_end(const launch::RunEnd&) {
  if (progress_) progress_->finish();
}

std::optional<std::string> DbSink::failure() const { return writer_.failure(); }

DbSink::Ending DbSink::finish(launch::RunOutcome outcome, const std::string& message,
                              double samples_per_s) {
  try {
    writer_.flush();
  } catch (const storage::StorageError&) {
    // A hard error of the rows is the run's outcome (below), not a reason to leave it unmarked.
    if (!writer_.failure()) throw;
  }
  Ending ending{outcome, outcome == launch::RunOutcome::kFinished ? "" : message};
  // Rows lost at the very end, after the supervisor's last look, fail the run all the same.
  if (auto why = writer_.failure(); why && outcome != launch::RunOutcome::kFailed) {
    ending = {launch::RunOutcome::kFailed, "cannot record the run: " + *why};
  }
  writer_.push([run_id = run_id_, ending, samples_per_s](storage::Database& d) {
    d.finish_run(run_id, status_of(ending.outcome), ending.message, samples_per_s);
  });
  try {
    writer_.flush();
  } catch (const storage::StorageError&) {
    release_reserve();  // a full disk gets its room back for this one row
    mark_directly(ending, samples_per_s);
  }
  release_reserve();
  return ending;
}

void DbSink::mark_directly(const Ending& ending, double samples_per_s) {
  // Until the lock goes, however long: the launcher's last job is its run's end, and a launcher
  // that gave up would leave the row for reconciliation to call "exited unexpectedly". A second
  // Ctrl+C still ends it at once.
  bool said = false;
  while (true) {
    try {
      storage::Database db(db_path_);
      db.finish_run(run_id_, status_of(ending.outcome), ending.message, samples_per_s);
      return;
    } catch (const storage::StorageError& e) {
      if (!e.is_busy()) {
        throw storage::StorageError(
            "the run " + std::string(storage::to_string(status_of(ending.outcome))) + " (" +
            ending.message + ") but its row could not be marked: " + e.what());
      }
    }
    if (!said) {
      std::fprintf(stderr,
                   "parity: the database is still locked; waiting for the lock to go to "
                   "record the run as %s\n",
                   std::string(storage::to_string(status_of(ending.outcome))).c_str());
      said = true;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(250));
  }
}

}  // namespace parity::cli
