#pragma once
/// The Compare panel: pick a reference run; every run drawn on the chart is aligned on samples
/// seen and judged by the engine's verdict (equivalent / different, with reasons), with the config
/// keys that differ and a delta-loss plot against the reference. The loading and comparing run in
/// the database thread (DatabaseThread); results come back by request id (stale ones are dropped).
/// The plot shows either each run's loss minus the reference's, or the seed groups (runs of one
/// setup with different seeds) as a mean curve inside a min-max band. On a different run, Prove
/// (`parity-cli explain`) trains its counterfactuals and Make it equivalent (`parity-cli fix`)
/// its remedy, the whole setup with the reference's arithmetic (compare_remedy.cpp).
/// Thread affinity: UI thread.

#include <parity/analysis/verdict.h>
#include <parity/ui/database/database_worker.h>

#include <QHash>
#include <QPair>
#include <QSet>
#include <QTimer>
#include <QWidget>
#include <functional>
#include <utility>

QT_BEGIN_NAMESPACE
class QChart;
class QChartView;
class QValueAxis;
QT_END_NAMESPACE
class QComboBox;
class QLabel;
class QPushButton;
class QSplitter;
class QTableView;
class QTableWidget;
class QTextBrowser;

namespace parity::ui {

class DatabaseThread;
class ElidedLabel;
class RunsModel;
class VerdictTableModel;

class ComparePanel : public QWidget {
  Q_OBJECT
 public:
  ComparePanel(RunsModel* runs, DatabaseThread* db, QWidget* parent = nullptr);

  /// Asks for a comparison of the drawn runs against the chosen reference (or, after
  /// compareRuns, of the runs chosen then and the counterfactuals trained since).
  void compare();
  /// Compare selected (Runs): these runs only, against the chosen reference when it is one of
  /// them, else the first; until Compare is pressed again.
  void compareRuns(const QList<qint64>& runIds);
  /// Which drawn runs the window draws now (the Runs filter): the others are neither references
  /// nor compared. All of them without one.
  void setDrawnFilter(std::function<bool(qint64)> drawn);
  /// The runs the next comparison compares (the reference among them).
  QList<qint64> comparedRuns() const;
  qint64 referenceId() const;
  /// The last comparison shown (the verdict model holds it).
  const analysis::Comparison& comparison() const;
  /// The verdict table: a view of verdictModel(), one row per compared run.
  QTableView* verdictTable() const { return verdicts_; }
  VerdictTableModel* verdictModel() const { return verdictModel_; }
  /// The plot below the table, and the choice of what it shows (0: Δ loss, 1: seed groups).
  QChart* deltaChart() const { return deltaChart_; }
  /// The Δ plot's legend: every series' whole name, wrapped under the plot (Qt's legend cuts them).
  QLabel* deltaLegend() const { return deltaLegend_; }
  QComboBox* plotKindBox() const { return plotKind_; }
  /// Prove: enabled when the selected verdict row is 'different'.
  QPushButton* proveButton() const { return proveButton_; }
  /// Make it equivalent: enabled when the selected row is 'different' and its remedy changes the
  /// setup (read from the database when the row is selected), until its remedy is queued.
  QPushButton* fixButton() const { return fixButton_; }
  /// The remedy of `runId` against the compared reference, once read; nullptr before.
  const RemedyPlan* remedy(qint64 runId) const;
  /// The selected row in full: verdict, summary, every reason, information, and its proofs.
  QTextBrowser* details() const { return details_; }
  /// The recorded counterfactuals of the compared runs, as the last comparison read them.
  const RunProofs& proofs() const;

  /// What Prove queued (from the launcher): said in the status line; the table re-reads.
  void proofQueued(const QueuedProof& queued);
  /// Prove could not queue (the launcher said why in a dialog): the button and status recover.
  void proveFailed();
  /// The one-line status beside Prove: the comparison's summary, then how each Prove stands
  /// (its counterfactuals' states as the last comparison read them). Elided, whole in its tooltip.
  QString statusText() const;
  /// What Make it equivalent queued (from the launcher): the table re-reads, the status says it.
  void fixQueued(const RemedyPlan& queued);
  /// Make it equivalent could not queue the remedy of `runId`: the button is offered again.
  void fixFailed(qint64 referenceId, qint64 runId);
  /// The setup the window added for the remedy of `runId` ("fix #2", and any Experiment key
  /// the setup cannot carry), said in the details pane.
  void noteFixSetup(qint64 runId, const QString& note);

