#pragma once
/// Starts runs as `parity-cli run --db FILE --run-id ID` processes, never inside the window, so a
/// crashing run cannot take the window down. Each launch first creates a queued run row holding
/// the config (through the DatabaseThread), then starts as many processes as maxConcurrent allows;
/// parity-cli trains the config stored with that run.
/// Stop sends SIGTERM (parity-cli marks the run stopped), then SIGKILL after a grace period.
/// A run's output goes to a file in the temporary folder that is unlinked as soon as the process
/// has it open: the window reads its tail through its own handle, and nothing is left behind when
/// the run (or a window that let it finish) ends, even if the window is killed.
///
/// Runs submitted to Slurm (LaunchTarget::slurm) and runs of earlier windows (run_launcher_jobs):
/// - Launch to Slurm runs `parity-cli run --run-id ID --launcher slurm --submit ...`, which
///   returns once sbatch has queued the job; the window then follows the job with a child
///   `parity-cli follow ID` (PENDING with Slurm's reason, RUNNING, its end), as it does for every
///   submitted job still queued or running in a database it opens (reattach: follow reads on
///   from the last stored step; a job that ended unwatched is read whole). Followers are not
///   runs of this window: quitting ends them (SIGTERM stops following) and the jobs go on.
/// - Stop on a submitted run is `parity-cli stop ID` (scancel; the run is recorded stopped).
/// - Stop on a local run that an earlier window let finish (its supervisor, recorded in the
///   database, alive on this host and boot) is SIGTERM to that supervisor, then SIGKILL after
///   the grace period (the run is then recorded stopped here).
/// Thread affinity: UI thread (QProcess signals arrive there).

#include <parity/config/run_config.h>
#include <parity/ui/database/database_worker.h>
#include <parity/ui/runs/launch_target.h>

#include <QElapsedTimer>
#include <QHash>
#include <QObject>
#include <QPair>
#include <QSet>
#include <QStringList>
#include <deque>
#include <memory>
#include <vector>

class QFile;
class QProcess;

namespace parity::ui {

class DatabaseThread;

class RunLauncher : public QObject {
  Q_OBJECT
 public:
  explicit RunLauncher(DatabaseThread* db, QObject* parent = nullptr);
  ~RunLauncher() override;

  /// parity-cli to use: $PARITY_CLI, then beside this executable, then ../cli/, then PATH.
  /// Empty when none is found; `searched` (optional) lists where it looked.
  static QString findCli(QStringList* searched = nullptr);

  /// Creates and starts a run of each config. The same configs asked again within the
  /// double-click interval are the same gesture (a double-click on Launch): dropped.
  void launch(const std::vector<config::RunConfig>& configs, const LaunchTarget& target = {});
  /// Prove: creates the counterfactual runs of `runId` against `referenceId` (each cause
  /// aligned alone, then all) as queued rows, and starts them like any launch. Answers with
  /// proofQueued, or proveFailed.
  void prove(qint64 referenceId, qint64 runId);
  /// Make it equivalent: creates the remedy's counterfactual rows of `runId` against
  /// `referenceId` (what `parity-cli fix` trains) and starts them like any launch. Answers with
  /// fixQueued (its `created` empty when nothing is trained here), or fixFailed (its message
  /// empty when launchFailed said why).
  void fix(qint64 referenceId, qint64 runId);
  /// Stops queued (not yet started) and running runs this launcher owns, a submitted run (scancel)
  /// and a local run an earlier window let finish.
  void stop(qint64 runId);
  /// Stops the queued and running runs this launcher owns (not submitted jobs).
  void stopAll();
  /// Quit, "Stop them": stopAll(), then waits for each process to end (killed after the grace
  /// period); a run stopped here is recorded stopped even where its process was killed.
  void stopAllAndWait();
  /// Quit, "Let them finish": the running processes keep training after this launcher is gone
  /// (their supervisor records their end; the next window on the database shows it); runs still
  /// queued here are recorded stopped, not started.
  void letFinish();
  bool canStop(qint64 runId) const;

