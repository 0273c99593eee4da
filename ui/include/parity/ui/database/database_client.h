#pragma once
/// The window's handle on the database: forwards every call to a DatabaseWorker running in its
/// own QThread and re-emits the worker's results on the UI thread.
/// Thread affinity: create, call and destroy on the UI thread; signals arrive on the UI thread.

#include <parity/ui/database/database_worker.h>

#include <QList>
#include <QObject>
#include <QString>
#include <QThread>

namespace parity::ui {

class DatabaseClient : public QObject {
  Q_OBJECT
 public:
  static constexpr int kPollMs = 500;

  explicit DatabaseClient(QObject* parent = nullptr);
  ~DatabaseClient() override;

  /// Opens (or creates) the file; answers with databaseOpened or databaseFailed.
  void openDatabase(const QString& path);
  QString path() const { return path_; }
  /// The path last opened successfully; empty until then.
  QString openPath() const { return openPath_; }

  /// Polls now and answers with the whole list (runsListed); the timer's polls answer with
  /// runsChanged, and only when something changed.
  void pollNow();
  /// Creates a queued run row; answers with runCreated(requestId, id) or runCreateFailed.
  void createRun(int requestId, const QString& label, const QString& configJson);
  void renameRun(qint64 runId, const QString& label);
  void setNotes(qint64 runId, const QString& notes);
  void deleteRun(qint64 runId);
  /// Keeps the user's choice to draw or hide runs with the database (DatabaseWorker).
  void setShownChoices(const QList<qint64>& runIds, bool shown);
  /// Keeps the window's setups with the database (DatabaseWorker::saveSetups).
  void saveSetups(const QString& json);
  /// Waits until the database thread has done everything asked of it so far (before quitting).
  void flush();
  void markIfActive(qint64 runId, storage::RunStatus status, const QString& error);
  void exportCurves(const QString& path, const QList<qint64>& runIds, bool includeRanks);
  void exportRuns(const QString& path, const QList<qint64>& runIds);
  void compareRuns(int requestId, qint64 referenceId, const QList<qint64>& others);
  /// Queues the counterfactual rows proving why a run differs (DatabaseWorker::proveRun).
  void proveRun(int requestId, qint64 referenceId, qint64 runId);

 signals:
  void proofsRead(int requestId, const parity::ui::RunProofs& proofs);
  void proofQueued(int requestId, const parity::ui::QueuedProof& queued);
  void proveFailed(int requestId, const QString& message);
  void compared(int requestId, const parity::analysis::Comparison& comparison);
  void setupsRead(const QString& path, const QString& json);
  void databaseOpened(const QString& path);
  void shownChoicesRead(const parity::ui::ShownChoices& choices);
  void databaseFailed(const QString& path, const QString& message);
  void runsListed(const parity::ui::RunRows& runs);
  void runsChanged(const parity::ui::RunRows& changed, const QList<qint64>& removed);
  void pollFailed(const QString& message);
  void runCreated(int requestId, qint64 runId);
  void runCreateFailed(int requestId, const QString& message);
  void exportFinished(const QString& path);
  void operationFailed(const QString& what, const QString& message);

 private:
  template <typename F>
  void post(F&& f);

  QThread thread_;
  DatabaseWorker* worker_;
  QString path_;
  QString openPath_;
};

}  // namespace parity::ui