 signals:
  void compared();
  /// The user asked to prove why `runId` differs from `referenceId` (the launcher queues it).
  void proveRequested(qint64 referenceId, qint64 runId);
  /// The user asked to make `runId` equivalent to `referenceId` (the launcher queues its remedy).
  void fixRequested(qint64 referenceId, qint64 runId);

 private:
  void resizeEvent(QResizeEvent* event) override;
  void giveVerdictsRoom();
  void setUpWidgets();
  void connectSignals();
  void layOut();
  void proveSelected();
  void dropDeletedRuns();
  void refillReferences();
  void show(const analysis::Comparison& comparison);
  void showDiff(int row);
  void showDetails(int row);
  void updateProveButton();
  void fixSelected();
  void updateFixButton();
  /// Why Make it equivalent is off for the run (empty: it is on).
  QString fixBlocker(qint64 runId) const;
  void requestRemedy(qint64 runId);
  void onRemedyPlanned(const RemedyPlan& plan);
  /// The remedy's part of the details pane: the remedy itself where the run is 'different', and
  /// its runs (Make it equivalent's, or Prove's "all") wherever there are some.
  QString remedyHtml(qint64 runId, bool different) const;
  QString remedyPlanHtml(qint64 runId) const;
  QString fixNote(const RemedyPlan& queued) const;
  /// The verdict table's current row; -1 when none.
  int currentRow() const;
  void noteOtherExperiments(const analysis::Comparison& comparison);
  bool awaitsProof(qint64 runId) const;
  /// Reads the verdicts again when a counterfactual among `first`..`last` of the runs table
  /// started since they were read (its Proof cell said "queued").
  void rereadStartedProofs(int first, int last);
  QString proofNote(const QueuedProof& queued) const;
  void plot();
  void plotDeltas();
  void plotSeedGroups();
  void addPartingMarks(QValueAxis* x, QValueAxis* y, double lo, double hi);
  void keepPartingLabelsInside(QValueAxis* x);
  void plotAllowedBand(QValueAxis* x, QValueAxis* y, double& lo, double& hi);
  std::pair<QValueAxis*, QValueAxis*> addAxes();
  void setRoundRanges(QValueAxis* x, QValueAxis* y, double x0, double x1, double lo, double hi);

  RunsModel* runs_;
  DatabaseThread* db_;
  QComboBox* reference_;
  QComboBox* plotKind_;
  QPushButton* compareButton_;
  QPushButton* proveButton_;
  QPushButton* fixButton_;
  ElidedLabel* status_;
  VerdictTableModel* verdictModel_;
  QTableView* verdicts_;
  QTableWidget* diff_;
  QTextBrowser* details_;
  QChart* deltaChart_;
  QChartView* deltaView_;
  QLabel* deltaLegend_;
  RunProofs incomingProofs_;
  QList<QueuedProof> queuedProofs_;       ///< what each Prove of this session queued, oldest first
  qint64 showProveAnswer_ = 0;            ///< the run whose Prove answer the details scroll to, once
  using RunPair = QPair<qint64, qint64>;  ///< reference, run
  QHash<RunPair, RemedyPlan> remedies_;   ///< read (or queued) remedies
  QSet<RunPair> planning_;                ///< remedies asked for and not read yet
  QSet<RunPair> fixing_;                  ///< Make it equivalent pressed, not queued yet
  QList<RemedyPlan> queuedFixes_;         ///< what each Make it equivalent queued, oldest first
  QHash<qint64, QString> fixSetupNotes_;  ///< noteFixSetup's notes, by run
  QSet<qint64> startedProofs_;            ///< counterfactuals re-read once when they started
  /// Each compared run whose experiment (data, model) is not the reference's, with how
  /// (experimentDifference): said before any other cause.
  QHash<qint64, QString> otherExperiment_;
  int request_ = 0;
  QSplitter* verdictSplit_ = nullptr;  ///< the verdict table over the details
  QTimer relayoutPlot_;                ///< plots again once a resize settles
  std::function<bool(qint64)> drawn_;
  QList<qint64> chosen_;    ///< compareRuns' runs (empty: the drawn runs)
  qint64 chosenAfter_ = 0;  ///< runs after this one (counterfactuals) join the chosen ones
};

}  // namespace parity::ui
