#include "db_sink.h"

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
  writer_.flush();
  return ending;
}

}  // namespace parity::cli
