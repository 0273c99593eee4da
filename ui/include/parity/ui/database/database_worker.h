#pragma once
/// Everything the window asks of the runs table, off the UI thread: polling, creating runs,
/// renaming, notes, deleting, marking, CSV export. Polls read only what changed (RunsPoller):
/// the timer's polls answer with runsChanged when something did and with nothing otherwise;
/// listRuns() (and every write) answers with the whole list, runsListed.
/// Thread affinity: lives in the DatabaseThread's QThread and owns that thread's Database
/// connection; its slots are only ever invoked through queued calls (DatabaseThread::post, or a
/// connection from the UI thread), and its signals are the ones the window connects to.

#include <parity/analysis/verdict.h>
#include <parity/storage/database.h>
#include <parity/storage/runs_poller.h>
#include <parity/stored_runs/proofs.h>
#include <parity/ui/database/remedy_plan.h>

#include <QHash>
#include <QList>
#include <QMetaType>
#include <QObject>
#include <QString>
#include <QStringList>
#include <map>
#include <memory>
#include <vector>

class QTimer;

namespace parity::ui {

using RunRows = std::vector<storage::RunRow>;
/// The runs the user chose to draw (true) or hide on the chart, by run id
/// (Database::shown_choices).
using ShownChoices = QHash<qint64, bool>;
/// The recorded counterfactuals of each compared run (by run id), as they read now.
using RunProofs = std::map<int64_t, std::vector<stored_runs::StoredProof>>;

/// What Prove queued for a run: the counterfactual rows created (queued, for the launcher) and
/// the causes that cannot be tested alone, with why.
struct QueuedProof {
  qint64 runId = 0;
  qint64 referenceId = 0;
  QString verdict;  ///< the run's verdict as Prove judged it (without seed groups)
  QList<qint64> created;
  QStringList causes;      ///< the created rows' causes, in the same order
  QStringList untestable;  ///< "dropout: dropout masks differ whenever ..."
};

class DatabaseWorker : public QObject {
  Q_OBJECT
 public:
  explicit DatabaseWorker(QObject* parent = nullptr);
  ~DatabaseWorker() override;

 public slots:
  void openDatabase(const QString& path, int pollMs);
  /// The timer's poll: runsChanged with what changed since the last poll, if anything did.
  void pollRuns();
  /// A poll answered with every run (runsListed), changed or not.
  void listRuns();
  void createRun(int requestId, const QString& label, const QString& configJson);
  void renameRun(qint64 runId, const QString& label);
  void setNotes(qint64 runId, const QString& notes);
  void deleteRun(qint64 runId);
  /// Keeps the user's choice to draw or hide runs with the database. A read-only database keeps
  /// nothing (the choice lasts the session); a failure is an operationFailed.
  void setShownChoices(const QList<qint64>& runIds, bool shown);
  /// Keeps the window's setups JSON with the database (Database::save_setups). A read-only
  /// database keeps nothing; a failure is an operationFailed.
  void saveSetups(const QString& json);
  /// Marks a run that is still queued or running (the process died before saying so).
  void markIfActive(qint64 runId, storage::RunStatus status, const QString& error);
  void exportCurves(const QString& path, const QList<qint64>& runIds, bool includeRanks);
  void exportRuns(const QString& path, const QList<qint64>& runIds);
  /// File → Export report…: the report of `runIds` against `referenceId` (report::build_report,
  /// the Compare panel's verdict with its proofs, facts, equivalent batches and curves) written
  /// whole to `path` by the writer of its extension (.html, .pdf, .csv); exportFinished, or an
  /// operationFailed saying why (nothing is left half-written).
  void exportReport(const QString& path, qint64 referenceId, const QList<qint64>& runIds);
  /// Loads the runs' global curves and configs and compares them to the reference (verdict.h).
  /// Also answers with proofsRead (before compared) for the runs that have counterfactuals.
  void compareRuns(int requestId, qint64 referenceId, const QList<qint64>& others);
  /// Creates the queued counterfactual rows that would prove why `runId` differs from the
  /// reference (stored_runs::plan_proof); answers with proofQueued or proveFailed.
  void proveRun(int requestId, qint64 referenceId, qint64 runId);
  /// Reads the remedy of `runId` against the reference (stored_runs::plan_proof); answers with
  /// remedyPlanned, whose error says why when it cannot be read.
  void planRemedy(qint64 referenceId, qint64 runId);
  /// Make it equivalent: creates the queued rows of the remedy's counterfactual ("cf #RUN all",
  /// and the reference under the band's seeds when noise is left), as `parity-cli fix` does;
  /// answers with fixQueued (no rows when nothing is trained here: an imported run, no remedy
  /// needed) or fixFailed.
  void fixRun(int requestId, qint64 referenceId, qint64 runId);

 signals:
  void compared(int requestId, const parity::analysis::Comparison& comparison);
  void proofsRead(int requestId, const parity::ui::RunProofs& proofs);
  void proofQueued(int requestId, const parity::ui::QueuedProof& queued);
  void proveFailed(int requestId, const QString& message);
  void remedyPlanned(const parity::ui::RemedyPlan& plan);
  void fixQueued(int requestId, const parity::ui::RemedyPlan& queued);
  void fixFailed(int requestId, const QString& message);
  /// The setups saved with the database being opened (empty: none saved); comes just before
  /// databaseOpened.
  void setupsRead(const QString& path, const QString& json);
  void databaseOpened(const QString& path);
  /// The user's choices kept with the database just opened; comes before its first runsListed.
  void shownChoicesRead(const parity::ui::ShownChoices& choices);
  void databaseFailed(const QString& path, const QString& message);
  void runsListed(const parity::ui::RunRows& runs);
  /// Runs new or changed since the previous poll, and the ids of runs deleted.
  void runsChanged(const parity::ui::RunRows& changed, const QList<qint64>& removed);
  void pollFailed(const QString& message);
  void runCreated(int requestId, qint64 runId);
  void runCreateFailed(int requestId, const QString& message);
  void exportFinished(const QString& path);
  void operationFailed(const QString& what, const QString& message);

 private:
  bool ready(const QString& what);
  /// Polls; false (after pollFailed) when reading failed.
  bool poll(storage::RunsUpdate& update);
  std::unique_ptr<storage::Database> db_;
  std::unique_ptr<storage::RunsPoller> poller_;
  QTimer* poll_ = nullptr;
};

}  // namespace parity::ui

Q_DECLARE_METATYPE(parity::ui::RunRows)
Q_DECLARE_METATYPE(parity::analysis::Comparison)
Q_DECLARE_METATYPE(parity::ui::RunProofs)
Q_DECLARE_METATYPE(parity::ui::QueuedProof)
