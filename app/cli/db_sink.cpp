#include "db_sink.h"

#include "cli_common.h"

namespace parity::cli {

DbSink::DbSink(storage::Database& db, int64_t run_id, ProgressLine* progress)
    : db_(db), run_id_(run_id), writer_(db.path()), progress_(progress) {}

void DbSink::on_start(const engine::RunStart& start) {
  db_.set_started(run_id_, start.total_steps, start.train_samples);
  if (progress_) progress_->start(start);
}

void DbSink::on_step(const engine::StepRecord& r) {
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

void DbSink::on_eval(const engine::EvalRecord& r) {
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

void DbSink::on_end(const engine::RunEnd&) {
  if (progress_) progress_->finish();
}

void DbSink::finish(engine::RunOutcome outcome, const std::string& message, double samples_per_s) {
  writer_.flush();
  db_.finish_run(run_id_, status_of(outcome),
                 outcome == engine::RunOutcome::kFinished ? "" : message, samples_per_s);
}

}  // namespace parity::cli
