#pragma once
/// Starts runs as `parity-cli run --db FILE --run-id ID` processes, never inside the window, so a
/// crashing run cannot take the window down. Each launch first creates a queued run row holding
/// the config (through the DatabaseThread), then starts as many processes as maxConcurrent allows;
/// parity-cli trains the config stored with that run.
/// Stop sends SIGTERM (parity-cli marks the run stopped), then SIGKILL after a grace period.
/// Thread affinity: UI thread (QProcess signals arrive there).

#include <parity/config/run_config.h>
#include <parity/ui/database/database_worker.h>

#include <QElapsedTimer>
#include <QHash>
#include <QObject>
#include <QPair>
#include <QSet>
#include <QStringList>
#include <deque>
#include <memory>
#include <vector>

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
  void launch(const std::vector<config::RunConfig>& configs);
  /// Prove: creates the counterfactual runs of `runId` against `referenceId` (each cause
  /// aligned alone, then all) as queued rows, and starts them like any launch. Answers with
  /// proofQueued, or proveFailed.
  void prove(qint64 referenceId, qint64 runId);
  /// Make it equivalent: creates the remedy's counterfactual rows of `runId` against
  /// `referenceId` (what `parity-cli fix` trains) and starts them like any launch. Answers with
  /// fixQueued (its `created` empty when nothing is trained here), or fixFailed (its message
  /// empty when launchFailed said why).
  void fix(qint64 referenceId, qint64 runId);
  /// Stops queued (not yet started) and running runs this launcher owns.
  void stop(qint64 runId);
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
  /// Runs asked for and not yet ended (creating, queued here, or running).
  int outstanding() const;
  int running() const { return static_cast<int>(processes_.size()); }

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

 private:
  struct Pending {
    qint64 runId = 0;
    QString configJson;
  };
  struct Running {
    QProcess* process = nullptr;
    QStringList tail;
    QString log;  ///< the process's output (stdout and stderr), removed when it ends
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
  static QStringList readTail(const QString& log);
  void checkIdle();

  DatabaseThread* db_;
  QHash<int, QString> creating_;              ///< requestId -> config JSON
  QHash<int, QPair<qint64, qint64>> proving_;  ///< prove requests not answered yet: reference, run
  QStringList lastRequest_;                    ///< the last launch or prove asked, for repeated()
  QElapsedTimer lastRequestAt_;
  QHash<int, QPair<qint64, qint64>> fixing_;  ///< fix requests not answered yet: reference, run
  std::deque<Pending> pending_;
  QHash<qint64, Running> processes_;
  QSet<qint64> stopping_;  ///< runs sent SIGTERM by stop()
  int nextRequest_ = 1;
  int maxConcurrent_ = 1;
};

}  // namespace parity::ui
