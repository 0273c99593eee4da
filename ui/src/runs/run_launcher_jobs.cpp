// RunLauncher: runs it did not start as a child training here — Slurm jobs it submitted or found
// queued or running in the database (followed by `parity-cli follow`, stopped by `parity-cli
// stop`), and local runs an earlier window let finish (stopped through their recorded
// supervisor). See run_launcher.h.
#include <parity/storage/supervisor.h>
#include <parity/ui/database/database_thread.h>
#include <parity/ui/runs/run_launcher.h>
#include <signal.h>
#include <unistd.h>

#include <QDateTime>
#include <QFile>
#include <QProcess>
#include <QTimer>

namespace parity::ui {

namespace {

constexpr int kKillAfterMs = 5000;
// A follower that ends while its job is still queued or running is started again, a few times
// at most: one that cannot follow (no Slurm here, say) is not restarted for ever.
constexpr int kMaxFollowStarts = 3;

const storage::SupervisorIdentity& self() {
  static const storage::SupervisorIdentity me = storage::SupervisorIdentity::current();
  return me;
}

}  // namespace

// Every listing (whole) or change says which runs are queued or running: a submitted one that no
// follower of this window reads is followed on (reattach), whoever submitted it.
void RunLauncher::onRunsRead(const RunRows& rows, bool whole) {
  if (db_->openPath() != activeDb_) {  // another database: its jobs are not this one's
    endFollowers();
    active_.clear();
    followStarts_.clear();
    activeDb_ = db_->openPath();
  }
  if (whole) active_.clear();
  for (const storage::RunRow& r : rows) {
    if (storage::is_active(r.status) && !r.shown_failed) {
      active_.insert(r.id, Active{r.job_id, r.supervisor});
    } else {
      active_.remove(r.id);
    }
  }
  for (auto it = active_.cbegin(); it != active_.cend(); ++it) {
    const qint64 id = it.key();
    if (it->jobId.empty() || followers_.contains(id) || processes_.contains(id)) continue;
    if (followStarts_.value(id) < kMaxFollowStarts) follow(id);
  }
  emit stoppableChanged();  // what canStop() answers may have changed
}

void RunLauncher::follow(qint64 runId) {
  if (followers_.contains(runId) || activeDb_.isEmpty()) return;
  QFile* output = nullptr;
  QProcess* process = spawnCli({"follow", "--db", activeDb_, "--quiet", QString::number(runId)},
                               QString("follow-%1").arg(runId), &output, true);
  ++followStarts_[runId];
  followers_.insert(runId, Running{process, {}, output, true});
  connect(process, &QProcess::finished, this, [this, runId](int code, QProcess::ExitStatus status) {
    onFollowerFinished(runId, code, status == QProcess::CrashExit);
  });
  connect(process, &QProcess::errorOccurred, this, [this, runId](QProcess::ProcessError error) {
    if (error == QProcess::FailedToStart) onFollowerFinished(runId, -1, true);
  });
  if (process->state() == QProcess::NotRunning) onFollowerFinished(runId, -1, true);
}

// follow exits 0 for a finished run, 1 for another end (stopped, failed): the database says
// which. Anything else is a follower that could not follow: said once, in the launch dialog.
void RunLauncher::onFollowerFinished(qint64 runId, int exitCode, bool crashed) {
  auto it = followers_.find(runId);
  if (it == followers_.end()) return;
  Running done = *it;
  followers_.erase(it);
  done.tail = readTail(done.output);
  done.process->deleteLater();
  db_->post(&DatabaseWorker::listRuns);
  if (crashed || (exitCode != 0 && exitCode != 1)) {
    emit launchFailed(
        tr("Run %1 is a Slurm job this window cannot follow: %2")
            .arg(runId)
            .arg(done.tail.isEmpty() ? tr("parity-cli exited with code %1").arg(exitCode)
                                     : done.tail.last()),
        tr("The job goes on. Follow it with `parity-cli follow %1` where Slurm answers "
           "(squeue), or open this database there.")
            .arg(runId));
  }
}

// scancel through `parity-cli stop RUN`, which records the run stopped and reads it to its end;
// the follower sees that end too.
void RunLauncher::stopSubmitted(qint64 runId) {
  if (cancelling_.contains(runId)) return;
  QFile* output = nullptr;
  QProcess* process = spawnCli({"stop", "--db", activeDb_, QString::number(runId)},
                               QString("stop-%1").arg(runId), &output);
  cancelling_.insert(runId, process);
  connect(process, &QProcess::finished, this, [this, runId, process, output](int code) {
    cancelling_.remove(runId);
    process->deleteLater();
    db_->post(&DatabaseWorker::listRuns);
    if (code == 0) return;
    const QStringList tail = readTail(output);
    emit launchFailed(tr("Run %1's Slurm job could not be cancelled: %2")
                          .arg(runId)
                          .arg(tail.isEmpty() ? tr("parity-cli stop exited with code %1").arg(code)
                                              : tail.last()),
                      tr("Cancel it with scancel where Slurm answers, then follow it with "
                         "`parity-cli follow %1`.")
                          .arg(runId));
  });
}

// A local run an earlier window let finish: its supervisor (parity-cli run, the leader of its own
// session) is alive on this host and boot, as the database recorded it (pid and start time).
bool RunLauncher::canStopReattached(qint64 runId) const {
  const auto it = active_.constFind(runId);
  if (it == active_.constEnd() || !it->jobId.empty() || processes_.contains(runId)) return false;
  const storage::SupervisorIdentity& who = it->supervisor;
  if (who.pid <= 0 || who.start_time <= 0) return false;
  if (who.host != self().host || who.boot_id != self().boot_id) return false;
  return storage::process_start_time(who.pid) == who.start_time;
}

void RunLauncher::stopReattached(qint64 runId) {
  const storage::SupervisorIdentity who = active_.value(runId).supervisor;
  ::kill(static_cast<pid_t>(who.pid), SIGTERM);  // parity-cli stops its ranks, records stopped
  QTimer::singleShot(kKillAfterMs, this, [this, runId, who] {
    if (storage::process_start_time(who.pid) == who.start_time) {
      const pid_t pid = static_cast<pid_t>(who.pid);
      // Its ranks are in its process group (it leads its session): none is left behind.
      ::kill(::getpgid(pid) == pid ? -pid : pid, SIGKILL);
    }
    db_->post(&DatabaseWorker::markIfActive, runId, storage::RunStatus::kStopped, tr("stopped"));
  });
}

// Quit, or another database: following stops (SIGTERM), the jobs go on; a cancel under way
// finishes without the window (it records the run stopped).
void RunLauncher::endFollowers() {
  for (auto it = followers_.begin(); it != followers_.end(); ++it) {
    it->process->disconnect(this);
    it->process->terminate();
  }
  for (auto it = followers_.begin(); it != followers_.end(); ++it) {
    if (!it->process->waitForFinished(3000)) {
      it->process->kill();
      it->process->waitForFinished(1000);
    }
    delete it->process;
  }
  followers_.clear();
  for (QProcess* p : std::as_const(cancelling_)) {
    p->disconnect(this);
    p->setParent(nullptr);
  }
  cancelling_.clear();
}

}  // namespace parity::ui
