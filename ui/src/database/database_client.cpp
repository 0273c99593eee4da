#include <parity/ui/database/database_client.h>

namespace parity::ui {

DatabaseClient::DatabaseClient(QObject* parent) : QObject(parent), worker_(new DatabaseWorker) {
  thread_.setObjectName("parity-db");
  worker_->moveToThread(&thread_);
  connect(&thread_, &QThread::finished, worker_, &QObject::deleteLater);
  connect(worker_, &DatabaseWorker::databaseOpened, this, [this](const QString& path) {
    openPath_ = path;
    emit databaseOpened(path);
  });
  connect(worker_, &DatabaseWorker::setupsRead, this, &DatabaseClient::setupsRead);
  connect(worker_, &DatabaseWorker::databaseFailed, this, &DatabaseClient::databaseFailed);
  connect(worker_, &DatabaseWorker::shownChoicesRead, this, &DatabaseClient::shownChoicesRead);
  connect(worker_, &DatabaseWorker::runsListed, this, &DatabaseClient::runsListed);
  connect(worker_, &DatabaseWorker::runsChanged, this, &DatabaseClient::runsChanged);
  connect(worker_, &DatabaseWorker::pollFailed, this, &DatabaseClient::pollFailed);
  connect(worker_, &DatabaseWorker::runCreated, this, &DatabaseClient::runCreated);
  connect(worker_, &DatabaseWorker::runCreateFailed, this, &DatabaseClient::runCreateFailed);
  connect(worker_, &DatabaseWorker::exportFinished, this, &DatabaseClient::exportFinished);
  connect(worker_, &DatabaseWorker::operationFailed, this, &DatabaseClient::operationFailed);
  connect(worker_, &DatabaseWorker::compared, this, &DatabaseClient::compared);
  connect(worker_, &DatabaseWorker::proofsRead, this, &DatabaseClient::proofsRead);
  connect(worker_, &DatabaseWorker::proofQueued, this, &DatabaseClient::proofQueued);
  connect(worker_, &DatabaseWorker::proveFailed, this, &DatabaseClient::proveFailed);
  thread_.start();
}

DatabaseClient::~DatabaseClient() {
  thread_.quit();
  thread_.wait();
}

template <typename F>
void DatabaseClient::post(F&& f) {
  QMetaObject::invokeMethod(worker_, std::forward<F>(f), Qt::QueuedConnection);
}

void DatabaseClient::openDatabase(const QString& path) {
  path_ = path;
  openPath_.clear();
  post([w = worker_, path] { w->openDatabase(path, kPollMs); });
}

void DatabaseClient::pollNow() {
  post([w = worker_] { w->listRuns(); });
}

void DatabaseClient::createRun(int requestId, const QString& label, const QString& configJson) {
  post([w = worker_, requestId, label, configJson] { w->createRun(requestId, label, configJson); });
}

void DatabaseClient::renameRun(qint64 runId, const QString& label) {
  post([w = worker_, runId, label] { w->renameRun(runId, label); });
}

void DatabaseClient::setNotes(qint64 runId, const QString& notes) {
  post([w = worker_, runId, notes] { w->setNotes(runId, notes); });
}

void DatabaseClient::deleteRun(qint64 runId) {
  post([w = worker_, runId] { w->deleteRun(runId); });
}

void DatabaseClient::setShownChoices(const QList<qint64>& runIds, bool shown) {
  post([w = worker_, runIds, shown] { w->setShownChoices(runIds, shown); });
}

void DatabaseClient::saveSetups(const QString& json) {
  post([w = worker_, json] { w->saveSetups(json); });
}

void DatabaseClient::flush() {
  if (thread_.isRunning())
    QMetaObject::invokeMethod(
        worker_, [] {}, Qt::BlockingQueuedConnection);
}

void DatabaseClient::markIfActive(qint64 runId, storage::RunStatus status, const QString& error) {
  post([w = worker_, runId, status, error] { w->markIfActive(runId, status, error); });
}

void DatabaseClient::exportCurves(const QString& path, const QList<qint64>& runIds,
                                  bool includeRanks) {
  post([w = worker_, path, runIds, includeRanks] { w->exportCurves(path, runIds, includeRanks); });
}

void DatabaseClient::exportRuns(const QString& path, const QList<qint64>& runIds) {
  post([w = worker_, path, runIds] { w->exportRuns(path, runIds); });
}

void DatabaseClient::compareRuns(int requestId, qint64 referenceId, const QList<qint64>& others) {
  post([w = worker_, requestId, referenceId, others] {
    w->compareRuns(requestId, referenceId, others);
  });
}

void DatabaseClient::proveRun(int requestId, qint64 referenceId, qint64 runId) {
  post(
      [w = worker_, requestId, referenceId, runId] { w->proveRun(requestId, referenceId, runId); });
}

}  // namespace parity::ui
