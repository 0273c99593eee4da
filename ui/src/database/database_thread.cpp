#include <parity/ui/database/database_thread.h>

namespace parity::ui {

DatabaseThread::DatabaseThread(QObject* parent)
    : QObject(parent), WorkerThread<DatabaseWorker>("parity-db") {
  // Made before any other connection to the worker, so queued first: openPath() is already
  // the new path in every other slot of databaseOpened.
  connect(worker(), &DatabaseWorker::databaseOpened, this,
          [this](const QString& path) { openPath_ = path; });
}

void DatabaseThread::openDatabase(const QString& path) {
  path_ = path;
  openPath_.clear();
  post(&DatabaseWorker::openDatabase, path, kPollMs);
}

}  // namespace parity::ui
