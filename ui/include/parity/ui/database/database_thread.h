#pragma once
/// The window's database thread: a DatabaseWorker in a WorkerThread of its own (the shape every
/// worker of ui/ has, worker_thread.h), and which database it was asked to open and opened.
/// Callers connect to worker()'s signals (they arrive queued on the UI thread) and call its slots
/// through post(&DatabaseWorker::renameRun, id, label) or a connection to worker(), never
/// directly: the window never waits on the database, except flush() before it quits.
/// Thread affinity: create, call and destroy on the UI thread.

#include <parity/ui/database/database_worker.h>
#include <parity/ui/threads/worker_thread.h>

#include <QObject>
#include <QString>

namespace parity::ui {

class DatabaseThread : public QObject, public WorkerThread<DatabaseWorker> {
  Q_OBJECT
 public:
  /// How often the worker polls the open database for changed runs.
  static constexpr int kPollMs = 500;

  explicit DatabaseThread(QObject* parent = nullptr);

  /// Opens (or creates) the file, polling every kPollMs; the worker answers with
  /// databaseOpened or databaseFailed.
  void openDatabase(const QString& path);
  /// The path last asked for.
  QString path() const { return path_; }
  /// The path last opened successfully; empty until then (set before the window's own
  /// databaseOpened slots run: this connection is made first).
  QString openPath() const { return openPath_; }

 private:
  QString path_;
  QString openPath_;
};

}  // namespace parity::ui
