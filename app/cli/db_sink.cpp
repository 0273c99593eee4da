#include "db_sink.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <thread>

#include "cli_common.h"

namespace parity::cli {
namespace {

storage::StepWriterOptions writer_options(int64_t run_id, double busy_wait_s) {
  storage::StepWriterOptions o;
  o.busy_wait_s = busy_wait_s;
  o.heartbeat_run_id = run_id;
  return o;
}

}  // namespace

DbSink::DbSink(storage::Database& db, int64_t run_id, ProgressLine* progress, double busy_wait_s)
    : run_id_(run_id),
      db_path_(db.path()),
      busy_wait_s_(busy_wait_s),
      writer_(db.path(), writer_options(run_id, busy_wait_s)),
      progress_(progress) {
  const storage::SupervisorIdentity self = storage::SupervisorIdentity::current();
  writer_.push([run_id, self](storage::Database& d) { d.claim_run(run_id, self); });
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
    mark_directly(ending, samples_per_s);
  }
  return ending;
}

void DbSink::mark_directly(const Ending& ending, double samples_per_s) {
  // Until the lock goes, however long: the launcher's last job is its run's end, and a launcher
  // that gave up would leave the row for reconciliation to call "exited unexpectedly". A second
  // Ctrl+C still ends it at once.
  std::fprintf(stderr,
               "parity: the database is still locked; waiting for the lock to go to "
               "record the run as %s\n",
               std::string(storage::to_string(status_of(ending.outcome))).c_str());
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
    std::this_thread::sleep_for(std::chrono::milliseconds(250));
  }
}

}  // namespace parity::cli
