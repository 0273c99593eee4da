#include <parity/ui/database/database_thread.h>
#include <parity/ui/runs/run_launcher.h>
#include <signal.h>
#include <sys/prctl.h>
#include <unistd.h>

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QGuiApplication>
#include <QProcess>
#include <QStandardPaths>
#include <QStyleHints>
#include <QTimer>

namespace parity::ui {

namespace {

constexpr int kKillAfterMs = 5000;
constexpr int kTailLines = 12;

}  // namespace

RunLauncher::RunLauncher(DatabaseThread* db, QObject* parent) : QObject(parent), db_(db) {
  connect(db_->worker(), &DatabaseWorker::runCreated, this, &RunLauncher::onRunCreated);
  connect(db_->worker(), &DatabaseWorker::runCreateFailed, this, &RunLauncher::onRunCreateFailed);
  connect(db_->worker(), &DatabaseWorker::proofQueued, this, &RunLauncher::onProofQueued);
  connect(db_->worker(), &DatabaseWorker::proveFailed, this,
          [this](int requestId, const QString& message) {
            if (!proving_.remove(requestId)) return;
            emit proveFailed(message);
            checkIdle();
          });
  connect(db_->worker(), &DatabaseWorker::fixQueued, this, &RunLauncher::onFixQueued);
  connect(db_->worker(), &DatabaseWorker::runsListed, this,
          [this](const RunRows& rows) { onRunsRead(rows, true); });
  connect(db_->worker(), &DatabaseWorker::runsChanged, this,
          [this](const RunRows& rows) { onRunsRead(rows, false); });
  connect(db_->worker(), &DatabaseWorker::fixFailed, this,
          [this](int requestId, const QString& message) {
            const auto it = fixing_.find(requestId);
            if (it == fixing_.end()) return;
            const auto [reference, run] = *it;
            fixing_.erase(it);
            emit fixFailed(reference, run, message);
            checkIdle();
          });
}

RunLauncher::~RunLauncher() {
  endFollowers();  // the jobs go on
  // Do not leave orphans behind unless letFinish() said so: each run gets SIGTERM and a moment
  // to mark itself stopped.
  for (auto it = processes_.begin(); it != processes_.end(); ++it) {
    QProcess* p = it->process;
    p->disconnect(this);
    p->terminate();
  }
  for (auto it = processes_.begin(); it != processes_.end(); ++it) {
    QProcess* p = it->process;
    if (!p->waitForFinished(3000)) {
      p->kill();
      p->waitForFinished(1000);
    }
  }
}

void RunLauncher::stopAllAndWait() {
  stopAll();
  for (qint64 id : processes_.keys()) {
    const auto it = processes_.constFind(id);
    if (it == processes_.constEnd()) continue;
    QProcess* p = it->process;  // finished() runs onFinished(), which erases it
    if (!p->waitForFinished(kKillAfterMs)) {
      p->kill();
      p->waitForFinished(1000);
    }
  }
}

// A QProcess kills its process when deleted: the running ones are let go of instead, never
// deleted. They run in their own session (start()) with their output in a file, so neither the
// window's end nor its terminal's ends them; their supervisor records their end in the database.
void RunLauncher::letFinish() {
  while (!pending_.empty()) {
    const qint64 id = pending_.front().runId;
    pending_.pop_front();
    db_->post(&DatabaseWorker::markIfActive, id, storage::RunStatus::kStopped,
              tr("not started: the window quit before its turn"));
  }
  for (auto it = processes_.begin(); it != processes_.end(); ++it) {
    it->process->disconnect(this);
    it->process->setParent(nullptr);
  }
  processes_.clear();
}

QString RunLauncher::findCli(QStringList* searched) {
  QStringList candidates;
  const QString fromEnv = qEnvironmentVariable("PARITY_CLI");
  if (!fromEnv.isEmpty()) candidates << fromEnv;
  const QString here = QCoreApplication::applicationDirPath();
  candidates << QDir(here).filePath("parity-cli") << QDir(here).filePath("../cli/parity-cli");
  for (const QString& c : candidates) {
    QFileInfo info(c);
    if (info.isFile() && info.isExecutable()) return info.canonicalFilePath();
  }
  const QString onPath = QStandardPaths::findExecutable("parity-cli");
  if (searched) *searched = candidates << QStringLiteral("PATH");
  return onPath;
}

void RunLauncher::setMaxConcurrent(int count) {
  maxConcurrent_ = std::max(1, count);
  startPending();
}

int RunLauncher::outstanding() const {
  return creating_.size() + proving_.size() + fixing_.size() + static_cast<int>(pending_.size()) +
         processes_.size();
}

bool RunLauncher::canStop(qint64 runId) const {
  if (processes_.contains(runId)) return true;
  const auto active = active_.constFind(runId);
  if (active != active_.constEnd() && !active->jobId.empty()) return !cancelling_.contains(runId);
  if (canStopReattached(runId)) return true;
  for (const Pending& p : pending_) {
    if (p.runId == runId) return true;
  }
  return false;
}

bool RunLauncher::cliFound() {
  QStringList searched;
  if (!findCli(&searched).isEmpty()) return true;
  emit launchFailed(tr("parity-cli was not found, so no run can start."),
                    tr("Build it (ninja parity-cli) so it sits beside this parity executable, "
                       "or put it on PATH, or set PARITY_CLI to its path. Looked in: %1.")
                        .arg(searched.join(", ")));
  return false;
}

// A double-click on Launch or Prove (or a key repeat) is one gesture: the same request again
// within the double-click interval is dropped. Launching the same setups again later still trains
// them again, as asked.
bool RunLauncher::repeated(const QStringList& request) {
  const int interval = qobject_cast<QGuiApplication*>(QCoreApplication::instance())
                           ? QGuiApplication::styleHints()->mouseDoubleClickInterval()
                           : 400;
  const bool same =
      request == lastRequest_ && lastRequestAt_.isValid() && lastRequestAt_.elapsed() < interval;
  lastRequest_ = request;
  lastRequestAt_.start();
  return same;
}

void RunLauncher::launch(const std::vector<config::RunConfig>& configs,
                         const LaunchTarget& target) {
  if (!cliFound()) return;
  QStringList jsons{QStringLiteral("launch")};
  jsons << target.cliArgs();
  for (const config::RunConfig& config : configs)
    jsons << QString::fromStdString(config::to_json(config));
  if (repeated(jsons)) return;
  for (const config::RunConfig& config : configs) {
    const int request = nextRequest_++;
    const QString json = QString::fromStdString(config::to_json(config));
    creating_.insert(request, {json, target});
    db_->post(&DatabaseWorker::createRun, request, QString::fromStdString(config.label), json);
  }
}

void RunLauncher::onRunCreated(int requestId, qint64 runId) {
  auto it = creating_.find(requestId);
  if (it == creating_.end()) return;  // created by someone else's request
  pending_.push_back({runId, it->first, it->second});
  creating_.erase(it);
  startPending();
}

void RunLauncher::prove(qint64 referenceId, qint64 runId) {
  if (!cliFound()) return;
  const QPair<qint64, qint64> pair{referenceId, runId};
  // The same Prove still on its way to the database is not queued a second time.
  for (const auto& asked : std::as_const(proving_))
    if (asked == pair) return;
  if (repeated({QStringLiteral("prove"), QString::number(referenceId), QString::number(runId)}))
    return;
  const int request = nextRequest_++;
  proving_.insert(request, pair);
  db_->post(&DatabaseWorker::proveRun, request, referenceId, runId);
}

void RunLauncher::onProofQueued(int requestId, const QueuedProof& queued) {
  if (!proving_.remove(requestId)) return;  // someone else's request
  for (qint64 id : queued.created) pending_.push_back({id, QString(), {}});
  emit proofQueued(queued);
  startPending();
}

void RunLauncher::fix(qint64 referenceId, qint64 runId) {
  if (!cliFound()) {
    emit fixFailed(referenceId, runId, QString());  // launchFailed said why
    return;
  }
  const int request = nextRequest_++;
  fixing_.insert(request, {referenceId, runId});
  db_->post(&DatabaseWorker::fixRun, request, referenceId, runId);
}

void RunLauncher::onFixQueued(int requestId, const RemedyPlan& queued) {
  if (!fixing_.remove(requestId)) return;  // someone else's request
  for (qint64 id : queued.created) pending_.push_back({id, QString(), {}});
  emit fixQueued(queued);
  startPending();
}

void RunLauncher::onRunCreateFailed(int requestId, const QString& message) {
  if (!creating_.remove(requestId)) return;
  emit launchFailed(tr("The run could not be added to the database: %1").arg(message),
                    tr("Check that the database file is writable (File › New database to pick "
                       "another place)."));
  checkIdle();
}

void RunLauncher::startPending() {
  while (!pending_.empty() && processes_.size() < maxConcurrent_) {
    const Pending next = pending_.front();
    pending_.pop_front();
    start(next);
  }
  checkIdle();
}

// Its output goes to a file, not a pipe the window owns (a run let finish at quit would die
// writing to it), and it runs in its own session, so the window's terminal cannot end it. The
// file is unlinked once the process has it open: the window reads it through `output`.
QProcess* RunLauncher::spawnCli(const QStringList& args, const QString& name, QFile** output,
                                bool endsWithWindow) {
  auto* process = new QProcess(this);
  const QString path =
      QDir(QStandardPaths::writableLocation(QStandardPaths::TempLocation))
          .filePath(QString("parity-%1-%2.log").arg(name).arg(QCoreApplication::applicationPid()));
  process->setProcessChannelMode(QProcess::MergedChannels);
  process->setStandardInputFile(QProcess::nullDevice());
  process->setStandardOutputFile(path, QIODevice::Truncate);
  process->setChildProcessModifier([endsWithWindow] {
    ::setsid();
    // A follower killed with the window (kill -9 too): the next window follows on.
    if (endsWithWindow) ::prctl(PR_SET_PDEATHSIG, SIGTERM);
  });
  process->start(findCli(), args);
  // QProcess opened the file before it started the child (or failed to start it).
  auto* file = new QFile(path, process);
  if (!file->open(QIODevice::ReadOnly)) {
    delete file;
    file = nullptr;
  }
  QFile::remove(path);
  *output = file;
  return process;
}

void RunLauncher::start(const Pending& pending) {
  const qint64 runId = pending.runId;
  // The run row already holds the config (written by createRun): parity-cli runs that.
  const QStringList args =
      QStringList{"run", "--db", db_->openPath(), "--run-id", QString::number(runId)}
      << pending.target.cliArgs();
  QFile* output = nullptr;
  QProcess* process = spawnCli(args, QString("run-%1").arg(runId), &output);
  processes_.insert(runId, Running{process, {}, output, pending.target.slurm});
  connect(process, &QProcess::finished, this, [this, runId](int code, QProcess::ExitStatus status) {
    onFinished(runId, code, status == QProcess::CrashExit);
  });
  const auto failedToStart = [this, runId, process] {
    onFinished(runId, -1, true);
    emit launchFailed(tr("parity-cli could not be started: %1").arg(process->errorString()),
                      tr("Check that parity-cli is executable, or set PARITY_CLI to a working "
                         "build."));
  };
  if (process->state() == QProcess::NotRunning) {
    failedToStart();
    return;
  }
  connect(process, &QProcess::errorOccurred, this, [failedToStart](QProcess::ProcessError error) {
    if (error == QProcess::FailedToStart) failedToStart();
  });
  emit runStarted(runId);
}

// The last whole lines of a run's output file, for the error report.
QStringList RunLauncher::readTail(QFile* output) {
  if (!output) return {};
  constexpr qint64 kTailBytes = 16 * 1024;
  output->seek(std::max<qint64>(0, output->size() - kTailBytes));
  QString text = QString::fromLocal8Bit(output->readAll());
  // parity-cli redraws progress with \r; each redraw is a line here.
  text.replace('\r', '\n');
  QStringList tail;
  for (const QString& line : text.split('\n')) {
    if (line.trimmed().isEmpty()) continue;
    tail.append(line.trimmed());
    if (tail.size() > kTailLines) tail.removeFirst();
  }
  return tail;
}

void RunLauncher::onFinished(qint64 runId, int exitCode, bool crashed) {
  auto it = processes_.find(runId);
  if (it == processes_.end()) return;
  Running done = *it;
  processes_.erase(it);
  done.tail = readTail(done.output);
  done.process->deleteLater();
  const bool stopped = stopping_.remove(runId);
  // Queued by sbatch: the job trains on without this window's child; a follower reads it in.
  if (done.submit && exitCode == 0 && !crashed) follow(runId);

  if (exitCode != 0 || crashed) {
    const QString last =
        done.tail.isEmpty() ? tr("parity-cli exited with code %1").arg(exitCode) : done.tail.last();
    // parity-cli normally marks the run itself; this covers a process that died first (one
    // stopped here and killed after the grace period is stopped, not failed).
    db_->post(&DatabaseWorker::markIfActive, runId,
              stopped ? storage::RunStatus::kStopped : storage::RunStatus::kFailed,
              stopped ? tr("stopped") : last);
  } else {
    db_->post(&DatabaseWorker::listRuns);
  }
  emit runExited(runId, exitCode, done.tail.join('\n'));
  startPending();
}

void RunLauncher::stop(qint64 runId) {
  for (auto it = pending_.begin(); it != pending_.end(); ++it) {
    if (it->runId == runId) {
      pending_.erase(it);
      db_->post(&DatabaseWorker::markIfActive, runId, storage::RunStatus::kStopped,
                tr("stopped before it started"));
      checkIdle();
      return;
    }
  }
  auto it = processes_.find(runId);
  if (it == processes_.end()) {
    if (active_.contains(runId) && !active_[runId].jobId.empty()) {
      stopSubmitted(runId);
    } else if (canStopReattached(runId)) {
      stopReattached(runId);
    }
    return;
  }
  QProcess* process = it->process;
  stopping_.insert(runId);
  process->terminate();
  QTimer::singleShot(kKillAfterMs, process, [process] {
    if (process->state() != QProcess::NotRunning) process->kill();
  });
}

void RunLauncher::stopAll() {
  while (!pending_.empty()) stop(pending_.front().runId);
  for (qint64 id : processes_.keys()) stop(id);
}

void RunLauncher::checkIdle() {
  if (outstanding() == 0) emit idle();
}

}  // namespace parity::ui
