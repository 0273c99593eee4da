#include <parity/report/report.h>
#include <parity/report/report_writer.h>
#include <parity/report_pdf/pdf_writer.h>
#include <parity/storage/csv.h>
#include <parity/stored_runs/compare_runs.h>
#include <parity/ui/database/database_worker.h>

#include <QTimer>
#include <fstream>

namespace parity::ui {

namespace {

std::vector<int64_t> toIds(const QList<qint64>& ids) { return {ids.begin(), ids.end()}; }

}  // namespace

DatabaseWorker::DatabaseWorker(QObject* parent) : QObject(parent) {
  qRegisterMetaType<RunRows>();
  qRegisterMetaType<analysis::Comparison>();
  qRegisterMetaType<RunProofs>();
  qRegisterMetaType<QueuedProof>();
  qRegisterMetaType<RemedyPlan>();
}

DatabaseWorker::~DatabaseWorker() = default;

void DatabaseWorker::openDatabase(const QString& path, int pollMs) {
  if (!poll_) {
    // Created here, so the timer lives in (and fires on) the worker's thread.
    poll_ = new QTimer(this);
    connect(poll_, &QTimer::timeout, this, &DatabaseWorker::pollRuns);
  }
  poll_->stop();
  poller_.reset();
  db_.reset();
  const std::string file = path.toStdString();
  // A database this process cannot write (a read-only mount, another user's file) is still
  // viewable: opened read-only, said once.
  try {
    db_ = std::make_unique<storage::Database>(file, storage::viewing_mode(file));
  } catch (const std::exception& e) {
    emit databaseFailed(path, QString::fromStdString(e.what()));
    return;
  }
  poller_ = std::make_unique<storage::RunsPoller>(*db_);
  QString setups;
  try {
    setups = QString::fromStdString(db_->saved_setups().value_or(""));
  } catch (const std::exception& e) {
    emit pollFailed(QString::fromStdString(e.what()));  // the window keeps the setups it shows
  }
  emit setupsRead(path, setups);
  emit databaseOpened(path);
  ShownChoices choices;
  try {
    for (const auto& [id, shown] : db_->shown_choices()) choices.insert(id, shown);
  } catch (const std::exception& e) {
    emit pollFailed(QString::fromStdString(e.what()));  // the newest runs are drawn instead
  }
  emit shownChoicesRead(choices);
  if (db_->read_only()) {
    emit operationFailed(
        tr("Opening %1").arg(path),
        tr("This database cannot be written here, so it is open read-only: its runs can be "
           "viewed, compared and exported, not started or changed.") +
            (db_->may_miss_recent_writes()
                 ? tr(" Runs written since its last checkpoint may be missing: its -wal cannot be "
                      "shared by this user (its -shm is not readable here).")
                 : QString()));
  }
  listRuns();
  if (pollMs > 0) poll_->start(pollMs);
}

bool DatabaseWorker::ready(const QString& what) {
  if (db_) return true;
  emit operationFailed(what, tr("No database is open."));
  return false;
}

bool DatabaseWorker::poll(storage::RunsUpdate& update) {
  if (!poller_) return false;
  try {
    // A run whose launcher is gone (killed, crashed) is shown failed, never "running" forever:
    // the poller reconciles it (or, read-only, shows it failed without writing).
    update = poller_->poll();
    return true;
  } catch (const std::exception& e) {
    // A busy or briefly locked file: the next poll tries again; the window shows it quietly.
    emit pollFailed(QString::fromStdString(e.what()));
    return false;
  }
}

void DatabaseWorker::pollRuns() {
  storage::RunsUpdate update;
  if (!poll(update) || update.empty()) return;
  QList<qint64> removed(update.removed.begin(), update.removed.end());
  emit runsChanged(update.changed, removed);
}

void DatabaseWorker::listRuns() {
  storage::RunsUpdate update;
  if (poll(update)) emit runsListed(poller_->runs());
}

void DatabaseWorker::createRun(int requestId, const QString& label, const QString& configJson) {
  if (!db_) {
    emit runCreateFailed(requestId, tr("No database is open."));
    return;
  }
  try {
    const int64_t id = db_->create_run(label.toStdString(), configJson.toStdString());
    emit runCreated(requestId, id);
    listRuns();
  } catch (const std::exception& e) {
    emit runCreateFailed(requestId, QString::fromStdString(e.what()));
  }
}

void DatabaseWorker::renameRun(qint64 runId, const QString& label) {
  if (!ready(tr("Renaming a run"))) return;
  try {
    db_->rename_run(runId, label.toStdString());
    listRuns();
  } catch (const std::exception& e) {
    emit operationFailed(tr("Renaming run %1").arg(runId), QString::fromStdString(e.what()));
  }
}

void DatabaseWorker::setNotes(qint64 runId, const QString& notes) {
  if (!ready(tr("Saving notes"))) return;
  try {
    db_->set_notes(runId, notes.toStdString());
    listRuns();
  } catch (const std::exception& e) {
    emit operationFailed(tr("Saving notes of run %1").arg(runId), QString::fromStdString(e.what()));
  }
}

void DatabaseWorker::deleteRun(qint64 runId) {
  if (!ready(tr("Deleting a run"))) return;
  try {
    db_->delete_run(runId);
    listRuns();
  } catch (const std::exception& e) {
    emit operationFailed(tr("Deleting run %1").arg(runId), QString::fromStdString(e.what()));
  }
}

void DatabaseWorker::setShownChoices(const QList<qint64>& runIds, bool shown) {
  if (!db_ || db_->read_only()) return;
  try {
    db_->set_shown_choices(toIds(runIds), shown);
  } catch (const std::exception& e) {
    emit operationFailed(tr("Keeping which runs are drawn"), QString::fromStdString(e.what()));
  }
}

void DatabaseWorker::saveSetups(const QString& json) {
  if (!db_ || db_->read_only()) return;
  try {
    db_->save_setups(json.toStdString());
  } catch (const std::exception& e) {
    emit operationFailed(tr("Keeping the setups"), QString::fromStdString(e.what()));
  }
}

void DatabaseWorker::markIfActive(qint64 runId, storage::RunStatus status, const QString& error) {
  if (!db_) return;
  try {
    const auto run = db_->get_run(runId);
    if (run && storage::is_active(run->status)) {
      db_->set_status(runId, status, error.toStdString());
    }
    listRuns();
  } catch (const std::exception& e) {
    emit operationFailed(
        tr("Marking run %1 %2").arg(runId).arg(QString::fromLatin1(storage::to_string(status))),
        QString::fromStdString(e.what()));
  }
}

void DatabaseWorker::exportCurves(const QString& path, const QList<qint64>& runIds,
                                  bool includeRanks) {
  if (!ready(tr("Exporting curves"))) return;
  try {
    std::ofstream out(path.toStdString(), std::ios::binary);
    if (!out) throw std::runtime_error("cannot open " + path.toStdString() + " for writing");
    storage::write_curves_csv(*db_, toIds(runIds), out, includeRanks);
    out.close();
    if (!out) throw std::runtime_error("writing " + path.toStdString() + " failed");
    emit exportFinished(path);
  } catch (const std::exception& e) {
    emit operationFailed(tr("Exporting curves to %1").arg(path), QString::fromStdString(e.what()));
  }
}

void DatabaseWorker::exportRuns(const QString& path, const QList<qint64>& runIds) {
  if (!ready(tr("Exporting runs"))) return;
  try {
    std::ofstream out(path.toStdString(), std::ios::binary);
    if (!out) throw std::runtime_error("cannot open " + path.toStdString() + " for writing");
    storage::write_runs_csv(*db_, toIds(runIds), out);
    out.close();
    if (!out) throw std::runtime_error("writing " + path.toStdString() + " failed");
    emit exportFinished(path);
  } catch (const std::exception& e) {
    emit operationFailed(tr("Exporting runs to %1").arg(path), QString::fromStdString(e.what()));
  }
}

void DatabaseWorker::exportReport(const QString& path, qint64 referenceId,
                                  const QList<qint64>& runIds) {
  if (!ready(tr("Exporting the report"))) return;
  try {
    report_pdf::register_pdf_writer();  // the one writer that needs Qt; replaced if already there
    const report::Report r = report::build_report(*db_, referenceId, toIds(runIds));
    report::write_report_file(r, path.toStdString());
    emit exportFinished(path);
  } catch (const std::exception& e) {
    emit operationFailed(tr("Exporting the report to %1").arg(path),
                         QString::fromStdString(e.what()));
  }
}

void DatabaseWorker::compareRuns(int requestId, qint64 referenceId, const QList<qint64>& others) {
  if (!ready(tr("Comparing runs"))) return;
  try {
    const analysis::Comparison comparison =
        stored_runs::compare_stored(*db_, referenceId, toIds(others));
    RunProofs proofs;
    for (const analysis::RunComparison& row : comparison.rows) {
      if (row.verdict == analysis::Verdict::kReference) continue;
      try {
        auto found = stored_runs::stored_proofs(*db_, referenceId, row.id);
        if (!found.empty()) proofs[row.id] = std::move(found);
      } catch (const std::exception&) {
        // A counterfactual that cannot be read (deleted meanwhile, a bad config) shows no proof.
      }
    }
    emit proofsRead(requestId, proofs);
    emit compared(requestId, comparison);
  } catch (const std::exception& e) {
    emit operationFailed(tr("Comparing runs"), QString::fromStdString(e.what()));
  }
}

void DatabaseWorker::proveRun(int requestId, qint64 referenceId, qint64 runId) {
  if (!db_) {
    emit proveFailed(requestId, tr("No database is open."));
    return;
  }
  try {
    const stored_runs::ProofPlan plan = stored_runs::plan_proof(*db_, referenceId, runId);
    QueuedProof q;
    q.runId = runId;
    q.referenceId = referenceId;
    q.verdict = QString::fromStdString(analysis::to_string(plan.original.verdict));
    if (plan.original.verdict != analysis::Verdict::kDifferent) {
      emit proofQueued(requestId, q);  // nothing to prove
      return;
    }
    if (!plan.not_here.empty()) q.untestable << QString::fromStdString(plan.not_here);
    for (const analysis::Counterfactual& cf : plan.counterfactuals) {
      const std::vector<int64_t> ids =
          stored_runs::record_counterfactual(*db_, cf, runId, referenceId);
      if (ids.empty()) {
        q.untestable << QString::fromStdString(cf.cause + ": " + cf.why_not);
        continue;
      }
      for (int64_t id : ids) {
        q.created << id;
        q.causes << QString::fromStdString(cf.cause);
      }
    }
    emit proofQueued(requestId, q);
    pollRuns();
  } catch (const std::exception& e) {
    emit proveFailed(requestId, QString::fromStdString(e.what()));
  }
}

}  // namespace parity::ui