  void setMaxConcurrent(int count);
  int maxConcurrent() const { return maxConcurrent_; }
  /// Runs asked for and not yet ended (creating, queued here, or running); submitted jobs that
  /// only a follower watches are not counted (they outlive the window).
  int outstanding() const;
  int running() const { return static_cast<int>(processes_.size()); }
  /// Submitted runs this window follows (a `parity-cli follow` child each).
  QList<qint64> followed() const { return followers_.keys(); }

 signals:
  void runStarted(qint64 runId);
  /// The process ended; `lastLines` holds its last stderr/stdout lines.
  void runExited(qint64 runId, int exitCode, const QString& lastLines);
  /// Nothing could be started: the problem and what to do about it, for a dialog.
  void launchFailed(const QString& problem, const QString& fix);
  void proofQueued(const parity::ui::QueuedProof& queued);
  void proveFailed(const QString& message);
  void fixQueued(const parity::ui::RemedyPlan& queued);
  void fixFailed(qint64 referenceId, qint64 runId, const QString& message);
  void idle();
  /// The database's runs were read again: what canStop() answers may have changed.
  void stoppableChanged();

 private:
  struct Pending {
    qint64 runId = 0;
    QString configJson;
    LaunchTarget target;
  };
  struct Running {
    QProcess* process = nullptr;
    QStringList tail;
    QFile* output = nullptr;  ///< the process's output (stdout and stderr), already unlinked
    bool submit = false;      ///< parity-cli run --submit: a follower takes over when it ends
  };
  /// What the database last said of a run still queued or running (for followers and Stop).
  struct Active {
    std::string jobId;
    storage::SupervisorIdentity supervisor;
  };

  void onRunCreated(int requestId, qint64 runId);
  void onRunCreateFailed(int requestId, const QString& message);
  void onProofQueued(int requestId, const QueuedProof& queued);
  void onFixQueued(int requestId, const RemedyPlan& queued);
  bool cliFound();
  /// `request` is the one just asked, again within the double-click interval.
  bool repeated(const QStringList& request);
  void startPending();
  void start(const Pending& pending);
  void onFinished(qint64 runId, int exitCode, bool crashed);
  static QStringList readTail(QFile* output);
  /// A parity-cli process with `args` in its own session, its output in an unlinked temporary
  /// file; with `endsWithWindow` it gets SIGTERM when the window's process ends, however.
  QProcess* spawnCli(const QStringList& args, const QString& name, QFile** output,
                     bool endsWithWindow = false);
  // run_launcher_jobs.cpp
  void onRunsRead(const RunRows& rows, bool whole);
  void follow(qint64 runId);
  void onFollowerFinished(qint64 runId, int exitCode, bool crashed);
  void stopSubmitted(qint64 runId);
  bool canStopReattached(qint64 runId) const;
  void stopReattached(qint64 runId);
  void endFollowers();
  void checkIdle();

  DatabaseThread* db_;
  QHash<int, QPair<QString, LaunchTarget>> creating_;  ///< requestId -> config JSON, target
  QHash<int, QPair<qint64, qint64>> proving_;  ///< prove requests not answered yet: reference, run
  QStringList lastRequest_;                    ///< the last launch or prove asked, for repeated()
  QElapsedTimer lastRequestAt_;
  QHash<int, QPair<qint64, qint64>> fixing_;  ///< fix requests not answered yet: reference, run
  std::deque<Pending> pending_;
  QHash<qint64, Running> processes_;
  QSet<qint64> stopping_;  ///< runs sent SIGTERM by stop()
  QHash<qint64, Running> followers_;  ///< submitted runs followed: parity-cli follow
  QHash<qint64, int> followStarts_;   ///< followers started per run (a failing one is not looped)
  QHash<qint64, Active> active_;      ///< runs the database holds queued or running
  QHash<qint64, QProcess*> cancelling_;  ///< submitted runs whose parity-cli stop is under way
  QString activeDb_;                     ///< the database active_ and followers_ belong to
  int nextRequest_ = 1;
  int maxConcurrent_ = 1;
};

}  // namespace parity::ui
